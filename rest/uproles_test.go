package rest_test

import (
	"fmt"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// The content API's users-permissions roles, in Strapi's shapes, behind
// their own permissions.
func TestContentAPIRoles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{
			"public": {"api::article.article.find"},
			"authenticated": {auth.ActionRoleFind, auth.ActionRoleFindOne, auth.ActionRoleCreate, auth.ActionRoleUpdate,
				auth.ActionRoleDelete, auth.ActionGetPermissions, auth.ActionMe},
		}})
		// Private by default: Public has none of these actions.
		for _, c := range []struct{ method, path string }{
			{"GET", "/api/users-permissions/roles"}, {"GET", "/api/users-permissions/roles/1"},
			{"POST", "/api/users-permissions/roles"}, {"PUT", "/api/users-permissions/roles/1"},
			{"DELETE", "/api/users-permissions/roles/1"}, {"GET", "/api/users-permissions/permissions"},
		} {
			var body any
			if c.method == "POST" || c.method == "PUT" {
				body = map[string]any{"name": "x"}
			}
			if r := e.Do(c.method, c.path, body); r.Status != 403 {
				t.Errorf("public %s %s: %d %s", c.method, c.path, r.Status, r.Body)
			}
		}
		jwt, _ := registerUser(t, e, "kai")
		as := bearer(jwt)

		r := e.Do("GET", "/api/users-permissions/roles", nil, as...)
		if r.Status != 200 {
			t.Fatalf("roles: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "up_roles", r.Body)
		var publicID float64
		for _, x := range r.JSON["roles"].([]any) {
			if m := x.(map[string]any); m["type"] == "public" {
				publicID = m["id"].(float64)
			}
		}

		r = e.Do("POST", "/api/users-permissions/roles", map[string]any{"name": "Editors", "description": "write articles",
			"type": "editors", "permissions": map[string]any{"api::article": map[string]any{"controllers": map[string]any{
				"article": map[string]any{"find": map[string]any{"enabled": true, "policy": ""}, "create": map[string]any{"enabled": true},
					"delete": map[string]any{"enabled": false}}}}}}, as...)
		if r.Status != 200 || r.JSON["ok"] != true {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		list := e.Do("GET", "/api/users-permissions/roles", nil, as...).JSON["roles"].([]any)
		var id float64
		for _, x := range list {
			if m := x.(map[string]any); m["name"] == "Editors" {
				id = m["id"].(float64)
			}
		}
		r = e.Do("GET", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), nil, as...)
		if r.Status != 200 {
			t.Fatalf("role: %d %s", r.Status, r.Body)
		}
		perms := r.JSON["role"].(map[string]any)["permissions"].(map[string]any)
		article := perms["api::article"].(map[string]any)["controllers"].(map[string]any)["article"].(map[string]any)
		for act, want := range map[string]bool{"find": true, "create": true, "delete": false, "findOne": false} {
			if got := article[act].(map[string]any)["enabled"]; got != want {
				t.Errorf("editors %s: %v", act, got)
			}
		}
		if _, ok := perms["plugin::users-permissions"].(map[string]any)["controllers"].(map[string]any)["auth"]; !ok {
			t.Errorf("plugin actions missing from the tree: %v", perms)
		}

		for _, c := range []struct {
			name string
			body any
			want int
			msg  string
		}{
			{"unknown action", map[string]any{"permissions": map[string]any{"api::nope": map[string]any{"controllers": map[string]any{"nope": map[string]any{"find": map[string]any{"enabled": true}}}}}}, 400, "Unknown permissions provided: api::nope.nope.find"},
			{"bad tree", map[string]any{"permissions": []any{"api::article.article.find"}}, 400, "permissions must be an object of types, controllers and actions"},
			{"bad enabled", map[string]any{"permissions": map[string]any{"api::article": map[string]any{"controllers": map[string]any{"article": map[string]any{"find": map[string]any{"enabled": "yes"}}}}}}, 400, "permissions must be an object of types, controllers and actions"},
			{"unknown key", map[string]any{"nope": 1}, 400, "Invalid key nope"},
		} {
			r := e.Do("PUT", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), c.body, as...)
			if r.Status != c.want || r.ErrorMessage() != c.msg {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		r = e.Do("PUT", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), map[string]any{"description": "read only",
			"permissions": map[string]any{"api::article": map[string]any{"controllers": map[string]any{"article": map[string]any{"find": map[string]any{"enabled": true}}}}}}, as...)
		if r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		role := e.Do("GET", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), nil, as...).JSON["role"].(map[string]any)
		article = role["permissions"].(map[string]any)["api::article"].(map[string]any)["controllers"].(map[string]any)["article"].(map[string]any)
		if role["description"] != "read only" || article["create"].(map[string]any)["enabled"] != false || article["find"].(map[string]any)["enabled"] != true {
			t.Fatalf("updated role: %v", role)
		}

		r = e.Do("DELETE", fmt.Sprintf("/api/users-permissions/roles/%d", int(publicID)), nil, as...)
		if r.Status != 400 || r.ErrorMessage() != "Cannot delete public role" {
			t.Fatalf("delete public: %d %s", r.Status, r.Body)
		}
		if r := e.Do("DELETE", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), nil, as...); r.Status != 200 || r.JSON["ok"] != true {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", fmt.Sprintf("/api/users-permissions/roles/%d", int(id)), nil, as...); r.Status != 404 {
			t.Fatalf("deleted role: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users-permissions/roles/abc", nil, as...); r.Status != 404 {
			t.Fatalf("bad id: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/users-permissions/permissions", nil, as...)
		if r.Status != 200 {
			t.Fatalf("permissions: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "up_permissions", r.Body)
	})
}
