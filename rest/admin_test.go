package rest_test

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/query"
)

var tokenShape = regexp.MustCompile(`^[0-9a-f]{256}$`)

func TestAdminRegisterAndLogin(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		if r := e.Do("GET", "/admin/init", nil); r.Status != 200 || r.Data()["hasAdmin"] != false {
			t.Fatalf("init: %d %s", r.Status, r.Body)
		}
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"email": "a@example.com", "password": "short"}, "at least 8"},
			{map[string]any{"email": "a@example.com", "password": "alllowercase1"}, "uppercase"},
			{map[string]any{"email": "a@example.com", "password": "NoDigitsHere"}, "number"},
			{map[string]any{"email": "not-an-email", "password": "Admin-Passw0rd"}, "valid email"},
			{map[string]any{"password": "Admin-Passw0rd"}, "email is a required field"},
			{map[string]any{"email": "a@example.com", "password": "Admin-Passw0rd", "role": "x"}, "Invalid key role"},
		} {
			if r := e.Do("POST", "/admin/register-admin", c.body); r.Status != 400 || !strings.Contains(r.ErrorMessage(), c.msg) {
				t.Errorf("register-admin %v: %d %s", c.body, r.Status, r.Body)
			}
		}
		r := e.Do("POST", "/admin/register-admin", map[string]any{"email": "Admin@Example.com", "password": adminPassword, "firstname": "Ada", "lastname": "L"})
		if r.Status != 200 {
			t.Fatalf("register-admin: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "admin_register", scrub(t, r.Body, "token", "accessToken"))
		if strings.Contains(string(r.Body), adminPassword) || strings.Contains(string(r.Body), `"password"`) {
			t.Fatalf("password in the answer: %s", r.Body)
		}
		// Only while no admin exists.
		r = e.Do("POST", "/admin/register-admin", map[string]any{"email": "second@example.com", "password": adminPassword})
		if r.Status != 400 || r.ErrorName() != "ApplicationError" || r.ErrorMessage() != "You cannot register a new super admin" {
			t.Fatalf("second register-admin: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/admin/init", nil); r.Data()["hasAdmin"] != true {
			t.Fatalf("init after: %s", r.Body)
		}
		login := e.Do("POST", "/admin/login", map[string]any{"email": "admin@example.com", "password": adminPassword})
		if login.Status != 200 || login.Data()["token"] == nil {
			t.Fatalf("login: %d %s", login.Status, login.Body)
		}
		testenv.Golden(t, "admin_login", scrub(t, login.Body, "token", "accessToken"))
		if login.Data()["accessToken"] != login.Data()["token"] {
			t.Fatalf("accessToken is not the token: %s", login.Body)
		}
		wrong := e.Do("POST", "/admin/login", map[string]any{"email": "admin@example.com", "password": "Wrong-Passw0rd"})
		unknown := e.Do("POST", "/admin/login", map[string]any{"email": "nobody@example.com", "password": "Wrong-Passw0rd"})
		if wrong.Status != 400 || wrong.ErrorMessage() != "Invalid credentials" || string(wrong.Body) != string(unknown.Body) {
			t.Fatalf("wrong admin login: %d %s / %s", wrong.Status, wrong.Body, unknown.Body)
		}
		// The admin API needs an admin JWT.
		tok := login.Data()["token"].(string)
		userJWT, _ := registerUser(t, e, "ada")
		apiToken, _ := createToken(t, e, tok, map[string]any{"name": "full", "type": "full-access"})
		for _, h := range [][]string{nil, bearer(userJWT), bearer(apiToken), bearer("x.y.z"), {"Authorization", tok}} {
			for _, p := range []string{"/admin/api-tokens", "/admin/users-permissions/roles"} {
				if r := e.Do("GET", p, nil, h...); r.Status != 401 || r.ErrorName() != "UnauthorizedError" {
					t.Errorf("%s with %v: %d %s", p, h, r.Status, r.Body)
				}
			}
		}
		if r := e.Do("GET", "/admin/api-tokens", nil, bearer(tok)...); r.Status != 200 {
			t.Fatalf("admin token: %d %s", r.Status, r.Body)
		}
		// The definitions admin API sits behind the same check; unknown
		// admin paths are 401s for anyone else and 404s for an admin.
		for _, c := range []struct {
			path   string
			tok    string
			status int
		}{
			{"/admin/content-types", tok, 200}, {"/admin/content-types", userJWT, 401}, {"/admin/components", "", 401},
			{"/admin/nope", "", 401}, {"/admin/nope", tok, 404},
		} {
			h := []string{}
			if c.tok != "" {
				h = bearer(c.tok)
			}
			if r := e.Do("GET", c.path, nil, h...); r.Status != c.status {
				t.Errorf("%s: %d %s", c.path, r.Status, r.Body)
			}
		}
	})
}

func TestAPITokens(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		clock := newClock()
		e := openBlog(t, db, testenv.Options{Auth: auth.Config{Now: clock.Now}})
		admin := adminJWT(t, e)
		as := bearer(admin)

		r := e.Do("POST", "/admin/api-tokens", map[string]any{"name": "reader", "description": "site build"}, as...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "token_created", scrub(t, r.Body, "accessKey"))
		readOnly := r.Data()["accessKey"].(string)
		roID := int64(r.Data()["id"].(float64))
		if !tokenShape.MatchString(readOnly) || r.Data()["type"] != "read-only" || r.Data()["expiresAt"] != nil {
			t.Fatalf("token: %s", r.Body)
		}
		// Stored only as HMAC-SHA512(API_TOKEN_SALT, token), in hex.
		var stored string
		if err := e.Store.GORM().Raw("SELECT access_key FROM stratum_api_tokens WHERE id = ?", roID).Row().Scan(&stored); err != nil {
			t.Fatal(err)
		}
		m := hmac.New(sha512.New, secret(t, e, "API_TOKEN_SALT"))
		m.Write([]byte(readOnly))
		if stored != hex.EncodeToString(m.Sum(nil)) || strings.Contains(stored, readOnly[:32]) {
			t.Fatalf("stored key %q is not the HMAC of the token", stored)
		}

		full, fullID := createToken(t, e, admin, map[string]any{"name": "writer", "type": "full-access", "lifespan": 7 * 24 * 3600 * 1000})
		custom, _ := createToken(t, e, admin, map[string]any{"name": "tags only", "type": "custom", "permissions": []string{"api::tag.tag.find", "api::tag.tag.create"}})

		list := e.Do("GET", "/admin/api-tokens", nil, as...)
		if list.Status != 200 || len(list.List()) != 3 || list.List()[0]["name"] != "reader" || strings.Contains(string(list.Body), "accessKey") {
			t.Fatalf("list: %d %s", list.Status, list.Body)
		}
		testenv.Golden(t, "token_list", list.Body)
		one := e.Do("GET", fmt.Sprintf("/admin/api-tokens/%d", fullID), nil, as...)
		exp, _ := time.Parse(time.RFC3339, one.Data()["expiresAt"].(string))
		created, _ := time.Parse(time.RFC3339, one.Data()["createdAt"].(string))
		if one.Status != 200 || one.Data()["lifespan"] != float64(604800000) || exp.Sub(created) != 7*24*time.Hour {
			t.Fatalf("get: %d %s", one.Status, one.Body)
		}
		if r := e.Do("GET", "/admin/api-tokens/99999", nil, as...); r.Status != 404 || r.ErrorMessage() != "API Token not found" {
			t.Fatalf("unknown: %d %s", r.Status, r.Body)
		}

		// Read-only: every read, no write.
		ro := bearer(readOnly)
		doc := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Hello"}}, bearer(full)...)
		if doc.Status != 201 {
			t.Fatalf("full-access write: %d %s", doc.Status, doc.Body)
		}
		docID := doc.Data()["documentId"].(string)
		for _, p := range []string{"/api/articles", "/api/articles/" + docID, "/api/tags", "/api/global"} {
			if r := e.Do("GET", p, nil, ro...); r.Status != 200 && r.Status != 404 {
				t.Errorf("read-only GET %s: %d %s", p, r.Status, r.Body)
			}
		}
		writes := []struct {
			method, path string
			body         any
		}{
			{"POST", "/api/articles", map[string]any{"data": map[string]any{"title": "x"}}},
			{"PUT", "/api/articles/" + docID, map[string]any{"data": map[string]any{"title": "x"}}},
			{"DELETE", "/api/articles/" + docID, nil},
			{"POST", "/api/tags", map[string]any{"data": map[string]any{"name": "x"}}},
			{"PUT", "/api/global", map[string]any{"data": map[string]any{"siteName": "x"}}},
			{"DELETE", "/api/global", nil},
			{"POST", "/api/users", map[string]any{"username": "xxx", "email": "x@example.com", "password": "password"}},
			{"PUT", "/api/users/1", map[string]any{"username": "yyy"}},
			{"DELETE", "/api/users/1", nil},
			{"POST", "/api/auth/local/register", map[string]any{"username": "xxx", "email": "x@example.com", "password": "password"}},
			{"POST", "/api/auth/local", map[string]any{"identifier": "xxx", "password": "password"}},
			{"GET", "/api/users/me", nil},
		}
		for _, w := range writes {
			if r := e.Do(w.method, w.path, w.body, ro...); r.Status != 403 || r.ErrorName() != "ForbiddenError" {
				t.Errorf("read-only %s %s: %d %s", w.method, w.path, r.Status, r.Body)
			}
		}
		if r := e.Do("GET", "/api/articles/"+docID, nil); r.Status != 200 {
			t.Fatalf("the document survived: %d", r.Status)
		}
		// Full access: everything, but /users/me has no user.
		if r := e.Do("PUT", "/api/articles/"+docID, map[string]any{"data": map[string]any{"title": "Changed"}}, bearer(full)...); r.Status != 200 {
			t.Fatalf("full-access update: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(full)...); r.Status != 401 {
			t.Fatalf("me with a token: %d %s", r.Status, r.Body)
		}
		// Custom: its actions only (not even what the public may do).
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go"}}, bearer(custom)...); r.Status != 201 {
			t.Fatalf("custom create: %d %s", r.Status, r.Body)
		}
		for _, c := range [][2]string{{"GET", "/api/articles"}, {"DELETE", "/api/articles/" + docID}} {
			if r := e.Do(c[0], c[1], nil, bearer(custom)...); r.Status != 403 {
				t.Errorf("custom %v: %d %s", c, r.Status, r.Body)
			}
		}

		// Validation of the body.
		for _, c := range []struct {
			body map[string]any
			name string
			msg  string
		}{
			{map[string]any{"name": "reader"}, "ApplicationError", "Name already taken"},
			{map[string]any{"description": "x"}, "ValidationError", "name is a required field"},
			{map[string]any{"name": "x", "type": "admin"}, "ValidationError", "type must be one of"},
			{map[string]any{"name": "x", "lifespan": 12345}, "ValidationError", "lifespan must be one of"},
			{map[string]any{"name": "x", "type": "custom", "permissions": []string{"api::nope.nope.find"}}, "ApplicationError", "Unknown permissions provided: api::nope.nope.find"},
			{map[string]any{"name": "x", "type": "read-only", "permissions": []string{"api::tag.tag.find"}}, "ApplicationError", "Non-custom tokens should not reference permissions"},
			{map[string]any{"name": "x", "type": "custom"}, "ApplicationError", "Missing permissions attribute for custom token"},
			{map[string]any{"name": "x", "accessKey": "abc"}, "ValidationError", "Invalid key accessKey"},
		} {
			if r := e.Do("POST", "/admin/api-tokens", c.body, as...); r.Status != 400 || r.ErrorName() != c.name || !strings.Contains(r.ErrorMessage(), c.msg) {
				t.Errorf("create %v: %d %s", c.body, r.Status, r.Body)
			}
		}
		for _, ms := range []int64{604800000, 2592000000, 7776000000} {
			if r := e.Do("POST", "/admin/api-tokens", map[string]any{"name": fmt.Sprint("life", ms), "lifespan": ms}, as...); r.Status != 201 {
				t.Errorf("lifespan %d: %d %s", ms, r.Status, r.Body)
			}
		}

		// Update: name, description, type; not the lifespan.
		upd := e.Do("PUT", fmt.Sprintf("/admin/api-tokens/%d", roID), map[string]any{"name": "reader 2", "type": "custom", "permissions": []string{"api::article.article.find"}}, as...)
		if upd.Status != 200 || upd.Data()["name"] != "reader 2" || upd.Data()["accessKey"] != nil {
			t.Fatalf("update: %d %s", upd.Status, upd.Body)
		}
		testenv.Golden(t, "token_updated", upd.Body)
		if r := e.Do("GET", "/api/tags", nil, ro...); r.Status != 403 {
			t.Fatalf("narrowed token: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/articles", nil, ro...); r.Status != 200 {
			t.Fatalf("the same string still works: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", fmt.Sprintf("/admin/api-tokens/%d", roID), map[string]any{"lifespan": 604800000}, as...); r.Status != 400 {
			t.Fatalf("lifespan update: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", fmt.Sprintf("/admin/api-tokens/%d", roID), map[string]any{"name": "writer"}, as...); r.Status != 400 || r.ErrorMessage() != "Name already taken" {
			t.Fatalf("rename to a taken name: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/admin/api-tokens/99999", map[string]any{"name": "z"}, as...); r.Status != 404 {
			t.Fatalf("update unknown: %d %s", r.Status, r.Body)
		}

		// Regenerate: a new string; the old one is refused at once.
		reg := e.Do("POST", fmt.Sprintf("/admin/api-tokens/%d/regenerate", roID), nil, as...)
		fresh, _ := reg.Data()["accessKey"].(string)
		if reg.Status != 201 || !tokenShape.MatchString(fresh) || fresh == readOnly {
			t.Fatalf("regenerate: %d %s", reg.Status, reg.Body)
		}
		if r := e.Do("GET", "/api/articles", nil, ro...); r.Status != 401 || r.ErrorMessage() != "Missing or invalid credentials" {
			t.Fatalf("old string after regenerate: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/articles", nil, bearer(fresh)...); r.Status != 200 {
			t.Fatalf("new string: %d %s", r.Status, r.Body)
		}
		// A string one character off is unknown.
		off := fresh[:255] + map[bool]string{true: "0", false: "1"}[fresh[255] != '0']
		if r := e.Do("GET", "/api/articles", nil, bearer(off)...); r.Status != 401 {
			t.Fatalf("one character off: %d %s", r.Status, r.Body)
		}

		// lastUsedAt: set on use, written again at most hourly.
		lastUsed := func() string {
			s, _ := e.Do("GET", fmt.Sprintf("/admin/api-tokens/%d", roID), nil, as...).Data()["lastUsedAt"].(string)
			return s
		}
		first := lastUsed()
		if first == "" {
			t.Fatal("lastUsedAt not set")
		}
		clock.Add(30 * time.Minute)
		e.Do("GET", "/api/articles", nil, bearer(fresh)...)
		if lastUsed() != first {
			t.Fatal("lastUsedAt written again within the hour")
		}
		clock.Add(31 * time.Minute)
		e.Do("GET", "/api/articles", nil, bearer(fresh)...)
		if lastUsed() == first {
			t.Fatal("lastUsedAt not written after an hour")
		}

		// Expiry: the 7-day token stops working after 7 days.
		if r := e.Do("GET", "/api/articles", nil, bearer(full)...); r.Status != 200 {
			t.Fatalf("before expiry: %d", r.Status)
		}
		clock.Add(7 * 24 * time.Hour)
		r = e.Do("GET", "/api/articles", nil, bearer(full)...)
		if r.Status != 401 || r.ErrorName() != "UnauthorizedError" || r.ErrorMessage() != "Token expired" {
			t.Fatalf("expired token: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "error_token_expired", r.Body)

		// Delete revokes at once.
		del := e.Do("DELETE", fmt.Sprintf("/admin/api-tokens/%d", roID), nil, as...)
		if del.Status != 200 || del.Data()["name"] != "reader 2" {
			t.Fatalf("delete: %d %s", del.Status, del.Body)
		}
		if r := e.Do("GET", "/api/articles", nil, bearer(fresh)...); r.Status != 401 {
			t.Fatalf("revoked token: %d %s", r.Status, r.Body)
		}
		if r := e.Do("DELETE", fmt.Sprintf("/admin/api-tokens/%d", roID), nil, as...); r.Status != 404 {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
	})
}

func TestRolesAdmin(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		as := bearer(adminJWT(t, e))
		list := e.Do("GET", "/admin/users-permissions/roles", nil, as...)
		if list.Status != 200 || len(list.List()) != 2 {
			t.Fatalf("list: %d %s", list.Status, list.Body)
		}
		testenv.Golden(t, "roles_list", list.Body)
		var publicID float64
		for _, r := range list.List() {
			if r["type"] == "public" {
				publicID = r["id"].(float64)
			}
		}

		r := e.Do("POST", "/admin/users-permissions/roles", map[string]any{"name": "Editors", "description": "Write articles",
			"permissions": []string{"api::article.article.create", "api::article.article.find"}}, as...)
		if r.Status != 201 || r.Data()["type"] != "editors" {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "role_created", r.Body)
		editors := int64(r.Data()["id"].(float64))
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"name": "Editors"}, "Role name already taken"},
			{map[string]any{"description": "x"}, "name is a required field"},
			{map[string]any{"name": "X", "permissions": []string{"api::nope.nope.find"}}, "Unknown permissions provided"},
			{map[string]any{"name": "X", "permissions": "api::tag.tag.find"}, "array"},
			{map[string]any{"name": "X", "type": "public"}, "Invalid key type"},
		} {
			if r := e.Do("POST", "/admin/users-permissions/roles", c.body, as...); r.Status != 400 || !strings.Contains(r.ErrorMessage(), c.msg) {
				t.Errorf("create %v: %d %s", c.body, r.Status, r.Body)
			}
		}

		// A user of the role gets its permissions, at once.
		tok, uid := registerUser(t, e, "ada")
		if _, err := e.Auth.UpdateUser(t.Context(), uid, map[string]any{"role": editors}); err != nil {
			t.Fatal(err)
		}
		post := func() int {
			return e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "By an editor"}}, bearer(tok)...).Status
		}
		if s := post(); s != 201 {
			t.Fatalf("editor create: %d", s)
		}
		upd := e.Do("PUT", fmt.Sprintf("/admin/users-permissions/roles/%d", editors), map[string]any{"permissions": []string{"api::article.article.find"}}, as...)
		if upd.Status != 200 || upd.Data()["nb_users"] != 1.0 || len(upd.Data()["permissions"].([]any)) != 1 {
			t.Fatalf("update: %d %s", upd.Status, upd.Body)
		}
		if s := post(); s != 403 {
			t.Fatalf("after the permission was removed: %d", s)
		}
		if r := e.Do("GET", fmt.Sprintf("/admin/users-permissions/roles/%d", editors), nil, as...); r.Status != 200 || r.Data()["name"] != "Editors" {
			t.Fatalf("get: %d %s", r.Status, r.Body)
		}

		// Opening a type to the public through the roles API.
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go"}}); r.Status != 403 {
			t.Fatalf("before: %d", r.Status)
		}
		pub := e.Do("GET", fmt.Sprintf("/admin/users-permissions/roles/%d", int64(publicID)), nil, as...).Data()
		perms := []string{"api::tag.tag.create"}
		for _, p := range pub["permissions"].([]any) {
			perms = append(perms, p.(string))
		}
		if r := e.Do("PUT", fmt.Sprintf("/admin/users-permissions/roles/%d", int64(publicID)), map[string]any{"permissions": perms}, as...); r.Status != 200 {
			t.Fatalf("open tags: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "go"}}); r.Status != 201 {
			t.Fatalf("public create after opening: %d %s", r.Status, r.Body)
		}

		// Public and Authenticated stay; deleting a custom role moves its users.
		for _, id := range []int64{int64(publicID), 1} {
			if r := e.Do("DELETE", fmt.Sprintf("/admin/users-permissions/roles/%d", id), nil, as...); r.Status != 400 || r.ErrorName() != "ApplicationError" {
				t.Fatalf("delete built-in role %d: %d %s", id, r.Status, r.Body)
			}
		}
		del := e.Do("DELETE", fmt.Sprintf("/admin/users-permissions/roles/%d", editors), nil, as...)
		if del.Status != 200 || del.Data()["name"] != "Editors" {
			t.Fatalf("delete: %d %s", del.Status, del.Body)
		}
		me := e.Do("GET", "/api/users/me?populate=role", nil, bearer(tok)...)
		if role, _ := me.JSON["role"].(map[string]any); role["type"] != "authenticated" {
			t.Fatalf("user's role after delete: %s", me.Body)
		}
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			if r := e.Do(m, fmt.Sprintf("/admin/users-permissions/roles/%d", editors), map[string]any{"name": "Z"}, as...); r.Status != 404 {
				t.Errorf("%s deleted role: %d %s", m, r.Status, r.Body)
			}
		}
	})
}

// TestPermissionsFile: config/permissions.json sets the roles at start.
func TestPermissionsFile(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{
			"public":        {"api::tag.tag.find"},
			"authenticated": {"api::tag.tag.find", "api::tag.tag.create"},
			"Reviewers":     {"api::article.article.find"},
		}})
		if r := e.Do("GET", "/api/tags", nil); r.Status != 200 {
			t.Fatalf("public find: %d", r.Status)
		}
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "a"}}); r.Status != 403 {
			t.Fatalf("public create: %d", r.Status)
		}
		// The default plugin permissions stay: register and login work.
		tok, _ := registerUser(t, e, "ada")
		if r := e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": "a"}}, bearer(tok)...); r.Status != 201 {
			t.Fatalf("authenticated create: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(tok)...); r.Status != 200 {
			t.Fatalf("me: %d", r.Status)
		}
		roles := e.Do("GET", "/admin/users-permissions/roles", nil, bearer(adminJWT(t, e))...)
		found := false
		for _, r := range roles.List() {
			if r["name"] == "Reviewers" && r["type"] == "reviewers" && fmt.Sprint(r["permissions"]) == "[api::article.article.find]" {
				found = true
			}
		}
		if !found {
			t.Fatalf("custom role from the file: %s", roles.Body)
		}
		// An unknown action in the file stops the start, naming it.
		_, err := auth.New(t.Context(), e.Store, auth.Config{Permissions: auth.Permissions{"public": {"api::nope.nope.find"}},
			Actions: func() []string { return auth.SchemaActions(e.Engine.Registry.Current().Schema) }})
		if err == nil || !strings.Contains(err.Error(), "api::nope.nope.find") || !strings.Contains(err.Error(), "config/permissions.json") {
			t.Fatalf("unknown action in the file: %v", err)
		}
	})
}

func TestContentManagerActions(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		as := bearer(adminJWT(t, e))
		ctx := t.Context()
		col, _ := e.Engine.CollectionByUID("api::article.article")
		draft := func(data map[string]any) string {
			d, err := e.Engine.Create(ctx, engine.AllowAll{}, col, data, engine.WriteOptions{Status: query.Draft})
			if err != nil {
				t.Fatal(err)
			}
			return d.DocumentID
		}
		action := func(id, act string) *testenv.Response {
			return e.Do("POST", "/admin/content-manager/api::article.article/"+id+"/actions/"+act, nil, as...)
		}
		noTitle := draft(map[string]any{"summary": "no title yet"})
		badSEO := draft(map[string]any{"title": "SEO", "seo": map[string]any{"metaDescription": "x"}, "quotes": []any{map[string]any{"title": "q"}}})
		good := draft(map[string]any{"title": "Good", "slug": "same-slug"})
		dup := draft(map[string]any{"title": "Dup", "slug": "same-slug"})

		if r := action(noTitle, "publish"); r.Status != 400 || r.ErrorMessage() != "title must be defined." {
			t.Fatalf("publish without title: %d %s", r.Status, r.Body)
		}
		r := action(badSEO, "publish")
		if r.Status != 400 || r.ErrorMessage() != "2 errors occurred" || !strings.Contains(string(r.Body), `["seo","metaTitle"]`) || !strings.Contains(string(r.Body), `["quotes","0","body"]`) {
			t.Fatalf("publish with bad components: %d %s", r.Status, r.Body)
		}
		pub := action(good, "publish")
		if pub.Status != 200 || pub.Data()["publishedAt"] == nil || pub.Data()["title"] != "Good" {
			t.Fatalf("publish: %d %s", pub.Status, pub.Body)
		}
		testenv.Golden(t, "cm_published", pub.Body)
		if r := e.Do("GET", "/api/articles/"+good, nil); r.Status != 200 {
			t.Fatalf("published document: %d", r.Status)
		}
		if r := action(dup, "publish"); r.Status != 400 || r.ErrorMessage() != "This attribute must be unique" {
			t.Fatalf("publish a duplicate slug: %d %s", r.Status, r.Body)
		}

		// Discard the draft's changes.
		if _, err := e.Engine.Update(ctx, engine.AllowAll{}, col, good, map[string]any{"title": "Edited"}, engine.WriteOptions{Status: query.Draft}); err != nil {
			t.Fatal(err)
		}
		dis := action(good, "discard-draft")
		if dis.Status != 200 || dis.Data()["title"] != "Good" || dis.Data()["publishedAt"] != nil {
			t.Fatalf("discard: %d %s", dis.Status, dis.Body)
		}
		if r := e.Do("GET", "/api/articles/"+good+"?status=draft", nil); r.Data()["title"] != "Good" {
			t.Fatalf("draft after discard: %s", r.Body)
		}
		if r := action(noTitle, "discard-draft"); r.Status != 400 || r.ErrorName() != "ApplicationError" {
			t.Fatalf("discard never published: %d %s", r.Status, r.Body)
		}

		// Unpublish.
		un := action(good, "unpublish")
		if un.Status != 200 || un.Data()["publishedAt"] != nil {
			t.Fatalf("unpublish: %d %s", un.Status, un.Body)
		}
		if r := e.Do("GET", "/api/articles/"+good, nil); r.Status != 404 {
			t.Fatalf("unpublished document still served: %d", r.Status)
		}
		if r := action(dup, "publish"); r.Status != 200 {
			t.Fatalf("the slug is free again: %d %s", r.Status, r.Body)
		}

		for _, c := range []struct {
			path   string
			status int
		}{
			{"/admin/content-manager/api::nope.nope/" + good + "/actions/publish", 404},
			{"/admin/content-manager/api::article.article/nope/actions/publish", 404},
			{"/admin/content-manager/api::article.article/nope/actions/unpublish", 404},
			{"/admin/content-manager/api::article.article/nope/actions/discard-draft", 404},
			{"/admin/content-manager/api::article.article/" + good + "/actions/explode", 404},
			{"/admin/content-manager/api::tag.tag/" + good + "/actions/publish", 400},
		} {
			if r := e.Do("POST", c.path, nil, as...); r.Status != c.status {
				t.Errorf("%s: %d %s", c.path, r.Status, r.Body)
			}
		}
		if r := e.Do("POST", "/admin/content-manager/api::article.article/"+good+"/actions/publish", nil); r.Status != 401 {
			t.Fatalf("without an admin: %d", r.Status)
		}
	})
}

// TestContentManagerLocales: the actions work per locale.
func TestContentManagerLocales(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		as := bearer(adminJWT(t, e))
		en := e.Do("POST", "/api/pages?status=draft", map[string]any{"data": map[string]any{"title": "Hello"}})
		id := en.Data()["documentId"].(string)
		if r := e.Do("PUT", "/api/pages/"+id+"?locale=fr&status=draft", map[string]any{"data": map[string]any{"title": "Bonjour"}}); r.Status != 200 {
			t.Fatalf("fr draft: %d %s", r.Status, r.Body)
		}
		path := "/admin/content-manager/api::page.page/" + id + "/actions/publish"
		if r := e.Do("POST", path+"?locale=fr", nil, as...); r.Status != 200 || r.Data()["locale"] != "fr" {
			t.Fatalf("publish fr: %d %s", r.Status, r.Body)
		}
		if l := e.Do("GET", "/api/pages?locale=fr", nil).List(); len(l) != 1 {
			t.Fatalf("fr published: %v", l)
		}
		if l := e.Do("GET", "/api/pages", nil).List(); len(l) != 0 {
			t.Fatalf("en stays a draft: %v", l)
		}
		if r := e.Do("POST", path+"?locale=*", nil, as...); r.Status != 400 {
			t.Fatalf("locale=*: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", path+"?locale=pt-BR", nil, as...); r.Status != 404 {
			t.Fatalf("no pt-BR version: %d %s", r.Status, r.Body)
		}
	})
}

// TestConcurrentRegisterAdmin: of simultaneous register-admin calls,
// exactly one wins; of simultaneous registrations of one name, one too.
func TestConcurrentRegisterAdmin(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		statuses := make(chan int, 16)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				r := e.Do("POST", "/admin/register-admin", map[string]any{"email": fmt.Sprintf("a%d@example.com", i), "password": adminPassword})
				statuses <- r.Status
			}()
			go func() {
				defer wg.Done()
				r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "same", "email": fmt.Sprintf("u%d@example.com", i), "password": "password"})
				statuses <- 1000 + r.Status
			}()
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[200] != 1 || count[400] != 7 || count[1200] != 1 || count[1400] != 7 {
			t.Fatalf("statuses: %v", count)
		}
		if n, _ := e.Auth.AdminCount(t.Context()); n != 1 {
			t.Fatalf("%d admins", n)
		}
	})
}
