package rest_test

import (
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestQsStringifyExamples sends exactly what `qs.stringify(query,
// {encodeValuesOnly: true})` produces (as the official client and the Strapi
// docs do) for documented query shapes, and compares the answers with
// golden files.
func TestQsStringifyExamples(t *testing.T) {
	examples := []struct{ name, query string }{
		{"deep_filter_and_or", "filters[$or][0][publishDate][$eq]=2024-01-01&filters[$or][1][publishDate][$eq]=2024-06-01&filters[author][name][$eq]=Kai%20Doe"},
		{"in_array", "filters[views][$in][0]=3&filters[views][$in][1]=6&filters[views][$in][2]=8"},
		{"sort_array", "sort[0]=title%3Aasc&sort[1]=views%3Adesc"},
		{"populate_nested", "populate[author][fields][0]=name&populate[author][populate][articles][fields][0]=title&populate[category][populate]=%2A"},
		{"populate_zone", "populate[blocks][on][shared.quote][fields][0]=body&populate[blocks][on][shared.rich-text][populate]=%2A"},
		{"fields_and_page", "fields[0]=title&fields[1]=views&pagination[page]=1&pagination[pageSize]=2&pagination[withCount]=true"},
		{"not_filter", "filters[title][$not][$containsi]=draft"},
		{"component_filter", "filters[seo][metaTitle][$startsWith]=SEO"},
		{"relation_sort", "sort[0]=category.name%3Aasc&sort[1]=title%3Aasc&populate[0]=category"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		kai := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Kai Doe"}}).Data()["documentId"]
		bob := e.Do("POST", "/api/authors", map[string]any{"data": map[string]any{"name": "Bob"}}).Data()["documentId"]
		eng := e.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "Engineering"}}).Data()["documentId"]
		art := e.Do("POST", "/api/categories", map[string]any{"data": map[string]any{"name": "Art"}}).Data()["documentId"]
		for _, a := range []map[string]any{
			{"title": "Alpha", "views": 3, "publishDate": "2024-01-01", "author": kai, "category": eng, "seo": map[string]any{"metaTitle": "SEO alpha"},
				"blocks": []any{map[string]any{"__component": "shared.quote", "title": "T", "body": "quoted"}, map[string]any{"__component": "shared.rich-text", "body": "rich"}}},
			{"title": "Beta", "views": 6, "publishDate": "2024-06-01", "author": bob, "category": art},
			{"title": "Gamma draft", "views": 8, "publishDate": "2024-06-01", "author": kai, "category": art, "seo": map[string]any{"metaTitle": "Other"}},
		} {
			if r := e.Do("POST", "/api/articles", map[string]any{"data": a}); r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		for _, ex := range examples {
			t.Run(ex.name, func(t *testing.T) {
				r := e.Do("GET", "/api/articles?"+ex.query, nil)
				if r.Status != 200 {
					t.Fatalf("%d %s", r.Status, r.Body)
				}
				testenv.Golden(t, "qs_"+ex.name, r.Body)
			})
		}
	})
}
