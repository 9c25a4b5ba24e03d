package rest_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestNULAndInvalidUTF8 are refused with a 400 wherever they come in (the
// path, the query string, bodies, GraphQL sources and variables), the same
// on SQLite and PostgreSQL, where they used to be a 500.
func TestNULAndInvalidUTF8(t *testing.T) {
	cases := []struct {
		name, method, path string
		body               any
	}{
		{"filter value %00", "GET", "/api/articles?filters[title][$eq]=a%00b", nil},
		{"filter value %FF", "GET", "/api/articles?filters[title][$eq]=%FF", nil},
		{"filter $in %00", "GET", "/api/articles?filters[title][$in][0]=%00", nil},
		{"relation filter %00", "GET", "/api/articles?filters[author][name][$contains]=%00", nil},
		{"path %00", "GET", "/api/articles/abc%00def", nil},
		{"path %C0", "GET", "/api/articles/%C0%AF", nil},
		{"locale %00", "GET", "/api/articles?locale=%00", nil},
		{"users filter %00", "GET", "/api/users?filters[username][$eq]=%00", nil},
		{"body \\u0000", "POST", "/api/articles", `{"data":{"title":"a\u0000b"}}`},
		{"body \\u0000 in a component", "POST", "/api/articles", `{"data":{"title":"ok","seo":{"metaTitle":"\u0000"}}}`},
		{"body \\u0000 in a JSON key", "POST", "/api/articles", `{"data":{"title":"ok","\u0000":1}}`},
		{"body invalid UTF-8", "POST", "/api/articles", "{\"data\":{\"title\":\"\xff\xfe\"}}"},
		{"login \\u0000", "POST", "/api/auth/local", `{"identifier":"\u0000","password":"x"}`},
		{"register invalid UTF-8", "POST", "/api/auth/local/register", "{\"username\":\"\xc3\",\"email\":\"a@b.c\",\"password\":\"secret1\"}"},
		{"GraphQL \\u0000 in a string literal", "POST", "/graphql", map[string]any{"query": `{ articles(filters: {title: {eq: "\u0000"}}) { data { id } } }`}},
		{"GraphQL NUL in a variable", "POST", "/graphql", map[string]any{"query": `query($t: String) { articles(filters: {title: {eq: $t}}) { data { id } } }`, "variables": map[string]any{"t": "a\x00"}}},
		{"GraphQL login NUL", "POST", "/graphql", map[string]any{"query": `mutation { login(input: {identifier: "\u0000", password: "x"}) { jwt } }`}},
		{"GraphQL invalid UTF-8 variables", "POST", "/graphql", "{\"query\":\"query($t: String) { articles(filters: {title: {eq: $t}}) { data { id } } }\",\"variables\":{\"t\":\"\xff\"}}"},
	}
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: append(testenv.AllActions(t, ""), "plugin::users-permissions.user.find",
			"plugin::users-permissions.auth.callback", "plugin::users-permissions.auth.register")})
		for _, c := range cases {
			r := e.Do(c.method, c.path, c.body)
			if c.path == "/graphql" {
				if r.Status != 400 || !strings.Contains(string(r.Body), "NUL bytes and invalid UTF-8 are not allowed") {
					t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
				}
				continue
			}
			if r.Status != 400 || r.ErrorName() != "ValidationError" || !strings.Contains(r.ErrorMessage(), "NUL bytes and invalid UTF-8") {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		// A NUL in a header we read (Go's client will not send one).
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, _ = conn.Write([]byte("GET /api/articles HTTP/1.1\r\nHost: x\r\nStrapi-Response-Format: v\x004\r\nConnection: close\r\n\r\n"))
		buf := make([]byte, 512)
		n, _ := conn.Read(buf)
		if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 400") {
			t.Errorf("header with NUL: %q", buf[:n])
		}
		// Ordinary text still goes through.
		if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "naïve \\u0000 ✓"}}); r.Status != 201 || r.Data()["title"] != "naïve \\u0000 ✓" {
			t.Errorf("plain text: %d %s", r.Status, r.Body)
		}
	})
}

// TestBodyWithoutContentType is a 415, as any body that is not JSON, on the
// content API, the auth routes and GraphQL; an empty body needs no type.
func TestBodyWithoutContentType(t *testing.T) {
	e := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Public: append(testenv.AllActions(t, ""),
		"plugin::users-permissions.auth.callback")})
	for _, path := range []string{"/api/articles", "/api/auth/local", "/graphql"} {
		req, _ := http.NewRequest("POST", e.URL+path, strings.NewReader(`{"data":{"title":"x"},"query":"{ articles { data { id } } }"}`))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 415 {
			t.Errorf("%s without Content-Type: %d", path, res.StatusCode)
		}
	}
	if r := e.Do("DELETE", "/api/articles/nope", nil); r.Status != 404 {
		t.Errorf("no body, no type: %d %s", r.Status, r.Body)
	}
}
