package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// The users-permissions collections in GraphQL answer what REST's
// /api/users and /api/users-permissions/roles answer, with the same
// permission actions, on the whole app.
func TestGraphQLUsersAndRoles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		roleActions := []string{auth.ActionRoleFind, auth.ActionRoleFindOne, auth.ActionRoleCreate, auth.ActionRoleUpdate, auth.ActionRoleDelete}
		perms := append(append([]string{auth.ActionLogin, auth.ActionRegister}, userPluginActions...), roleActions...)
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{"public": perms}})
		gql := func(query string, vars map[string]any, headers ...string) (map[string]any, string) {
			t.Helper()
			r := e.Do("POST", "/graphql", map[string]any{"query": query, "variables": vars}, headers...)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", query, r.Status, r.Body)
			}
			data, _ := r.JSON["data"].(map[string]any)
			code := ""
			if errs, _ := r.JSON["errors"].([]any); len(errs) > 0 {
				ext, _ := errs[0].(map[string]any)["extensions"].(map[string]any)
				code, _ = ext["code"].(string)
			}
			return data, code
		}
		get := func(v any, path ...any) any {
			for _, p := range path {
				switch k := p.(type) {
				case string:
					m, _ := v.(map[string]any)
					v = m[k]
				case int:
					l, _ := v.([]any)
					if k >= len(l) {
						return nil
					}
					v = l[k]
				}
			}
			return v
		}

		// create, then list with filters, sort and pagination.
		var ids []string
		for i, name := range []string{"ada", "bob", "cyd"} {
			data, code := gql(`mutation($d: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $d) {
				data { id attributes { username email blocked role { data { attributes { type } } } } } } }`,
				map[string]any{"d": map[string]any{"username": name, "email": name + "@example.com", "password": "secret-" + name, "blocked": i == 2}})
			if code != "" || get(data, "createUsersPermissionsUser", "data", "attributes", "username") != name ||
				get(data, "createUsersPermissionsUser", "data", "attributes", "role", "data", "attributes", "type") != "authenticated" {
				t.Fatalf("create %s: %s %v", name, code, data)
			}
			ids = append(ids, get(data, "createUsersPermissionsUser", "data", "id").(string))
		}
		for _, c := range []struct {
			args  string
			want  string
			total float64
		}{
			{`sort: "username:desc"`, "cyd bob ada", 3},
			{`filters: {username: {startsWith: "b"}}`, "bob", 1},
			{`filters: {blocked: {eq: true}}`, "cyd", 1},
			{`filters: {or: [{username: {eq: "ada"}}, {email: {containsi: "CYD"}}]}, sort: "username"`, "ada cyd", 2},
			{`filters: {role: {type: {eq: "authenticated"}}}, sort: "username", pagination: {page: 2, pageSize: 2}`, "cyd", 3},
			{`filters: {not: {username: {eq: "ada"}}}, sort: "username", pagination: {start: 1, limit: 1}`, "cyd", 2},
		} {
			data, code := gql(fmt.Sprintf(`{ usersPermissionsUsers(%s) { data { attributes { username } } meta { pagination { total } } } }`, c.args), nil)
			var got []string
			list, _ := get(data, "usersPermissionsUsers", "data").([]any)
			for _, u := range list {
				got = append(got, get(u, "attributes", "username").(string))
			}
			if code != "" || strings.Join(got, " ") != c.want || get(data, "usersPermissionsUsers", "meta", "pagination", "total") != c.total {
				t.Errorf("%s: %s %v %v", c.args, code, got, data)
			}
		}
		// a filter on a field users do not have is refused by validation.
		if r := e.Do("POST", "/graphql", map[string]any{"query": `{ usersPermissionsUsers(filters: {password: {eq: "x"}}) { data { id } } }`}); r.Status != 400 {
			t.Errorf("filter on password: %d %s", r.Status, r.Body)
		}

		data, code := gql(`query($id: ID) { usersPermissionsUser(id: $id) { data { id attributes { username provider confirmed } } } }`, map[string]any{"id": ids[0]})
		if code != "" || get(data, "usersPermissionsUser", "data", "attributes", "username") != "ada" || get(data, "usersPermissionsUser", "data", "attributes", "provider") != "local" {
			t.Fatalf("one: %s %v", code, data)
		}
		if data, code := gql(`{ usersPermissionsUser(id: "999999") { data { id } } }`, nil); code != "" || get(data, "usersPermissionsUser", "data") != nil {
			t.Errorf("unknown id: %s %v", code, data)
		}

		data, code = gql(`mutation($id: ID!) { updateUsersPermissionsUser(id: $id, data: {username: "ada_l"}) { data { attributes { username email } } } }`, map[string]any{"id": ids[0]})
		if code != "" || get(data, "updateUsersPermissionsUser", "data", "attributes", "username") != "ada_l" || get(data, "updateUsersPermissionsUser", "data", "attributes", "email") != "ada@example.com" {
			t.Fatalf("update: %s %v", code, data)
		}
		// the same validation as REST: a taken username.
		if _, code := gql(`mutation($id: ID!) { updateUsersPermissionsUser(id: $id, data: {username: "bob"}) { data { id } } }`, map[string]any{"id": ids[0]}); code != "STRAPI_APPLICATION_ERROR" && code != "BAD_USER_INPUT" {
			t.Errorf("taken username: %s", code)
		}
		data, code = gql(`mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { attributes { username } } } }`, map[string]any{"id": ids[1]})
		if code != "" || get(data, "deleteUsersPermissionsUser", "data", "attributes", "username") != "bob" {
			t.Fatalf("delete: %s %v", code, data)
		}
		if r := e.Do("GET", "/api/users/count", nil); strings.TrimSpace(string(r.Body)) != "2" {
			t.Errorf("count after delete: %s", r.Body)
		}

		// roles: list, one, create with permissions, update, delete.
		data, code = gql(`{ usersPermissionsRoles { data { id attributes { name type } } meta { pagination { total } } } }`, nil)
		if code != "" || get(data, "usersPermissionsRoles", "meta", "pagination", "total") != 2.0 {
			t.Fatalf("roles: %s %v", code, data)
		}
		data, code = gql(`mutation { createUsersPermissionsRole(data: {name: "Editors", description: "write", permissions: ["api::article.article.find"]}) { ok } }`, nil)
		if code != "" || get(data, "createUsersPermissionsRole", "ok") != true {
			t.Fatalf("create role: %s %v", code, data)
		}
		data, _ = gql(`{ usersPermissionsRoles { data { id attributes { name type permissions { data { attributes { action } } } } } } }`, nil)
		var editors string
		for _, r := range get(data, "usersPermissionsRoles", "data").([]any) {
			if get(r, "attributes", "name") == "Editors" {
				editors = get(r, "id").(string)
				if get(r, "attributes", "type") != "editors" || get(r, "attributes", "permissions", "data", 0, "attributes", "action") != "api::article.article.find" {
					t.Errorf("created role: %v", r)
				}
			}
		}
		if editors == "" {
			t.Fatalf("no Editors role: %v", data)
		}
		if _, code := gql(`mutation { createUsersPermissionsRole(data: {name: "Bad", permissions: ["api::nope.nope.find"]}) { ok } }`, nil); code == "" {
			t.Errorf("unknown action accepted")
		}
		data, code = gql(`mutation($id: ID!) { updateUsersPermissionsRole(id: $id, data: {description: "edits"}) { ok } }`, map[string]any{"id": editors})
		if code != "" {
			t.Fatalf("update role: %s %v", code, data)
		}
		data, _ = gql(`query($id: ID) { usersPermissionsRole(id: $id) { data { attributes { name description } } } }`, map[string]any{"id": editors})
		if get(data, "usersPermissionsRole", "data", "attributes", "description") != "edits" {
			t.Errorf("role after update: %v", data)
		}
		if _, code := gql(`mutation($id: ID!) { deleteUsersPermissionsRole(id: $id) { ok } }`, map[string]any{"id": editors}); code != "" {
			t.Fatalf("delete role: %s", code)
		}
		if data, _ := gql(`query($id: ID) { usersPermissionsRole(id: $id) { data { id } } }`, map[string]any{"id": editors}); get(data, "usersPermissionsRole", "data") != nil {
			t.Errorf("deleted role still there: %v", data)
		}
	})
}

// Every users-permissions operation needs its action, and the role of a
// user is a relation like any other: without role.find it is FORBIDDEN at
// its path, and filters through it are invalid keys.
func TestGraphQLUsersPermissions(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{"public": {auth.ActionRegister, auth.ActionUserFind}}})
		registerUser(t, e, "kai")
		for _, c := range []struct{ query, code string }{
			{`{ usersPermissionsUser(id: "1") { data { id } } }`, "FORBIDDEN"},
			{`mutation { createUsersPermissionsUser(data: {username: "x", email: "x@example.com", password: "secret-x"}) { data { id } } }`, "FORBIDDEN"},
			{`mutation { updateUsersPermissionsUser(id: "1", data: {blocked: true}) { data { id } } }`, "FORBIDDEN"},
			{`mutation { deleteUsersPermissionsUser(id: "1") { data { id } } }`, "FORBIDDEN"},
			{`{ usersPermissionsRoles { data { id } } }`, "FORBIDDEN"},
			{`{ usersPermissionsRole(id: "1") { data { id } } }`, "FORBIDDEN"},
			{`mutation { createUsersPermissionsRole(data: {name: "x"}) { ok } }`, "FORBIDDEN"},
			{`mutation { deleteUsersPermissionsRole(id: "1") { ok } }`, "FORBIDDEN"},
			{`{ usersPermissionsUsers(filters: {role: {type: {eq: "authenticated"}}}) { data { id } } }`, "BAD_USER_INPUT"},
			{`{ usersPermissionsUsers { data { attributes { username role { data { id } } } } } }`, "FORBIDDEN"},
		} {
			r := e.Do("POST", "/graphql", map[string]any{"query": c.query})
			var body struct {
				Errors []struct {
					Path       []any          `json:"path"`
					Extensions map[string]any `json:"extensions"`
				} `json:"errors"`
			}
			_ = json.Unmarshal(r.Body, &body)
			if len(body.Errors) == 0 || body.Errors[0].Extensions["code"] != c.code {
				t.Errorf("%s: %d %s", c.query, r.Status, r.Body)
			}
		}
		// the list itself is allowed: usernames, without the role.
		r := e.Do("POST", "/graphql", map[string]any{"query": `{ usersPermissionsUsers { data { attributes { username } } } }`})
		if !strings.Contains(string(r.Body), `"username":"kai"`) || strings.Contains(string(r.Body), "errors") {
			t.Errorf("list: %s", r.Body)
		}
	})
}
