package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestRolesFollowAcrossNodes: a permission granted through node A's roles
// API is honoured by node B within a second (NOTIFY on PostgreSQL, the
// version poll on SQLite).
func TestRolesFollowAcrossNodes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		t.Setenv("DATABASE_URL", db(t))
		dir := copyBlog(t)
		a, err := open(dir, quietLog())
		if err != nil {
			t.Fatal(err)
		}
		defer a.store.Close()
		b, err := open(dir, quietLog())
		if err != nil {
			t.Fatal(err)
		}
		defer b.store.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go b.follow(ctx, quietLog())
		sa, sb := httptest.NewServer(a.http), httptest.NewServer(b.http)
		defer sa.Close()
		defer sb.Close()

		do := func(base, method, path, tok string, body any) (int, map[string]any) {
			j, _ := json.Marshal(body)
			req, _ := http.NewRequest(method, base+path, bytes.NewReader(j))
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
			if time.Since(start) > time.Second {
				t.Fatal("node B did not honour the new permission within a second")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
