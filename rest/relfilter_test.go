package rest_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestFilterThroughToOneRelation pins what a filter through an owner
// to-one relation matches (compiled as an IN over the target, see
// store/relfilter.go) for documents whose relation is set, empty, or points
// to a document with no published version.
func TestFilterThroughToOneRelation(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		mk := func(path string, data map[string]any) string {
			t.Helper()
			r := e.Do("POST", path, map[string]any{"data": data})
			if r.Status != 201 {
				t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
			}
			return r.Data()["documentId"].(string)
		}
		eng := mk("/api/categories", map[string]any{"name": "Eng"})
		design := mk("/api/categories", map[string]any{"name": "Design"})
		other := mk("/api/categories", map[string]any{"name": "Other"})
		mk("/api/articles", map[string]any{"title": "eng", "category": eng})
		mk("/api/articles", map[string]any{"title": "design", "category": design})
		mk("/api/articles", map[string]any{"title": "other", "category": other})
		mk("/api/articles", map[string]any{"title": "none"})
		for _, c := range []struct{ filter, want string }{
			{"filters[category][name][$eq]=Eng", "eng"},
			{"filters[category][name][$ne]=Eng", "design other"},
			{"filters[$not][category][name][$eq]=Eng", "design none other"},
			{"filters[$not][category][name][$ne]=Eng", "eng none"},
			{"filters[category][name][$null]=true", "none"},
			{"filters[category][name][$notNull]=true", "design eng other"},
			{"filters[category][name][$notNull]=false", "none"},
			{"filters[category][id][$null]=true", "none"},
			{"filters[$not][category][id][$null]=true", "design eng other"},
			{"filters[$or][0][category][name][$eq]=Eng&filters[$or][1][title][$eq]=none", "eng none"},
			{"filters[category][name][$in][0]=Eng&filters[category][name][$in][1]=Design", "design eng"},
			{"filters[category][documentId][$eq]=" + url.QueryEscape(other), "other"},
		} {
			r := e.Do("GET", "/api/articles?pagination[pageSize]=100&"+c.filter, nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", c.filter, r.Status, r.Body)
			}
			var got []string
			for _, d := range r.List() {
				got = append(got, d["title"].(string))
			}
			slices.Sort(got)
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("%s: %q, want %q", c.filter, g, c.want)
			}
		}
		// The draft versions match through the (published) category too.
		r := e.Do("GET", "/api/articles?status=draft&filters[category][name][$eq]=Other", nil)
		if l := r.List(); len(l) != 1 || l[0]["title"] != "other" {
			t.Errorf("draft read: %s", r.Body)
		}
	})
}
