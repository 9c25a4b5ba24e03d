package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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

// A schema transaction that recounts a type while writers create its
// documents neither deadlocks with them (the writers' flush holds the
// counters' table lock while it waits for a version row) nor counts a
// document twice (one committed between the recount's DELETE and its
// COUNT, its +1 in a shard row the DELETE did not see).
func TestRecountWhileWriting(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		tags := mustRoute(t, e, "tags").Type
		ctx, cancel := context.WithCancel(context.Background())
		failures := make(chan []string, 4)
		for w := 0; w < 4; w++ {
			go func(w int) {
				var failed []string
				for i := 0; ctx.Err() == nil && i < 100000; i++ {
					r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprint("w", w, "-", i)}})
					if r.Status != 201 {
						failed = append(failed, fmt.Sprint(r.Status, " ", r.ErrorMessage()))
					}
				}
				failures <- failed
			}(w)
		}
		var recountErr error
		for i := 0; i < 20 && recountErr == nil; i++ {
			time.Sleep(10 * time.Millisecond)
			// SetLocale of a locale no row has: it touches the table (a version
			// row is taken) and recounts.
			recountErr = e.Store.Evolve(ctx, func(tx engine.SchemaTx) error { return tx.SetLocale(tags, "xx", "yy") })
		}
		time.Sleep(10 * time.Millisecond)
		cancel()
		for w := 0; w < 4; w++ {
			for _, f := range <-failures {
				t.Errorf("create failed: %s", f)
			}
		}
		if recountErr != nil {
			t.Fatalf("recount: %v", recountErr)
		}
		q := &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales}
		fast, err := e.Store.Count(context.Background(), tags, q)
		if err != nil {
			t.Fatal(err)
		}
		col := mustRoute(t, e, "tags")
		if q.Filter, err = e.Engine.ResolveFilter(col, &query.Cond{Path: []string{"id"}, Op: query.OpGt, Value: "0"}); err != nil {
			t.Fatal(err)
		}
		real, err := e.Store.Count(context.Background(), tags, q)
		if err != nil {
			t.Fatal(err)
		}
		if fast != real || real < 20 {
			t.Fatalf("counters say %d tags, the table has %d", fast, real)
		}
		t.Logf("%d tags written during 20 recounts", real)
	})
}

// TestCountCacheKeysKeepValuesApart: two filters whose values run together
// (summary "a" + title "bc", summary "ab" + title "c": values are bound in
// the order of the fields' names) are different totals; the count cache
// once keyed them alike and answered the second with the first's.
func TestCountCacheKeysKeepValuesApart(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		for _, d := range []map[string]any{{"title": "bc", "summary": "a"}, {"title": "c", "summary": "ab"}, {"title": "c", "summary": "ab"}} {
			if r := e.Do("POST", "/api/articles", map[string]any{"data": d}); r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		for _, c := range []struct {
			filter string
			total  float64
		}{
			{"filters[title][$eq]=bc&filters[summary][$eq]=a", 1},
			{"filters[title][$eq]=c&filters[summary][$eq]=ab", 2},
			{"filters[title][$eq]=bc&filters[summary][$eq]=a&pagination[page]=5", 1}, // an empty page: counted apart
			{"filters[title][$eq]=c&filters[summary][$eq]=ab&pagination[page]=5", 2},
		} {
			r := e.Do("GET", "/api/articles?"+c.filter, nil)
			meta, _ := r.JSON["meta"].(map[string]any)
			pg, _ := meta["pagination"].(map[string]any)
			if r.Status != 200 || pg["total"] != c.total {
				t.Errorf("%s: %d, total %v, want %v", c.filter, r.Status, pg["total"], c.total)
			}
		}
	})
}
