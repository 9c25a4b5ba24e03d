package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// GET /api/upload/files answers every file as a plain array, as Strapi
// does, and takes the content API's filters, sort, fields and pagination;
// the read budget bounds an unpaged list (a 400 naming the limit, never an
// answer of unbounded size).
func TestUploadFilesList(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: uploadActions, Config: engine.Config{Limits: engine.Limits{MaxRows: 3}}})
		for _, n := range []string{"b.png", "a.png", "c.png"} {
			if st, b := uploadWith(t, e, nil, n); st != 201 {
				t.Fatalf("upload %s: %d %s", n, st, b)
			}
		}
		names := func(path string) (int, string) {
			r := e.Do("GET", path, nil)
			var list []map[string]any
			_ = json.Unmarshal(r.Body, &list)
			var out []string
			for _, f := range list {
				out = append(out, f["name"].(string))
			}
			return r.Status, strings.Join(out, ",")
		}
		for _, c := range []struct{ path, want string }{
			{"/api/upload/files", "b.png,a.png,c.png"},
			{"/api/upload/files?sort=name", "a.png,b.png,c.png"},
			{"/api/upload/files?sort=name:desc&pagination[start]=1&pagination[limit]=1", "b.png"},
			{"/api/upload/files?filters[name][$startsWith]=a", "a.png"},
			{"/api/upload/files?filters[width][$gt]=100", ""},
		} {
			if st, got := names(c.path); st != 200 || got != c.want {
				t.Errorf("%s: %d %q, want %q", c.path, st, got, c.want)
			}
		}
		r := e.Do("GET", "/api/upload/files?fields[0]=name&sort=name&pagination[pageSize]=1", nil)
		if strings.TrimSpace(string(r.Body)) == "" || !strings.HasPrefix(string(r.Body), `[{"id":`) || strings.Contains(string(r.Body), "url") {
			t.Errorf("fields: %d %s", r.Status, r.Body)
		}
		for _, q := range []string{"filters[nope][$eq]=1", "sort=nope", "fields[0]=nope", "populate=related"} {
			if r := e.Do("GET", "/api/upload/files?"+q, nil); r.Status != 400 {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
		// A fourth file passes the budget of three rows.
		if st, b := uploadWith(t, e, nil, "d.png"); st != 201 {
			t.Fatalf("upload: %d %s", st, b)
		}
		if r := e.Do("GET", "/api/upload/files", nil); r.Status != 400 || !strings.Contains(string(r.Body), "maxRows") {
			t.Errorf("over the budget: %d %s", r.Status, r.Body)
		}
		if st, got := names("/api/upload/files?pagination[pageSize]=2&sort=name"); st != 200 || got != "a.png,b.png" {
			t.Errorf("a page within the budget: %d %q", st, got)
		}
	})
}
