package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
)

// TestServeWiresGraphQL: the served app answers GraphQL, and a type created
// while serving is in the GraphQL schema at once.
func TestServeWiresGraphQL(t *testing.T) {
	dir := copyBlog(t)
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer a.store.Close()
	srv := httptest.NewServer(a.http)
	defer srv.Close()
	query := func(q string) map[string]any {
		body, _ := json.Marshal(map[string]any{"query": q})
		res, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return out
	}
	out := query(`{ articles { data { id attributes { title } } meta { pagination { total } } } }`)
	if _, ok := out["data"].(map[string]any)["articles"]; !ok {
		t.Fatalf("articles query: %v", out)
	}
	memo := `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos"},"attributes":{"text":{"type":"text"}}}`
	if _, err := a.engine.ChangeSchema(context.Background(), engine.SchemaChange{Mode: engine.ChangeCreate, Kind: engine.KindContentType, UID: "api::memo.memo", Body: []byte(memo)}); err != nil {
		t.Fatal(err)
	}
	out = query(`{ __type(name: "Memo") { fields { name } } }`)
	typ, _ := out["data"].(map[string]any)["__type"].(map[string]any)
	if typ == nil || !strings.Contains(mustJSON(typ), `"text"`) {
		t.Fatalf("live type in GraphQL: %v", out)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
