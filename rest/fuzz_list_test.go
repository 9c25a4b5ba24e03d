package rest_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// FuzzListQuery sends arbitrary query strings to the list endpoint through
// the whole stack (parser, engine, SQL compiler, SQLite): never a 500, always
// Strapi's envelope.
func FuzzListQuery(f *testing.F) {
	for _, seed := range []string{
		"filters[title][$eq]=x", "filters[$or][0][views][$gt]=1&filters[$or][1][author][name][$containsi]=a",
		"sort=rating:desc&pagination[page]=2", "populate=*", "populate[author][populate][articles][fields][0]=title",
		"filters[category][parent][name][$in][0]=a", "filters[seo][metaTitle][$startsWith]=%25_",
		"filters[views][$between][0]=1&filters[views][$between][1]=a", "fields=title,views&locale=fr&status=draft",
		"filters[$not][$and][0][featured]=t", "sort[author][name]=asc", "populate[blocks][on][shared.quote][populate]=*",
		"filters[createdAt][$lt]=1700000000000", "filters[shares][$gte]=99999999999999999999",
	} {
		f.Add(seed)
	}
	e := testenv.Start(f, filepath.Join(f.TempDir(), "fuzz.db"), testenv.Options{Public: testenv.AllActions(f, "")})
	e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Seed", "views": 3, "seo": map[string]any{"metaTitle": "m"}}})
	f.Fuzz(func(t *testing.T, raw string) {
		for _, c := range []byte(raw) {
			if c <= ' ' || c == 0x7f || c == '#' {
				return // not a request target: net/http answers before any handler
			}
		}
		e.T = t
		r := e.Do("GET", "/api/articles?"+raw, nil)
		if r.Status >= 500 {
			t.Fatalf("%q: %d %s", raw, r.Status, r.Body)
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &body); err != nil || (r.Status >= 400 && string(body["data"]) != "null") {
			t.Fatalf("%q: not an envelope: %d %s", raw, r.Status, r.Body)
		}
	})
}
