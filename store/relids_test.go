package store_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/store"
)

// TestResolvedRelationFilters: a filter through an owner to-one relation
// matches the same documents whether its related documents are read first
// and bound as ids (relids.go) or kept as a subquery (more than
// maxResolvedIDs of them): set, missing, negated, nested in $or, null
// tests, drafts. On SQLite reading the ids is one statement before the
// page's; PostgreSQL keeps the subquery.
func TestResolvedRelationFilters(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		mk := docMaker(t, e)
		eng := mk("/api/categories", map[string]any{"name": "Eng"})
		design := mk("/api/categories", map[string]any{"name": "Design"})
		other := mk("/api/categories", map[string]any{"name": "Other"})
		mk("/api/categories?status=draft", map[string]any{"name": "Unpublished"})
		mk("/api/articles", map[string]any{"title": "eng", "category": eng})
		mk("/api/articles", map[string]any{"title": "design", "category": design})
		mk("/api/articles", map[string]any{"title": "other", "category": other})
		mk("/api/articles", map[string]any{"title": "none"})
		mk("/api/articles?status=draft", map[string]any{"title": "draft eng", "category": eng})
		cases := []struct{ filter, want string }{
			{"filters[category][name][$eq]=Eng", "eng"},
			{"filters[category][name][$eq]=Nobody", ""},
			{"filters[category][name][$eq]=Unpublished", ""},
			{"filters[category][name][$ne]=Eng", "design other"},
			{"filters[$not][category][name][$eq]=Eng", "design none other"},
			{"filters[$not][category][name][$eq]=Nobody", "design eng none other"},
			{"filters[$not][category][name][$ne]=Eng", "eng none"},
			{"filters[category][name][$null]=true", "none"},
			{"filters[category][name][$notNull]=true", "design eng other"},
			{"filters[$or][0][category][name][$eq]=Eng&filters[$or][1][title][$eq]=none", "eng none"},
			{"filters[category][name][$in][0]=Eng&filters[category][name][$in][1]=Design", "design eng"},
			{"filters[category][documentId][$eq]=" + url.QueryEscape(other), "other"},
			{"filters[category][name][$eq]=Eng&status=draft", "draft eng eng"},
		}
		run := func(mode string) {
			for _, c := range cases {
				before := e.Store.Statements()
				r := e.Do("GET", "/api/articles?pagination[pageSize]=100&pagination[withCount]=false&"+c.filter, nil)
				if r.Status != 200 {
					t.Fatalf("%s %s: %d %s", mode, c.filter, r.Status, r.Body)
				}
				var got []string
				for _, d := range r.List() {
					got = append(got, d["title"].(string))
				}
				slices.Sort(got)
				if g := strings.Join(got, " "); g != c.want {
					t.Errorf("%s %s: %q, want %q", mode, c.filter, g, c.want)
				}
				// On SQLite the related ids first, then the page.
				want := int64(1)
				if e.Store.Dialect() == "sqlite" {
					want = 2
				}
				if n := e.Store.Statements() - before; n != want {
					t.Errorf("%s %s: %d statements, want %d", mode, c.filter, n, want)
				}
			}
		}
		run("resolved")
		restore := store.SetMaxResolvedIDsForTest(0)
		defer restore()
		run("subquery") // the ids are read, found too many, and the subquery kept
	})
}
