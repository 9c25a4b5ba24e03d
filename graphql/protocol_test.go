package graphql

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Batched requests: an array of operations answers an array of results,
// in order, each operation limited on its own.
func TestBatchedRequests(t *testing.T) {
	each(t, options{cfg: Config{MaxCost: 500, MaxBatch: 3}}, func(t *testing.T, e *env) {
		e.seed("articles", map[string]any{"title": "One"})
		r := e.post(`[{"query": "{ articles { data { attributes { title } } } }"},
			{"query": "query($n: Int) { tags(pagination: {limit: $n}) { data { id } } }", "variables": {"n": 2}},
			{"query": "{ articles { data { attributes { nope } } } }"}]`)
		eq(t, "status", r.Status, 200)
		var out []map[string]any
		if err := json.Unmarshal(r.Body, &out); err != nil || len(out) != 3 {
			t.Fatalf("batch answer: %v %s", err, r.Body)
		}
		eq(t, "first", str(out[0], "data", "articles", "data", 0, "attributes", "title"), "One")
		if out[1]["errors"] != nil || get(out[1], "data", "tags", "data") == nil {
			t.Fatalf("second: %v", out[1])
		}
		eq(t, "third", str(out[2], "errors", 0, "extensions", "code"), "GRAPHQL_VALIDATION_FAILED")

		// Each operation meets the cost limit alone: one over it fails,
		// its neighbours run.
		costly := `{ a1: articles(pagination: {limit: 100}) { data { id } } a2: articles(pagination: {limit: 100}) { data { id } } ` +
			`a3: articles(pagination: {limit: 100}) { data { id } } a4: articles(pagination: {limit: 100}) { data { id } } ` +
			`a5: articles(pagination: {limit: 100}) { data { id } } a6: articles(pagination: {limit: 100}) { data { id } } }`
		body, _ := json.Marshal([]map[string]any{{"query": "{ __typename }"}, {"query": costly}})
		r = e.post(body)
		out = nil
		_ = json.Unmarshal(r.Body, &out)
		if len(out) != 2 || out[0]["errors"] != nil || !strings.Contains(str(out[1], "errors", 0, "message"), "cost") {
			t.Fatalf("cost per operation: %s", r.Body)
		}
		// Mutations may be batched (POST); the limit and empty batches are refused.
		r = e.post(`[{"query": "mutation { createTag(data: {name: \"batched\"}) { data { id } } }"}]`)
		out = nil
		_ = json.Unmarshal(r.Body, &out)
		if len(out) != 1 || get(out[0], "data", "createTag", "data", "id") == nil {
			t.Fatalf("batched mutation: %s", r.Body)
		}
		for _, c := range []struct{ body, msg string }{
			{`[]`, "The batch holds no operation"},
			{`[{"query": "{ __typename }"}, {"query": "{ __typename }"}, {"query": "{ __typename }"}, {"query": "{ __typename }"}]`, "The batch holds 4 operations: the limit is 3"},
			{`[1, 2]`, "POST body is not a JSON array of operations"},
		} {
			r := e.post(c.body)
			if r.Status != 400 || !strings.HasPrefix(r.errMessage(), c.msg) {
				t.Errorf("%s: %d %s", c.body, r.Status, r.Body)
			}
		}
	})
}

// Automatic persisted queries, as Apollo clients send them, by POST and GET.
func TestPersistedQueries(t *testing.T) {
	each(t, options{}, func(t *testing.T, e *env) {
		e.seed("articles", map[string]any{"title": "Persisted"})
		query := "{ articles { data { attributes { title } } } }"
		sum := sha256.Sum256([]byte(query))
		hash := hex.EncodeToString(sum[:])
		ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}

		r := e.post(map[string]any{"extensions": ext})
		eq(t, "unknown hash status", r.Status, 200)
		eq(t, "unknown hash", r.errCode(), "PERSISTED_QUERY_NOT_FOUND")
		r = e.post(map[string]any{"query": "{ tags { data { id } } }", "extensions": ext})
		eq(t, "mismatch", r.errMessage(), "provided sha does not match query")
		r = e.post(map[string]any{"query": query, "extensions": ext})
		eq(t, "register", str(r.JSON, "data", "articles", "data", 0, "attributes", "title"), "Persisted")
		r = e.post(map[string]any{"extensions": ext})
		eq(t, "by hash", str(r.JSON, "data", "articles", "data", 0, "attributes", "title"), "Persisted")
		extJSON, _ := json.Marshal(ext)
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/graphql?extensions="+url.QueryEscape(string(extJSON)), nil)
		r = e.do(req)
		eq(t, "GET by hash", str(r.JSON, "data", "articles", "data", 0, "attributes", "title"), "Persisted")

		// A persisted mutation is still refused over GET.
		mut := `mutation { createTag(data: {name: "x"}) { data { id } } }`
		msum := sha256.Sum256([]byte(mut))
		mext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(msum[:])}}
		e.post(map[string]any{"query": mut, "extensions": mext})
		mj, _ := json.Marshal(mext)
		req, _ = http.NewRequest(http.MethodGet, e.URL+"/graphql?extensions="+url.QueryEscape(string(mj)), nil)
		eq(t, "GET mutation", e.do(req).Status, 405)

		for _, c := range []struct {
			ext  any
			code string
		}{
			{map[string]any{"persistedQuery": map[string]any{"version": 2, "sha256Hash": hash}}, "BAD_REQUEST"},
			{map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": "abc"}}, "BAD_REQUEST"},
			{"not an object", "BAD_REQUEST"},
		} {
			if r := e.post(map[string]any{"extensions": c.ext}); r.errCode() != c.code {
				t.Errorf("%v: %s", c.ext, r.Body)
			}
		}
	})
}

// A null literal as an argument's value parses and means "not given".
func TestNullArgument(t *testing.T) {
	each(t, options{}, func(t *testing.T, e *env) {
		e.seed("articles", map[string]any{"title": "Null"})
		d := e.ok(`{ articles(filters: null) { data { attributes { title } } } }`, nil)
		eq(t, "filters null", str(d, "articles", "data", 0, "attributes", "title"), "Null")
		d = e.ok(`{ articles(sort: null, pagination: null) { data { id } } }`, nil)
		if len(list(d, "articles", "data")) != 1 {
			t.Fatalf("null sort and pagination: %v", d)
		}
	})
}
