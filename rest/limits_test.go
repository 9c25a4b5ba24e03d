package rest_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestReadLimits: a small anonymous request cannot make the server build a
// huge answer. Populate depth, the rows a request reads and the bytes of
// its answer (a document counted for every place it appears) are bounded;
// past a limit the answer is a 400 naming it, never a partial body.
func TestReadLimits(t *testing.T) {
	deep := func(levels int) string {
		var b strings.Builder
		path := "populate"
		for i := 0; i < levels; i++ {
			if i%2 == 0 {
				path += "[author][populate]"
			} else {
				path += "[articles][populate]"
			}
		}
		b.WriteString(strings.TrimSuffix(path, "[populate]") + "=true")
		return b.String()
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, ""),
			Config: engine.Config{MaxLimit: 100, Limits: engine.Limits{MaxRows: 500, MaxResponseBytes: 1 << 20}}})
		ctx := context.Background()
		authors, _ := e.Engine.Route("authors")
		articles, _ := e.Engine.Route("articles")
		a, err := e.Engine.Create(ctx, engine.AllowAll{}, authors, map[string]any{"name": "Ann"}, engine.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			if _, err := e.Engine.Create(ctx, engine.AllowAll{}, articles, map[string]any{"title": fmt.Sprintf("A%02d", i),
				"summary": strings.Repeat("s", 400), "author": a.DocumentID}, engine.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			name, query string
			status      int
			limit       string
		}{
			{"depth 6 passes the depth check, not the size one", "pagination[pageSize]=2&" + deep(6), 400, "maxResponseBytes"}, // 2×40×40 articles
			{"depth 7", "pagination[pageSize]=1&" + deep(7), 400, "maxPopulateDepth"},
			{"fan-out of one author's articles", "pagination[pageSize]=40&" + deep(4), 400, "maxResponseBytes"},
			{"a normal page", "pagination[pageSize]=40&populate[author]=true", 200, ""},
			{"two levels", "pagination[pageSize]=10&" + deep(2), 200, ""},
		}
		for _, c := range cases {
			r := e.Do("GET", "/api/articles?"+c.query, nil)
			if r.Status != c.status {
				t.Errorf("%s: %d %.300s", c.name, r.Status, r.Body)
				continue
			}
			if c.limit != "" {
				det, _ := r.JSON["error"].(map[string]any)["details"].(map[string]any)
				if r.ErrorName() != "ValidationError" || det["limit"] != c.limit || r.JSON["data"] != nil {
					t.Errorf("%s: %s", c.name, r.Body)
				}
			}
		}
		// Rows: a budget of 500 rows holds whatever the page size.
		small := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, ""),
			Config: engine.Config{MaxLimit: 100, Limits: engine.Limits{MaxRows: 30}}})
		var tagIDs []any
		for i := 0; i < 31; i++ {
			r := small.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprintf("t%d", i)}})
			tagIDs = append(tagIDs, r.Data()["documentId"])
		}
		if r := small.Do("GET", "/api/tags?pagination[pageSize]=100", nil); r.Status != 400 || !strings.Contains(r.ErrorMessage(), "30 stored rows") {
			t.Errorf("rows: %d %s", r.Status, r.Body)
		}
		if r := small.Do("GET", "/api/tags?pagination[pageSize]=30", nil); r.Status != 200 {
			t.Errorf("rows within: %d %s", r.Status, r.Body)
		}
		// Relations read together (one statement) stay within the budget
		// together: 1 article + its author + 28 tags is 30 rows, 29 tags 31.
		au := small.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Ada"}}).Data()["documentId"]
		for _, n := range []int{28, 29} {
			title := fmt.Sprintf("with %d tags", n)
			if r := small.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": title, "author": au, "tags": tagIDs[:n]}}); r.Status != 201 {
				t.Fatalf("article: %d %s", r.Status, r.Body)
			}
			r := small.Do("GET", "/api/articles?populate[author]=true&populate[tags]=true&filters[title][$eq]="+url.QueryEscape(title), nil)
			if n == 28 && (r.Status != 200 || len(r.List()) != 1 || len(r.List()[0]["tags"].([]any)) != 28) {
				t.Errorf("28 tags: %d %s", r.Status, r.Body)
			}
			if n == 29 && (r.Status != 400 || !strings.Contains(r.ErrorMessage(), "30 stored rows")) {
				t.Errorf("29 tags: %d %s", r.Status, r.Body)
			}
		}
		// GraphQL shares one budget across the operation's reads.
		r := small.Do("POST", "/graphql", map[string]any{"query": `{ a: tags(pagination: {limit: 20}) { data { id } } b: tags(pagination: {limit: 20}) { data { id } } }`})
		if r.Status != 400 || r.JSON["data"] != nil || !strings.Contains(string(r.Body), "30 stored rows") {
			t.Errorf("GraphQL rows: %d %s", r.Status, r.Body)
		}
	})
}
