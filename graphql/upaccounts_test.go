package graphql

import (
	"context"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testdb"
)

// register -> login -> authorised query, on the real users-permissions.
func TestUsersPermissionsAccounts(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		var svc *auth.Service
		e := start(t, db(t), options{public: []string{}, setup: func(s *Server) {}})
		var err error
		svc, err = auth.New(context.Background(), e.Store, auth.Config{Env: "development",
			Permissions: auth.Permissions{"public": {"api::tag.tag.find"}, "authenticated": {"api::article.article.find", "api::article.article.create"}},
			Actions:     func() []string { return auth.SchemaActions(e.Eng.Registry.Current().Schema) }})
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(Config{}, e.Eng, svc, UsersPermissions(svc))
		if err != nil {
			t.Fatal(err)
		}
		e = e.with(srv)
		r := e.q(`{ articles { data { id } } }`, nil)
		eq(t, "anonymous", r.errCode(), "FORBIDDEN")
		d := e.ok(`mutation { register(input: {username: "grace", email: "Grace@Example.com", password: "secret123"}) { jwt user { id username email confirmed } } }`, nil)
		eq(t, "email lower-cased", str(d, "register", "user", "email"), "grace@example.com")
		r = e.q(`mutation { login(input: {identifier: "grace", password: "nope"}) { jwt } }`, nil)
		eq(t, "bad password", r.errCode(), "BAD_USER_INPUT")
		d = e.ok(`mutation { login(input: {identifier: "grace@example.com", password: "secret123"}) { jwt } }`, nil)
		h := []string{"Authorization", "Bearer " + str(d, "login", "jwt")}
		e.ok(`mutation { createArticle(data: {title: "By Grace"}) { data { id } } }`, nil, h...)
		d = e.ok(`{ articles { data { attributes { title } } } me { username role { type } } }`, nil, h...)
		eq(t, "authorised", str(d, "articles", "data", 0, "attributes", "title"), "By Grace")
		eq(t, "me", str(d, "me", "username"), "grace")
		eq(t, "me role", str(d, "me", "role", "type"), "authenticated")
		r = e.q(`{ tags { data { id } } }`, nil, "Authorization", "Bearer not.a.jwt")
		eq(t, "bad token", r.Status, 401)
		for i := 0; i < 12; i++ {
			r = e.q(`mutation { login(input: {identifier: "grace", password: "guess"}) { jwt } }`, nil)
		}
		eq(t, "rate limited", r.errCode(), "STRAPI_RATE_LIMIT_ERROR")
	})
}
