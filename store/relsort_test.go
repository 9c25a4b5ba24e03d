package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
)

// TestRelationSortPages checks that every page of a list sorted by a field
// of an owner to-one relation (store/relsort.go, indexed reads) holds the
// rows the one-statement join gives at the same place (Limit -1 keeps that
// path): equal keys, null keys, documents without a target, drafts,
// filters, both directions, every offset.
func TestRelationSortPages(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		mk := docMaker(t, e)
		// Two authors share a name; two have no bio (a null key).
		var authors []string
		for i, a := range []map[string]any{
			{"name": "Bea", "bio": "x"}, {"name": "Al", "bio": "z"}, {"name": "Bea"}, {"name": "Cy", "bio": "y"}, {"name": "Al", "bio": "x"}, {"name": "Di"},
		} {
			a["email"] = fmt.Sprintf("a%d@x.io", i)
			authors = append(authors, mk("/api/authors", a))
		}
		cats := []string{mk("/api/categories", map[string]any{"name": "Zed"}), mk("/api/categories", map[string]any{"name": "Ann"})}
		for i := 0; i < 40; i++ {
			d := map[string]any{"title": fmt.Sprintf("t%02d", i), "views": i % 7}
			if i%9 != 0 { // some articles have no author
				d["author"] = authors[(i*5)%len(authors)]
			}
			if i%4 != 0 {
				d["category"] = cats[i%2]
			}
			path := "/api/articles"
			if i%10 == 3 {
				path += "?status=draft" // no published version
			}
			mk(path, d)
		}
		checkRelationSortPages(t, e, []string{"author.name", "author.bio", "author.id", "author.createdAt", "category.name"})
	})
}

// TestRelationSortLocalizedTarget is the same check for a localized
// target: a document sorts by its target's first row (lowest id, whatever
// its locale), as orderBy's subquery takes it.
func TestRelationSortLocalizedTarget(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		dir := filepath.Join("testdata", "relsort")
		e := testenv.Start(t, db(t), testenv.Options{Dir: dir, Public: testenv.AllActions(t, dir),
			Config: engine.Config{Locales: []string{"en", "fr"}, DefaultLocale: "en"}})
		mk := docMaker(t, e)
		put := func(path string, data map[string]any) {
			t.Helper()
			if r := e.Do("PUT", path, map[string]any{"data": data}); r.Status != 200 {
				t.Fatalf("PUT %s: %d %s", path, r.Status, r.Body)
			}
		}
		// English first, French first (its row has the lowest id), a
		// null name, French only, a draft only, and two sharing a name.
		zed := mk("/api/categories", map[string]any{"name": "Zed"})
		put("/api/categories/"+zed+"?locale=fr", map[string]any{"name": "Ann"})
		bob := mk("/api/categories?locale=fr", map[string]any{"name": "Bob"})
		put("/api/categories/"+bob+"?locale=en", map[string]any{"name": "Al"})
		none := mk("/api/categories", map[string]any{})
		put("/api/categories/"+none+"?locale=fr", map[string]any{"name": "Aa"})
		fr := mk("/api/categories?locale=fr", map[string]any{"name": "Cy"})
		draft := mk("/api/categories?status=draft", map[string]any{"name": "Ab"})
		twin := mk("/api/categories", map[string]any{"name": "Zed"})
		cats := []string{zed, bob, none, fr, draft, twin}
		for i := 0; i < 30; i++ {
			d := map[string]any{"title": fmt.Sprintf("t%02d", i), "views": i % 7}
			if i%8 != 0 {
				d["category"] = cats[i%len(cats)]
			}
			path := "/api/articles"
			if i%10 == 3 {
				path += "?status=draft"
			}
			mk(path, d)
		}
		checkRelationSortPages(t, e, []string{"category.name", "category.id"})
	})
}

// checkRelationSortPages compares every page of the articles sorted by
// each field (both directions, both versions, with and without a filter)
// with the same rows from the one-statement join (Limit -1 keeps that path).
func checkRelationSortPages(t *testing.T, e *testenv.Env, fields []string) {
	t.Helper()
	ctx := context.Background()
	articles, ok := e.Engine.Route("articles")
	if !ok {
		t.Fatal("no articles")
	}
	views, err := e.Engine.ResolveFilter(articles, &query.Cond{Path: []string{"views"}, Op: query.OpGt, Value: "2"})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, field := range fields {
		for _, desc := range []bool{false, true} {
			sorts, err := e.Engine.ResolveSort(articles, []query.Sort{{Path: strings.Split(field, "."), Desc: desc}})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []engine.Version{engine.VersionPublished, engine.VersionDraft} {
				for _, f := range []query.Filter{nil, views} {
					base := engine.ListQuery{Version: v, Locale: query.AllLocales, Filter: f, Sort: sorts, Limit: -1}
					all, err := e.Store.List(ctx, articles.Type, &base)
					if err != nil {
						t.Fatal(err)
					}
					want := ids(all)
					for _, limit := range []int{0, 1, 2, 3, 7, 100} {
						for start := 0; start <= len(want)+1; start++ {
							q := base
							q.Start, q.Limit = start, limit
							got, err := e.Store.List(ctx, articles.Type, &q)
							if err != nil {
								t.Fatal(err)
							}
							w := want[min(start, len(want)):min(start+limit, len(want))]
							if !slices.Equal(ids(got), w) {
								t.Fatalf("%s desc=%v version=%v filter=%v start %d limit %d:\n got %v\nwant %v\n all %v",
									field, desc, v, f != nil, start, limit, ids(got), w, want)
							}
							checked++
						}
					}
				}
			}
		}
	}
	t.Logf("%d pages checked", checked)
}

func ids(rows []engine.Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}
