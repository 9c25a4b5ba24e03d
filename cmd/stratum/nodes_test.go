package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestRolesFollowAcrossNodes: a permission granted through node A's roles
// API is honoured by node B within a second (NOTIFY on PostgreSQL, the
// version poll on SQLite).
func TestRolesFollowAcrossNodes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		sa, sb, call := twoNodes(t, db)
		do := func(base, method, path, tok string, body any) (int, map[string]any) {
			j, _ := json.Marshal(body)
			return call(base, method, path, tok, string(j))
		}
		postTag := func(base string) int {
			s, _ := do(base, "POST", "/api/tags", "", map[string]any{"data": map[string]any{"name": fmt.Sprint(time.Now().UnixNano())}})
			return s
		}
		if s := postTag(sb.URL); s != 403 {
			t.Fatalf("before: %d", s)
		}
		_, reg := do(sa.URL, "POST", "/admin/register-admin", "", map[string]any{"email": "a@b.co", "password": "Passw0rd!x", "firstname": "A"})
		tok := reg["data"].(map[string]any)["token"].(string)
		_, roles := do(sa.URL, "GET", "/admin/users-permissions/roles", tok, nil)
		for _, r := range roles["data"].([]any) {
			role := r.(map[string]any)
			if role["type"] != "public" {
				continue
			}
			perms := []any{"api::tag.tag.create"}
			perms = append(perms, role["permissions"].([]any)...)
			if s, body := do(sa.URL, "PUT", fmt.Sprintf("/admin/users-permissions/roles/%v", role["id"]), tok, map[string]any{"permissions": perms}); s != 200 {
				t.Fatalf("grant: %d %v", s, body)
			}
		}
		start := time.Now()
		for postTag(sb.URL) != 201 {
			if time.Since(start) > 3*time.Second { // a second when idle; room for a loaded CI machine
				t.Fatal("node B did not honour the new permission within 3 s")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// TestTypesAcrossNodes: two servers on one database; a type created through
// node A's admin API is read and written through node B within a second,
// then edited and deleted through A and followed by B.
func TestTypesAcrossNodes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		sa, sb, do := twoNodes(t, db)
		// Within a second on an idle machine; CI runs packages side by
		// side on two cores, so the bound here leaves room for that.
		within := func(what string, ok func() bool) {
			start := time.Now()
			for !ok() {
				if time.Since(start) > 3*time.Second {
					t.Fatalf("node B: %s not within 3 s", what)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		_, reg := do(sa.URL, "POST", "/admin/register-admin", "", `{"email":"a@b.co","password":"Passw0rd!x","firstname":"A"}`)
		admin := reg["data"].(map[string]any)["token"].(string)
		_, tok := do(sa.URL, "POST", "/admin/api-tokens", admin, `{"name":"all","type":"full-access"}`)
		key := tok["data"].(map[string]any)["accessKey"].(string)

		note := `{"kind":"collectionType","collectionName":"notes","info":{"singularName":"note","pluralName":"notes"},"attributes":{"title":{"type":"string"}%s}}`
		if s, body := do(sa.URL, "POST", "/admin/content-types", admin, fmt.Sprintf(note, "")); s != 201 {
			t.Fatalf("create through A: %d %v", s, body)
		}
		within("create", func() bool {
			s, _ := do(sb.URL, "POST", "/api/notes", key, `{"data":{"title":"via B"}}`)
			return s == 201
		})
		if s, body := do(sa.URL, "GET", "/api/notes", key, ""); s != 200 || len(body["data"].([]any)) != 1 {
			t.Fatalf("read through A: %d %v", s, body)
		}
		if s, body := do(sa.URL, "PUT", "/admin/content-types/api::note.note", admin, fmt.Sprintf(note, `,"stars":{"type":"integer","default":5}`)); s != 200 {
			t.Fatalf("edit through A: %d %v", s, body)
		}
		within("edit", func() bool {
			_, body := do(sb.URL, "GET", "/api/notes", key, "")
			l, _ := body["data"].([]any)
			return len(l) == 1 && l[0].(map[string]any)["stars"] == 5.0
		})
		if s, body := do(sa.URL, "DELETE", "/admin/content-types/api::note.note?force=true", admin, ""); s != 200 {
			t.Fatalf("delete through A: %d %v", s, body)
		}
		within("delete", func() bool {
			s, _ := do(sb.URL, "GET", "/api/notes", key, "")
			return s == 404
		})
	})
}

// twoNodes opens one project twice on one database; node b follows the
// others. It returns both test servers and a JSON request helper.
func twoNodes(t *testing.T, db func(testing.TB) string) (sa, sb *httptest.Server, do func(base, method, path, tok, body string) (int, map[string]any)) {
	t.Helper()
	t.Setenv("DATABASE_URL", db(t))
	dir := copyBlog(t)
	var apps [2]*app.App
	for i := range apps {
		a, err := open(dir, quietLog())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Store.Close() })
		apps[i] = a
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go apps[1].Follow(ctx)
	sa, sb = httptest.NewServer(apps[0].HTTP), httptest.NewServer(apps[1].HTTP)
	t.Cleanup(sa.Close)
	t.Cleanup(sb.Close)
	do = func(base, method, path, tok, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out
	}
	return sa, sb, do
}
