package rest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwt"
	"golang.org/x/crypto/bcrypt"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/rest"
)

func TestRegisterLoginAndMe(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "ada", "email": "Ada@Example.com", "password": "lovelace"})
		if r.Status != 200 {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "auth_register", scrub(t, r.Body, "jwt"))
		if strings.Contains(string(r.Body), "password") || strings.Contains(string(r.Body), "lovelace") {
			t.Fatalf("password in the answer: %s", r.Body)
		}
		if parts := strings.Split(r.JSON["jwt"].(string), "."); len(parts) != 3 {
			t.Fatalf("jwt: %s", r.Body)
		} else {
			claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
			var m map[string]any
			_ = json.Unmarshal(claims, &m)
			if len(m) != 3 || m["id"] == nil || m["iat"] == nil || m["exp"] == nil {
				t.Fatalf("claims are {id, iat, exp}: %s", claims)
			}
			if exp, iat := m["exp"].(float64), m["iat"].(float64); exp-iat != 30*24*3600 {
				t.Fatalf("expiresIn is 30 days by default: %v", exp-iat)
			}
		}
		// The password is stored as a bcrypt hash of cost 10.
		var hash string
		if err := e.Store.GORM().Raw("SELECT password FROM up_users WHERE username = ?", "ada").Row().Scan(&hash); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(hash, "$2a$10$") {
			t.Fatalf("hash %q", hash)
		}

		for _, c := range []struct {
			name   string
			body   map[string]any
			status int
			errN   string
			msg    string
		}{
			{"same username", map[string]any{"username": "ada", "email": "other@example.com", "password": "lovelace"}, 400, "ApplicationError", "Email or Username are already taken"},
			{"same email, other case", map[string]any{"username": "ada2", "email": "ADA@example.com", "password": "lovelace"}, 400, "ApplicationError", "Email or Username are already taken"},
			{"unknown key", map[string]any{"username": "bob", "email": "bob@example.com", "password": "lovelace", "role": 1}, 400, "ValidationError", "Invalid parameters: role"},
			{"missing fields", map[string]any{}, 400, "ValidationError", "3 errors occurred"},
			{"bad email", map[string]any{"username": "bob", "email": "bob", "password": "lovelace"}, 400, "ValidationError", "email must be a valid email"},
			{"short password", map[string]any{"username": "bob", "email": "bob@example.com", "password": "abc"}, 400, "ValidationError", "at least 6"},
			{"long password", map[string]any{"username": "bob", "email": "bob@example.com", "password": strings.Repeat("x", 73)}, 400, "ValidationError", "73 bytes"},
		} {
			r := e.Do("POST", "/api/auth/local/register", c.body)
			if r.Status != c.status || r.ErrorName() != c.errN || !strings.Contains(r.ErrorMessage(), c.msg) {
				t.Errorf("register %s: %d %s", c.name, r.Status, r.Body)
			}
		}

		// Login by email (any case) or username.
		for _, ident := range []string{"ADA@example.com", "ada"} {
			r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": ident, "password": "lovelace"})
			if r.Status != 200 || r.JSON["jwt"] == nil {
				t.Fatalf("login %s: %d %s", ident, r.Status, r.Body)
			}
			testenv.Golden(t, "auth_login", scrub(t, r.Body, "jwt"))
		}
		// A wrong password and an unknown user get the same answer.
		wrong := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "babbage"})
		unknown := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "nobody", "password": "babbage"})
		if wrong.Status != 400 || wrong.ErrorName() != "ValidationError" || wrong.ErrorMessage() != "Invalid identifier or password" {
			t.Fatalf("wrong password: %d %s", wrong.Status, wrong.Body)
		}
		if !bytes.Equal(wrong.Body, unknown.Body) || wrong.Status != unknown.Status {
			t.Fatalf("unknown user answers differently:\n%s\n%s", wrong.Body, unknown.Body)
		}
		testenv.Golden(t, "error_invalid_login", wrong.Body)
		if r := e.Do("POST", "/api/auth/local", map[string]any{}); r.Status != 400 || r.ErrorMessage() != "2 errors occurred" {
			t.Fatalf("empty login: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/auth/local", `{"identifier":`); r.Status != 400 || r.ErrorName() != "SyntaxError" {
			t.Fatalf("malformed login: %d %s", r.Status, r.Body)
		}

		// /api/users/me
		jwtStr := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "lovelace"}).JSON["jwt"].(string)
		me := e.Do("GET", "/api/users/me", nil, bearer(jwtStr)...)
		if me.Status != 200 || me.JSON["username"] != "ada" || me.JSON["email"] != "ada@example.com" {
			t.Fatalf("me: %d %s", me.Status, me.Body)
		}
		testenv.Golden(t, "users_me", me.Body)
		me = e.Do("GET", "/api/users/me?populate=role", nil, bearer(jwtStr)...)
		if role, _ := me.JSON["role"].(map[string]any); role["type"] != "authenticated" {
			t.Fatalf("me with role: %s", me.Body)
		}
		testenv.Golden(t, "users_me_role", me.Body)
		me = e.Do("GET", "/api/users/me?fields[0]=username", nil, bearer(jwtStr)...)
		if len(me.JSON) != 3 || me.JSON["username"] != "ada" {
			t.Fatalf("me fields: %s", me.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil); r.Status != 403 || r.ErrorName() != "ForbiddenError" {
			t.Fatalf("me anonymous: %d %s", r.Status, r.Body)
		}
		// A user keeps the public content permissions of the project? No:
		// Authenticated has its own; the blog file names only public.
		if r := e.Do("GET", "/api/articles", nil, bearer(jwtStr)...); r.Status != 403 {
			t.Fatalf("authenticated role without find: %d %s", r.Status, r.Body)
		}
	})
}

// TestCredentialsNeverFallBackToPublic: every bad credential is a 401,
// even on a route the public may read.
func TestCredentialsNeverFallBackToPublic(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		userJWT, userID := registerUser(t, e, "ada")
		admin := adminJWT(t, e)
		key := secret(t, e, "JWT_SECRET")
		now := time.Now()
		sign := func(alg jwa.SignatureAlgorithm, k []byte, claims map[string]any) string {
			tok := jwt.New()
			for n, v := range claims {
				_ = tok.Set(n, v)
			}
			b, err := jwt.Sign(tok, jwt.WithKey(alg, k))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		valid := map[string]any{"id": userID, "iat": now, "exp": now.Add(time.Hour)}
		enc := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
		parts := strings.Split(userJWT, ".")
		other, _ := registerUser(t, e, "bob")
		otherClaims := strings.Split(other, ".")[1]

		// A token signed with the secret works: the cases below fail for
		// their one defect only.
		if r := e.Do("GET", "/api/users/me", nil, bearer(sign(jwa.HS256, key, valid))...); r.Status != 200 {
			t.Fatalf("forged with the secret: %d %s", r.Status, r.Body)
		}
		cases := []struct{ name, header, msg string }{
			{"alg none", "Bearer " + enc(map[string]any{"alg": "none", "typ": "JWT"}) + "." + enc(map[string]any{"id": userID, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}) + ".", "Missing or invalid credentials"},
			{"tampered payload", "Bearer " + parts[0] + "." + otherClaims + "." + parts[2], "Missing or invalid credentials"},
			{"tampered signature", "Bearer " + parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])), "Missing or invalid credentials"},
			{"expired", "Bearer " + sign(jwa.HS256, key, map[string]any{"id": userID, "iat": now.Add(-2 * time.Hour), "exp": now.Add(-time.Hour)}), "Missing or invalid credentials"},
			{"no exp", "Bearer " + sign(jwa.HS256, key, map[string]any{"id": userID, "iat": now}), "Missing or invalid credentials"},
			{"other secret", "Bearer " + sign(jwa.HS256, []byte("not-the-secret"), valid), "Missing or invalid credentials"},
			{"algorithm swap HS512", "Bearer " + sign(jwa.HS512, key, valid), "Missing or invalid credentials"},
			{"admin JWT on the content API", "Bearer " + admin, "Missing or invalid credentials"},
			{"user claims signed with the admin secret", "Bearer " + sign(jwa.HS256, secret(t, e, "ADMIN_JWT_SECRET"), valid), "Missing or invalid credentials"},
			{"admin claim with the user secret", "Bearer " + sign(jwa.HS256, key, map[string]any{"id": userID, "typ": "admin", "iat": now, "exp": now.Add(time.Hour)}), "Missing or invalid credentials"},
			{"deleted user", "Bearer " + sign(jwa.HS256, key, map[string]any{"id": 999999, "iat": now, "exp": now.Add(time.Hour)}), "Invalid credentials"},
			{"unknown API token", "Bearer " + strings.Repeat("ab", 128), "Missing or invalid credentials"},
			{"garbage", "Bearer not-a-token", "Missing or invalid credentials"},
			{"no scheme", userJWT, "Missing or invalid credentials"},
			{"three parts", "Bearer " + userJWT + " x", "Missing or invalid credentials"},
			{"basic auth", "Basic YWRhOmxvdmVsYWNl", "Missing or invalid credentials"},
		}
		for _, c := range cases {
			for _, path := range []string{"/api/articles", "/api/users/me"} {
				r := e.Do("GET", path, nil, "Authorization", c.header)
				if r.Status != 401 || r.ErrorName() != "UnauthorizedError" || r.ErrorMessage() != c.msg {
					t.Errorf("%s on %s: %d %s", c.name, path, r.Status, r.Body)
				}
			}
		}
		if r := e.Do("GET", "/api/articles", nil, "Authorization", "Bearer "+parts[0]+"."+otherClaims+"."+parts[2]); r.Status == 401 {
			testenv.Golden(t, "error_invalid_credentials", r.Body)
		}
		// The scheme is case-insensitive.
		if r := e.Do("GET", "/api/users/me", nil, "Authorization", "bearer "+userJWT); r.Status != 200 {
			t.Fatalf("lower-case scheme: %d %s", r.Status, r.Body)
		}
		// A user JWT on the admin API is refused, and so is an admin
		// token signed with the users' secret.
		for _, tok := range []string{userJWT, sign(jwa.HS256, key, map[string]any{"id": 1, "typ": "admin", "iat": now, "exp": now.Add(time.Hour)})} {
			if r := e.Do("GET", "/admin/api-tokens", nil, bearer(tok)...); r.Status != 401 || r.ErrorName() != "UnauthorizedError" {
				t.Fatalf("user JWT on the admin API: %d %s", r.Status, r.Body)
			}
		}
	})
}

func TestBlockedUser(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		tok, id := registerUser(t, e, "ada")
		if _, err := e.Auth.UpdateUser(t.Context(), id, map[string]any{"blocked": true}); err != nil {
			t.Fatal(err)
		}
		r := e.Do("GET", "/api/users/me", nil, bearer(tok)...)
		if r.Status != 401 || r.ErrorMessage() != "Invalid credentials" {
			t.Fatalf("blocked user's JWT: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "secret-ada"})
		if r.Status != 400 || r.ErrorName() != "ApplicationError" || r.ErrorMessage() != "Your account has been blocked by an administrator" {
			t.Fatalf("blocked login: %d %s", r.Status, r.Body)
		}
		// Only the right password reveals the block.
		r = e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "wrong-one"})
		if r.ErrorMessage() != "Invalid identifier or password" {
			t.Fatalf("blocked, wrong password: %d %s", r.Status, r.Body)
		}
	})
}

func TestUsersCollection(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		perms := append([]string{auth.ActionLogin, auth.ActionRegister, auth.ActionRoleFind}, userPluginActions...)
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{"public": perms}})
		r := e.Do("POST", "/api/users", map[string]any{"username": "ada", "email": "ada@example.com", "password": "lovelace"})
		if r.Status != 201 || r.JSON["data"] != nil {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "users_created", r.Body)
		id := int64(r.JSON["id"].(float64))
		for i := range 3 {
			n := fmt.Sprintf("user%d", i)
			if r := e.Do("POST", "/api/users", map[string]any{"username": n, "email": n + "@example.com", "password": "password", "blocked": i == 2}); r.Status != 201 {
				t.Fatalf("create %s: %d %s", n, r.Status, r.Body)
			}
		}
		list := e.Do("GET", "/api/users", nil)
		if list.Status != 200 || !bytes.HasPrefix(list.Body, []byte("[")) {
			t.Fatalf("list: %d %s", list.Status, list.Body)
		}
		testenv.Golden(t, "users_list", list.Body)
		var arr []map[string]any
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"filters[username][$eq]=ada", []string{"ada"}},
			{"filters[username][$startsWith]=user&sort=username:desc", []string{"user2", "user1", "user0"}},
			{"filters[email][$containsi]=USER1", []string{"user1"}},
			{"filters[blocked][$eq]=true", []string{"user2"}},
			{"filters[$or][0][username][$eq]=ada&filters[$or][1][username][$eq]=user0", []string{"ada", "user0"}},
			{"filters[username][$in][0]=user0&filters[username][$in][1]=user1", []string{"user0", "user1"}},
			{"filters[role][type][$eq]=authenticated&pagination[start]=1&pagination[limit]=2", []string{"user0", "user1"}},
			{"pagination[page]=2&pagination[pageSize]=3", []string{"user2"}},
			{"filters[username][$contains]=%25", nil},
		} {
			r := e.Do("GET", "/api/users?"+c.query, nil)
			arr = nil
			_ = json.Unmarshal(r.Body, &arr)
			var got []string
			for _, u := range arr {
				got = append(got, u["username"].(string))
			}
			if r.Status != 200 || fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("%s: %d %v %s", c.query, r.Status, got, r.Body)
			}
		}
		for _, q := range []string{"filters[password][$eq]=x", "filters[nope][$eq]=x", "sort=password", "fields[0]=password", "populate=articles", "filters[id][$eq]=abc"} {
			if r := e.Do("GET", "/api/users?"+q, nil); r.Status != 400 || r.ErrorName() != "ValidationError" {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
		if r := e.Do("GET", "/api/users/count?filters[username][$startsWith]=user", nil); r.Status != 200 || string(bytes.TrimSpace(r.Body)) != "3" {
			t.Fatalf("count: %d %s", r.Status, r.Body)
		}
		one := e.Do("GET", fmt.Sprintf("/api/users/%d?populate=role", id), nil)
		if one.Status != 200 || one.JSON["username"] != "ada" || one.JSON["role"] == nil {
			t.Fatalf("find one: %d %s", one.Status, one.Body)
		}
		// Strapi's quirk: an unknown id answers 204 with no body.
		for _, p := range []string{"/api/users/999999", "/api/users/abc"} {
			if r := e.Do("GET", p, nil); r.Status != 204 || len(r.Body) != 0 {
				t.Fatalf("%s: %d %s", p, r.Status, r.Body)
			}
		}
		upd := e.Do("PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"username": "ada_l", "password": "newpassword"})
		if upd.Status != 200 || upd.JSON["username"] != "ada_l" || upd.JSON["email"] != "ada@example.com" {
			t.Fatalf("update: %d %s", upd.Status, upd.Body)
		}
		if r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada_l", "password": "newpassword"}); r.Status != 200 {
			t.Fatalf("login with the new password: %d %s", r.Status, r.Body)
		}
		for _, c := range []struct {
			method, path string
			body         any
			status       int
			msg          string
		}{
			{"PUT", "/api/users/999999", map[string]any{"username": "x12"}, 404, "User not found"},
			{"PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"username": "user0"}, 400, "Username already taken"},
			{"PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"email": "USER0@example.com"}, 400, "Email already taken"},
			{"PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"password": "x"}, 400, "at least 6"},
			{"PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"role": 99999}, 400, "not found"},
			{"PUT", fmt.Sprintf("/api/users/%d", id), map[string]any{"resetPasswordToken": "x"}, 400, "Invalid key resetPasswordToken"},
			{"POST", "/api/users", map[string]any{"username": "user0", "email": "new@example.com", "password": "password"}, 400, "Username already taken"},
			{"POST", "/api/users", map[string]any{"username": "x"}, 400, "errors occurred"},
			{"POST", "/api/users", `[1]`, 400, "JSON object"},
			{"DELETE", "/api/users/999999", nil, 404, "User not found"},
		} {
			r := e.Do(c.method, c.path, c.body)
			if r.Status != c.status || !strings.Contains(r.ErrorMessage(), c.msg) {
				t.Errorf("%s %s %v: %d %s", c.method, c.path, c.body, r.Status, r.Body)
			}
		}
		del := e.Do("DELETE", fmt.Sprintf("/api/users/%d", id), nil)
		if del.Status != 200 || del.JSON["username"] != "ada_l" {
			t.Fatalf("delete: %d %s", del.Status, del.Body)
		}
		if r := e.Do("GET", fmt.Sprintf("/api/users/%d", id), nil); r.Status != 204 {
			t.Fatalf("deleted user: %d", r.Status)
		}
		for _, b := range [][]byte{list.Body, one.Body, upd.Body, del.Body} {
			if bytes.Contains(b, []byte("password")) || bytes.Contains(b, []byte("$2a$")) {
				t.Fatalf("password leaked: %s", b)
			}
		}
		// Without the permissions, the same routes are 403.
		e2 := openBlog(t, db, testenv.Options{})
		for _, c := range [][2]string{{"GET", "/api/users"}, {"GET", "/api/users/1"}, {"GET", "/api/users/count"}, {"POST", "/api/users"}, {"PUT", "/api/users/1"}, {"DELETE", "/api/users/1"}} {
			if r := e2.Do(c[0], c[1], map[string]any{}); r.Status != 403 {
				t.Errorf("%v without permission: %d %s", c, r.Status, r.Body)
			}
		}
	})
}

func TestRateLimit(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		clock := newClock()
		e := openBlog(t, db, testenv.Options{Auth: auth.Config{Now: clock.Now, RateLimit: auth.RateLimitConfig{Max: 3, Interval: time.Minute}}})
		login := func(ident string) *testenv.Response {
			return e.Do("POST", "/api/auth/local", map[string]any{"identifier": ident, "password": "nope-nope"})
		}
		for i := range 3 {
			if r := login("ada"); r.Status != 400 {
				t.Fatalf("attempt %d: %d %s", i, r.Status, r.Body)
			}
		}
		r := login("ada")
		if r.Status != 429 || r.ErrorName() != "RateLimitError" || r.ErrorMessage() != "Too many requests, please try again later." {
			t.Fatalf("4th attempt: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "error_rate_limit", r.Body)
		// Another identifier, and another path, have their own counts.
		if r := login("bob"); r.Status != 400 {
			t.Fatalf("other identifier: %d %s", r.Status, r.Body)
		}
		for i := range 4 {
			r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": fmt.Sprintf("ada%d", i), "email": "ada@example.com", "password": "lovelace"})
			if want := map[bool]int{true: 429, false: 0}[i == 3]; want != 0 && r.Status != want {
				t.Fatalf("register %d: %d %s", i, r.Status, r.Body)
			}
		}
		for i := range 4 {
			r := e.Do("POST", "/admin/login", map[string]any{"email": "x@example.com", "password": "Nope-nope1"})
			if i == 3 && r.Status != 429 {
				t.Fatalf("admin login %d: %d %s", i, r.Status, r.Body)
			}
		}
		// The bucket refills over the interval.
		clock.Add(time.Minute)
		if r := login("ada"); r.Status != 400 {
			t.Fatalf("after the interval: %d %s", r.Status, r.Body)
		}
	})
}

// TestRateLimitClientAddress: X-Forwarded-For is only believed behind a
// proxy (server.json "proxy": true); otherwise it cannot dodge the limit.
func TestRateLimitClientAddress(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		for _, trust := range []bool{false, true} {
			e := openBlog(t, db, testenv.Options{Rest: rest.Config{TrustProxy: trust}, Auth: auth.Config{RateLimit: auth.RateLimitConfig{Max: 2, Interval: time.Minute}}})
			var last int
			for i := range 3 {
				last = e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "nope-nope"}, "X-Forwarded-For", fmt.Sprintf("10.0.0.%d", i)).Status
			}
			if want := map[bool]int{false: 429, true: 400}[trust]; last != want {
				t.Fatalf("trust proxy %v: third attempt %d, want %d", trust, last, want)
			}
		}
	})
}

// TestRateLimitSpoofedForwardedFor: behind a proxy, entries a client writes
// to the left of the proxy's own do not give it fresh counts, and REST and
// GraphQL logins share one count per identifier and client.
func TestRateLimitSpoofedForwardedFor(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Rest: rest.Config{TrustProxy: true}, Auth: auth.Config{RateLimit: auth.RateLimitConfig{Max: 3, Interval: time.Minute}}})
		xff := func(i int) string { return fmt.Sprintf("198.51.100.%d, 203.0.113.9", i) }
		for i := range 2 {
			if r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "nope-nope"}, "X-Forwarded-For", xff(i)); r.Status != 400 {
				t.Fatalf("attempt %d: %d %s", i, r.Status, r.Body)
			}
		}
		q := map[string]any{"query": `mutation { login(input: {identifier: "ada", password: "nope-nope"}) { jwt } }`}
		if r := e.Do("POST", "/graphql", q, "X-Forwarded-For", xff(7)); strings.Contains(string(r.Body), "Too many requests") {
			t.Fatalf("third attempt, through GraphQL: %s", r.Body)
		}
		if r := e.Do("POST", "/graphql", q, "X-Forwarded-For", xff(8)); !strings.Contains(string(r.Body), "Too many requests") {
			t.Fatalf("fourth attempt, through GraphQL: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "nope-nope"}, "X-Forwarded-For", xff(9)); r.Status != 429 {
			t.Fatalf("fifth attempt, through REST: %d %s", r.Status, r.Body)
		}
		// Another client is counted apart.
		if r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "nope-nope"}, "X-Forwarded-For", "203.0.113.10"); r.Status != 400 {
			t.Fatalf("another client: %d %s", r.Status, r.Body)
		}
	})
}

// TestImportedStrapiUser: a user row carried over from Strapi (bcryptjs
// hashes, $2a$ or $2b$) logs in.
func TestImportedStrapiUser(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{})
		registerUser(t, e, "seed") // makes sure the roles and tables exist
		h, _ := bcrypt.GenerateFromPassword([]byte("from-strapi"), 10)
		for i, prefix := range []string{"$2a$", "$2b$"} {
			hash := prefix + string(h[4:])
			now := time.Now().UTC()
			err := e.Store.GORM().Exec(`INSERT INTO up_users (document_id, username, email, provider, password, confirmed, blocked, role_id, created_at, updated_at, published_at)
				VALUES (?, ?, ?, 'local', ?, ?, ?, (SELECT id FROM up_roles WHERE type = 'authenticated'), ?, ?, ?)`,
				fmt.Sprintf("imported%016d", i), fmt.Sprint("old", i), fmt.Sprintf("old%d@example.com", i), hash, true, false, now, now, now).Error
			if err != nil {
				t.Fatal(err)
			}
			r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": fmt.Sprint("old", i), "password": "from-strapi"})
			if r.Status != 200 {
				t.Fatalf("%s hash: %d %s", prefix, r.Status, r.Body)
			}
		}
	})
}

// TestAccountChangesEndSessions: a password change or a block ends the
// JWTs issued before it (also once the user is unblocked), and users
// cannot change their own role, blocked or confirmed through
// /api/users/:id, even with the permission to update users.
func TestAccountChangesEndSessions(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{
			"public":        []string{"plugin::users-permissions.auth.callback", "plugin::users-permissions.auth.register"},
			"authenticated": []string{"plugin::users-permissions.user.me", "plugin::users-permissions.user.update"}}})
		old, id := registerUser(t, e, "ada")
		path := fmt.Sprintf("/api/users/%d", id)
		for _, k := range []map[string]any{{"role": 1}, {"blocked": false}, {"confirmed": true}, {"username": "ada2", "role": 1}} {
			if r := e.Do("PUT", path, k, bearer(old)...); r.Status != 400 || !strings.HasPrefix(r.ErrorMessage(), "Invalid key") {
				t.Errorf("self update %v: %d %s", k, r.Status, r.Body)
			}
		}
		if r := e.Do("PUT", path, map[string]any{"username": "ada-renamed"}, bearer(old)...); r.Status != 200 {
			t.Fatalf("self update of the username: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(old)...); r.Status != 200 {
			t.Fatalf("a username change keeps the session: %d %s", r.Status, r.Body)
		}
		time.Sleep(1100 * time.Millisecond) // iat has whole seconds
		if r := e.Do("PUT", path, map[string]any{"password": "a-new-passw0rd"}, bearer(old)...); r.Status != 200 {
			t.Fatalf("password change: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(old)...); r.Status != 401 {
			t.Fatalf("the JWT from before the password change: %d %s", r.Status, r.Body)
		}
		r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada-renamed", "password": "a-new-passw0rd"})
		if r.Status != 200 {
			t.Fatalf("login with the new password: %d %s", r.Status, r.Body)
		}
		fresh := r.JSON["jwt"].(string)
		if r := e.Do("GET", "/api/users/me", nil, bearer(fresh)...); r.Status != 200 {
			t.Fatalf("the new JWT: %d %s", r.Status, r.Body)
		}
		// An admin's token blocks and unblocks the user: the JWT stays over.
		tok, _ := createToken(t, e, adminJWT(t, e), map[string]any{"name": "ops", "type": "full-access"})
		time.Sleep(1100 * time.Millisecond)
		for _, blocked := range []bool{true, false} {
			if r := e.Do("PUT", path, map[string]any{"blocked": blocked}, bearer(tok)...); r.Status != 200 {
				t.Fatalf("blocked %v: %d %s", blocked, r.Status, r.Body)
			}
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(fresh)...); r.Status != 401 {
			t.Fatalf("the JWT from before the block, after the unblock: %d %s", r.Status, r.Body)
		}
	})
}

// TestUsersRoleNeedsRoleFind: the role is private like any relation: a
// filter or a sort through it needs the role find permission (else an
// invalid key), and a populate of it is dropped, as Strapi's sanitizers do.
func TestUsersRoleNeedsRoleFind(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Permissions: auth.Permissions{"public": userPluginActions}})
		r := e.Do("POST", "/api/users", map[string]any{"username": "ada", "email": "ada@example.com", "password": "lovelace"})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id := int64(r.JSON["id"].(float64))
		for _, q := range []string{"/api/users?filters[role][type][$eq]=authenticated", "/api/users?sort=role.name",
			"/api/users/count?filters[role][name][$eq]=x", "/api/users?filters[$or][0][role][id][$eq]=1"} {
			if r := e.Do("GET", q, nil); r.Status != 400 || r.ErrorName() != "ValidationError" {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
		for _, q := range []string{fmt.Sprintf("/api/users/%d?populate=role", id), fmt.Sprintf("/api/users/%d?populate=*", id)} {
			if r := e.Do("GET", q, nil); r.Status != 200 || r.JSON["username"] != "ada" || r.JSON["role"] != nil {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
		if r := e.Do("GET", "/api/users?populate=role", nil); r.Status != 200 || bytes.Contains(r.Body, []byte(`"role"`)) {
			t.Errorf("list populate role: %d %s", r.Status, r.Body)
		}
	})
}
