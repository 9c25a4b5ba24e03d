package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/rest"
)

// TestBadInput: every hostile or malformed request gets a clear 4xx in
// Strapi's envelope, and nothing is written.
func TestBadInput(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	huge := `{"data":{"name":"` + strings.Repeat("x", 2<<20) + `"}}`
	cases := []struct {
		name, method, path, body, ctype string
		status                          int
		errName, msg                    string
	}{
		{"malformed JSON", "POST", "/api/tags", `{"data":`, "", 400, "SyntaxError", ""},
		{"trailing garbage", "POST", "/api/tags", `{"data":{"name":"a"}} x`, "", 400, "SyntaxError", ""},
		{"not an object", "POST", "/api/tags", `"str"`, "", 400, "SyntaxError", "only supports object and array"},
		{"no data", "POST", "/api/tags", `{"name":"a"}`, "", 400, "ValidationError", `Missing "data" payload`},
		{"data not object", "POST", "/api/tags", `{"data":[1]}`, "", 400, "ValidationError", `Missing "data" payload`},
		{"empty body", "POST", "/api/tags", ``, "", 400, "ValidationError", `Missing "data" payload`},
		{"unknown field", "POST", "/api/tags", `{"data":{"name":"a","nope":1}}`, "", 400, "ValidationError", "Invalid key nope"},
		{"__proto__", "POST", "/api/tags", `{"data":{"__proto__":{"x":1}}}`, "", 400, "ValidationError", "Invalid key __proto__"},
		{"constructor", "POST", "/api/tags", `{"data":{"constructor":"x"}}`, "", 400, "ValidationError", "Invalid key constructor"},
		{"id in body", "POST", "/api/tags", `{"data":{"id":5,"name":"a"}}`, "", 400, "ValidationError", "Invalid key id"},
		{"documentId in body", "POST", "/api/tags", `{"data":{"documentId":"x","name":"a"}}`, "", 400, "ValidationError", "Invalid key documentId"},
		{"createdAt in body", "POST", "/api/tags", `{"data":{"createdAt":"2020-01-01","name":"a"}}`, "", 400, "ValidationError", "Invalid key createdAt"},
		{"deep nesting", "POST", "/api/tags", `{"data":` + deep + `}`, "", 400, "SyntaxError", "nested too deeply"},
		{"too large", "POST", "/api/tags", huge, "", 413, "PayloadTooLargeError", ""},
		{"wrong content type", "POST", "/api/tags", `{"data":{"name":"a"}}`, "text/plain", 415, "UnsupportedMediaTypeError", ""},
		{"form content type", "POST", "/api/tags", `data=1`, "application/x-www-form-urlencoded", 415, "UnsupportedMediaTypeError", ""},
		{"required missing", "POST", "/api/tags", `{"data":{}}`, "", 400, "ValidationError", "name must be defined."},
		{"required null", "POST", "/api/tags", `{"data":{"name":null}}`, "", 400, "ValidationError", "name must be defined."},
		{"patch", "PATCH", "/api/tags/x", `{}`, "", 405, "MethodNotAllowedError", ""},
		{"unknown route", "GET", "/nope", ``, "", 404, "NotFoundError", ""},
		{"unknown type", "GET", "/api/nope", ``, "", 404, "NotFoundError", ""},
		{"unknown filter operator", "GET", "/api/tags?filters[name][$foo]=1", ``, "", 400, "ValidationError", "Invalid key $foo"},
		{"operator case", "GET", "/api/tags?filters[name][$EQ]=1", ``, "", 400, "ValidationError", "Invalid key $EQ"},
		{"unknown filter field", "GET", "/api/tags?filters[nope][$eq]=1", ``, "", 400, "ValidationError", "Invalid key nope"},
		{"bad number in filter", "GET", "/api/articles?filters[views][$gt]=abc", ``, "", 400, "ValidationError", "views"},
		{"bad date in filter", "GET", "/api/articles?filters[createdAt][$gt]=soon", ``, "", 400, "ValidationError", "createdAt"},
		{"filter on zone", "GET", "/api/articles?filters[blocks][body][$eq]=x", ``, "", 400, "ValidationError", "blocks"},
		{"filter on media", "GET", "/api/articles?filters[cover][$null]=true", ``, "", 400, "ValidationError", "cover"},
		{"unknown sort", "GET", "/api/tags?sort=nope", ``, "", 400, "ValidationError", "Invalid key nope"},
		{"bad sort order", "GET", "/api/tags?sort=name:up", ``, "", 400, "ValidationError", "Invalid order"},
		{"sort on private", "GET", "/api/articles?sort=secretNote", ``, "", 400, "ValidationError", "Invalid key secretNote"},
		{"unknown fields", "GET", "/api/tags?fields[0]=nope", ``, "", 400, "ValidationError", "Invalid key nope"},
		{"relation in fields", "GET", "/api/articles?fields[0]=author", ``, "", 400, "ValidationError", "Invalid key author"},
		{"scalar in populate", "GET", "/api/articles?populate=title", ``, "", 400, "ValidationError", "Invalid key title"},
		{"mixed pagination", "GET", "/api/tags?pagination[page]=1&pagination[start]=0", ``, "", 400, "PaginationError", "Cannot use both"},
		{"bad page", "GET", "/api/tags?pagination[page]=abc", ``, "", 400, "ValidationError", ""},
		{"bad withCount", "GET", "/api/tags?pagination[withCount]=maybe", ``, "", 400, "ValidationError", "withCount"},
		{"huge query", "GET", "/api/tags?" + strings.Repeat("a=1&", 5000), ``, "", 400, "ValidationError", ""},
		{"filters not object", "GET", "/api/tags?filters=abc", ``, "", 400, "ValidationError", "filters parameter"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var body any
				if c.body != "" || c.method == "POST" {
					body = c.body
				}
				headers := []string{}
				if c.ctype != "" {
					headers = append(headers, "Content-Type", c.ctype)
				}
				r := e.Do(c.method, c.path, body, headers...)
				if r.Status != c.status {
					t.Fatalf("status %d, want %d: %.300s", r.Status, c.status, r.Body)
				}
				if r.ErrorName() != c.errName {
					t.Fatalf("error name %q, want %q: %.300s", r.ErrorName(), c.errName, r.Body)
				}
				if _, ok := r.JSON["data"]; !ok || r.JSON["data"] != nil {
					t.Fatalf("error body must carry data: null: %.300s", r.Body)
				}
				errObj := r.JSON["error"].(map[string]any)
				if int(errObj["status"].(float64)) != c.status {
					t.Fatalf("error.status %v", errObj["status"])
				}
				if c.msg != "" && !strings.Contains(r.ErrorMessage(), c.msg) {
					t.Fatalf("message %q should contain %q", r.ErrorMessage(), c.msg)
				}
				if _, has := errObj["details"]; has == (c.errName == "SyntaxError") {
					t.Fatalf("details present=%v for %s", has, c.errName)
				}
			})
		}
		if l := e.Do("GET", "/api/tags", nil); len(l.List()) != 0 {
			t.Fatalf("bad input wrote documents: %s", l.Body)
		}
	})
}

func TestErrorGolden(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := open(t, db)
		testenv.Golden(t, "error_not_found", e.Do("GET", "/api/tags/nope", nil).Body)
		testenv.Golden(t, "error_validation", e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"views": "x", "rating": 9}}).Body)
		testenv.Golden(t, "error_invalid_key", e.Do("GET", "/api/tags?filters[nope]=1", nil).Body)
		r := e.Do("GET", "/_health", nil)
		if r.Status != http.StatusOK || r.JSON["status"] != "ok" {
			t.Fatalf("health: %d %s", r.Status, r.Body)
		}
	})
}

// TestSecurityHeaders: every answer, refusals included, carries a hardened
// Strapi's headers; HSTS only when the client came over HTTPS.
func TestSecurityHeaders(t *testing.T) {
	for _, trust := range []bool{false, true} {
		e := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Rest: rest.Config{TrustProxy: trust}})
		for _, path := range []string{"/api/articles", "/api/nope", "/api/articles?filters[title][$eq]=%00", "/graphql", "/_health"} {
			r := e.Do("GET", path, nil, "X-Forwarded-Proto", "https")
			h := r.Header
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "SAMEORIGIN" || h.Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("%s: %v", path, h)
			}
			if hsts := h.Get("Strict-Transport-Security"); (hsts != "") != trust || (trust && hsts != "max-age=31536000; includeSubDomains") {
				t.Errorf("%s (trust proxy %v): HSTS %q", path, trust, hsts)
			}
		}
		if r := e.Do("GET", "/api/articles", nil); r.Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("HSTS over plain HTTP: %v", r.Header)
		}
	}
	off := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Rest: rest.Config{Headers: rest.SecurityHeaders{Disabled: true}}})
	if r := off.Do("GET", "/api/articles", nil); r.Header.Get("X-Frame-Options") != "" {
		t.Errorf("headers off: %v", r.Header)
	}
}
