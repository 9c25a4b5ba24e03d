package rest_test

import (
	"path/filepath"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// A Strapi project with custom fields serves them: known ones as their
// base type (validated as it), unknown ones as JSON stored as given.
func TestCustomFields(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: filepath.Join(testenv.Root(), "app", "testdata", "strapi-project"),
			Public: []string{"api::product.product.find", "api::product.product.create"}})
		r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "color": "#FFAA00",
			"description": "<p>Bright</p>", "dimensions": map[string]any{"w": 10, "h": [2]int{1, 2}},
			"badge": map[string]any{"label": "new", "tint": "#00FF00"}}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		d := r.Data()
		dims, _ := d["dimensions"].(map[string]any)
		if d["color"] != "#FFAA00" || d["description"] != "<p>Bright</p>" || dims["w"] != float64(10) {
			t.Fatalf("answer: %s", r.Body)
		}
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Bad", "color": 12}}); r.Status != 400 {
			t.Fatalf("a number for a color: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/products?populate=badge&filters[color][$eq]=%23FFAA00", nil)
		if list := r.List(); len(list) != 1 || list[0]["badge"].(map[string]any)["tint"] != "#00FF00" {
			t.Fatalf("read back: %s", r.Body)
		}
	})
}
