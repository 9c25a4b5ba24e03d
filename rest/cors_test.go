package rest_test

import (
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/rest"
)

// CORS as strapi::cors answers it, by default and configured; HEAD and
// trailing slashes.
func TestCORS(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		def := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find"}})
		listed := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find"},
			Rest: rest.Config{CORS: rest.CORS{Origins: []string{"https://app.example"}, Headers: []string{"Content-Type", "X-Custom"}, MaxAge: 600}}})
		off := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find"}, Rest: rest.Config{CORS: rest.CORS{Disabled: true}}})
		preflight := []string{"Origin", "https://app.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"}
		for _, c := range []struct {
			name           string
			e              *testenv.Env
			method, path   string
			headers        []string
			status         int
			origin, creds  string
			methods, allow string
			maxAge         string
		}{
			{"default simple", def, "GET", "/api/articles", []string{"Origin", "https://app.example"}, 200, "https://app.example", "true", "", "", ""},
			{"default no origin", def, "GET", "/api/articles", nil, 200, "", "", "", "", ""},
			{"default preflight", def, "OPTIONS", "/api/articles", preflight, 204, "https://app.example", "true",
				"GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS", "Content-Type,Authorization,Origin,Accept", "31536000"},
			{"default preflight graphql", def, "OPTIONS", "/graphql", preflight, 204, "https://app.example", "true",
				"GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS", "Content-Type,Authorization,Origin,Accept", "31536000"},
			{"default preflight unknown path", def, "OPTIONS", "/api/nothing/here", preflight, 204, "https://app.example", "true",
				"GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS", "Content-Type,Authorization,Origin,Accept", "31536000"},
			{"default error keeps headers", def, "GET", "/api/authors", []string{"Origin", "https://app.example"}, 403, "https://app.example", "true", "", "", ""},
			{"listed origin", listed, "GET", "/api/articles", []string{"Origin", "https://app.example"}, 200, "https://app.example", "true", "", "", ""},
			{"listed preflight", listed, "OPTIONS", "/api/articles", preflight, 204, "https://app.example", "true",
				"GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS", "Content-Type,X-Custom", "600"},
			{"other origin", listed, "GET", "/api/articles", []string{"Origin", "https://evil.example"}, 200, "", "", "", "", ""},
			{"other origin preflight", listed, "OPTIONS", "/api/articles", []string{"Origin", "https://evil.example", "Access-Control-Request-Method", "POST"}, 405, "", "", "", "", ""},
			{"disabled", off, "GET", "/api/articles", []string{"Origin", "https://app.example"}, 200, "", "", "", "", ""},
		} {
			r := c.e.Do(c.method, c.path, nil, c.headers...)
			h := r.Header
			if r.Status != c.status || h.Get("Access-Control-Allow-Origin") != c.origin || h.Get("Access-Control-Allow-Credentials") != c.creds ||
				h.Get("Access-Control-Allow-Methods") != c.methods || h.Get("Access-Control-Allow-Headers") != c.allow || h.Get("Access-Control-Max-Age") != c.maxAge {
				t.Errorf("%s: %d origin %q creds %q methods %q headers %q max-age %q", c.name, r.Status, h.Get("Access-Control-Allow-Origin"),
					h.Get("Access-Control-Allow-Credentials"), h.Get("Access-Control-Allow-Methods"), h.Get("Access-Control-Allow-Headers"), h.Get("Access-Control-Max-Age"))
			}
		}
	})
}

func TestHeadAndTrailingSlash(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: []string{"api::article.article.find", "api::article.article.findOne"}})
		get := e.Do("GET", "/api/articles", nil)
		head := e.Do("HEAD", "/api/articles", nil)
		if head.Status != 200 || len(head.Body) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Fatalf("HEAD: %d %q %q", head.Status, head.Body, head.Header.Get("Content-Type"))
		}
		if r := e.Do("HEAD", "/api/authors", nil); r.Status != 403 || len(r.Body) != 0 {
			t.Fatalf("HEAD without permission: %d %q", r.Status, r.Body)
		}
		if r := e.Do("HEAD", "/_health", nil); r.Status != 204 && r.Status != 200 {
			t.Fatalf("HEAD /_health: %d", r.Status)
		}
		slash := e.Do("GET", "/api/articles/", nil)
		if slash.Status != 200 || string(slash.Body) != string(get.Body) {
			t.Fatalf("trailing slash: %d %s", slash.Status, slash.Body)
		}
		if r := e.Do("GET", "/api/articles//", nil); r.Status != 200 {
			t.Fatalf("two trailing slashes: %d", r.Status)
		}
		if r := e.Do("POST", "/api/articles/", map[string]any{"data": map[string]any{}}); r.Status != 403 {
			t.Fatalf("POST with a trailing slash reaches the route: %d %s", r.Status, r.Body)
		}
	})
}
