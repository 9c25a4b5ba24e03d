package store_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
)

// TestIndexesFollowTheSchema checks, with EXPLAIN, that filters and sorts
// on unique and relation fields are planned with the schema's indexes.
func TestIndexesFollowTheSchema(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		for i := 0; i < 50; i++ {
			e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": fmt.Sprint("a", i), "email": fmt.Sprintf("a%d@x.io", i)}})
			e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": fmt.Sprint("t", i)}})
		}
		ctx := context.Background()
		if e.DB == "postgres" {
			for _, tbl := range []string{"articles", "authors"} {
				if _, err := e.Store.GORM().Raw("ANALYZE " + tbl).Rows(); err != nil {
					t.Fatal(err)
				}
			}
		}
		col := func(name string) engine.Collection {
			c, ok := e.Engine.Route(name)
			if !ok {
				t.Fatalf("no %s", name)
			}
			return c
		}
		articles, authors := col("articles"), col("authors")
		type explainCase struct {
			name  string
			c     engine.Collection
			q     *engine.ListQuery
			index string
		}
		cases := []explainCase{
			{"unique uid", articles, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				Filter: cond(t, e, articles, "slug", "t1")}, "articles_slug_uq"},
			{"unique email", authors, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				Filter: cond(t, e, authors, "email", "a1@x.io")}, "authors_email_uq"},
			{"to-one relation", articles, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				RefAttr: articles.Type.Attr("author"), RefIDs: []string{"x"}}, "articles_author_relid"},
			{"numeric filter", articles, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				Filter: cond(t, e, articles, "views", "7")}, "articles_views_nix"},
			{"date filter", articles, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				Filter: cond(t, e, articles, "publishDate", "2024-01-01")}, "articles_publishDate_tix"},
			{"unbounded string filter: its prefix", authors, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales,
				Filter: cond(t, e, authors, "name", "a7")}, "authors_name_pix"},
			{"published list", articles, &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales}, "articles_pub_idx"},
			{"draft list", articles, &engine.ListQuery{Version: engine.VersionDraft, Locale: query.AllLocales}, "articles_draft_idx"},
		}
		// On PostgreSQL, Explain turns sequential scans off for its own
		// transaction: the index must be usable, whatever the planner's taste.
		if e.DB == "postgres" { // SQLite orders nulls first natively; our NULLS LAST needs a sort there
			sorted := func(c engine.Collection, field string) *engine.ListQuery {
				return &engine.ListQuery{Version: engine.VersionPublished, Locale: query.AllLocales, Sort: sorts(t, e, c, field), Limit: 25}
			}
			cases = append(cases,
				explainCase{"numeric sort", articles, sorted(articles, "rating"), "articles_rating_nix"},
				explainCase{"bounded string sort", articles, sorted(articles, "title"), "articles_title_tix"},
				explainCase{"unbounded string sort: its prefix", authors, sorted(authors, "name"), "authors_name_pix"})
		}
		for _, c := range cases {
			plan, err := e.Store.Explain(ctx, c.c.Type, c.q)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !strings.Contains(plan, c.index) {
				t.Errorf("%s: plan does not use %s:\n%s", c.name, c.index, plan)
			}
		}
	})
}

func cond(t *testing.T, e *testenv.Env, c engine.Collection, field, value string) query.Filter {
	t.Helper()
	f, err := e.Engine.ResolveFilter(c, &query.Cond{Path: []string{field}, Op: query.OpEq, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func sorts(t *testing.T, e *testenv.Env, c engine.Collection, field string) []query.Sort {
	t.Helper()
	s, err := e.Engine.ResolveSort(c, []query.Sort{{Path: []string{field}, Desc: true}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPrefixSortKeepsTheOrder: a sort on a string without maxLength goes
// by its first 255 characters, then the whole value; names longer than
// that and equal in their first 255 characters still come in the order
// of the whole value, both ways, a page at a time as all at once.
func TestPrefixSortKeepsTheOrder(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		long := strings.Repeat("m", 255)
		names := []string{long + "b", "a", long + "a", "zz", long, long + "ab", "m", "b"}
		ids := map[string]any{}
		for i, n := range names {
			r := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": n, "email": fmt.Sprintf("p%d@x.io", i)}})
			if r.Status != 201 {
				t.Fatalf("POST: %d %s", r.Status, r.Body)
			}
			ids[n] = r.Data()["documentId"]
		}
		if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "by long a", "author": ids[long+"a"]}}); r.Status != 201 {
			t.Fatalf("POST: %d %s", r.Status, r.Body)
		}
		want := slices.Clone(names)
		slices.Sort(want)
		for _, desc := range []bool{false, true} {
			if desc {
				slices.Reverse(want)
			}
			dir := "asc"
			if desc {
				dir = "desc"
			}
			var got []string
			for page := 1; page <= 3; page++ {
				r := e.Do("GET", fmt.Sprintf("/api/authors?sort=name:%s&pagination[pageSize]=3&pagination[page]=%d", dir, page), nil)
				for _, d := range r.JSON["data"].([]any) {
					got = append(got, d.(map[string]any)["name"].(string))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("sort=name:%s: got %q\nwant %q", dir, short(got), short(want))
			}
		}
		// $eq goes through the prefix, then the whole value: names equal
		// in their first 255 characters are told apart, and through a
		// relation too.
		for _, n := range []string{long, long + "a", long + "ab", "a", long + "c"} {
			want := 0
			if slices.Contains(names, n) {
				want = 1
			}
			q := url.Values{"filters[name][$eq]": {n}}
			r := e.Do("GET", "/api/authors?"+q.Encode(), nil)
			var got []string
			for _, d := range r.JSON["data"].([]any) {
				got = append(got, d.(map[string]any)["name"].(string))
			}
			if len(got) != want || (want == 1 && got[0] != n) {
				t.Errorf("name $eq %q: got %q", short([]string{n}), short(got))
			}
			q = url.Values{"filters[author][name][$eq]": {n}}
			wantArticles := 0
			if n == long+"a" {
				wantArticles = 1
			}
			if r := e.Do("GET", "/api/articles?"+q.Encode(), nil); r.Status != 200 || len(r.List()) != wantArticles {
				t.Errorf("author.name $eq %q: %d, %d articles, want %d", short([]string{n}), r.Status, len(r.List()), wantArticles)
			}
		}
	})
}

func short(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.Replace(n, strings.Repeat("m", 255), "m×255", 1)
	}
	return out
}
