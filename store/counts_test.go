package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
)

// TestCountersMatchRows runs a mixed workload (drafts, publishes, updates,
// deletes, relations from both sides, concurrent creates) and checks that
// every unfiltered total the counters give equals a real COUNT.
func TestCountersMatchRows(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		var ids []string
		for i := 0; i < 12; i++ {
			path := "/api/articles"
			if i%3 == 0 {
				path += "?status=draft"
			}
			r := e.Do("POST", path, map[string]any{"data": map[string]any{"title": fmt.Sprint("t", i)}})
			if r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			ids = append(ids, r.Data()["documentId"].(string))
		}
		e.Do("PUT", "/api/articles/"+ids[0], map[string]any{"data": map[string]any{"title": "now published"}})
		e.Do("PUT", "/api/articles/"+ids[1]+"?status=draft", map[string]any{"data": map[string]any{"title": "draft edit"}})
		e.Do("DELETE", "/api/articles/"+ids[2], nil)
		e.Do("DELETE", "/api/articles/"+ids[3], nil)
		done := make(chan bool)
		for w := 0; w < 4; w++ {
			go func(w int) {
				for i := 0; i < 5; i++ {
					e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprint(w, "-", i)}})
				}
				done <- true
			}(w)
		}
		for w := 0; w < 4; w++ {
			<-done
		}
		ctx := context.Background()
		for _, name := range []string{"articles", "tags"} {
			col, _ := e.Engine.Route(name)
			for _, v := range []engine.Version{engine.VersionPublished, engine.VersionDraft, engine.VersionAny} {
				q := &engine.ListQuery{Version: v, Locale: query.AllLocales}
				fast, err := e.Store.Count(ctx, col.Type, q)
				if err != nil {
					t.Fatal(err)
				}
				// A filter that holds for every row forces a real COUNT.
				q.Filter, err = e.Engine.ResolveFilter(col, &query.Cond{Path: []string{"id"}, Op: query.OpGt, Value: "0"})
				if err != nil {
					t.Fatal(err)
				}
				real, err := e.Store.Count(ctx, col.Type, q)
				if err != nil {
					t.Fatal(err)
				}
				if fast != real {
					t.Errorf("%s version %d: counters say %d, rows %d", name, v, fast, real)
				}
			}
		}
		if n, _ := e.Store.Count(ctx, mustRoute(t, e, "tags").Type, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales}); n != 20 {
			t.Fatalf("tags: %d, want 20", n)
		}
	})
}

func mustRoute(t *testing.T, e *testenv.Env, name string) engine.Collection {
	c, ok := e.Engine.Route(name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	return c
}
