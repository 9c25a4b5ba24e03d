package rest_test

import (
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/internal/testsmtp"
)

// The GraphQL account mutations run the same flows as REST, on the whole app.
func TestGraphQLAccountFlows(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		srv := testsmtp.Start(t)
		clock := newClock()
		o := withSMTP(srv, testenv.Options{})
		o.Auth.Now = clock.Now
		o.Auth.Advanced.EmailResetPassword = "https://front.example.com/reset"
		e := openBlog(t, db, o)
		jwt, _ := registerUser(t, e, "kai")
		gql := func(query string, vars map[string]any, headers ...string) *testenv.Response {
			t.Helper()
			return e.Do("POST", "/graphql", map[string]any{"query": query, "variables": vars}, headers...)
		}
		errMsg := func(r *testenv.Response) string {
			errs, _ := r.JSON["errors"].([]any)
			if len(errs) == 0 {
				return ""
			}
			m, _ := errs[0].(map[string]any)["message"].(string)
			return m
		}

		r := gql(`mutation($e: String!) { forgotPassword(email: $e) { ok } }`, map[string]any{"e": "kai@example.com"})
		if r.Status != 200 || !strings.Contains(string(r.Body), `"forgotPassword":{"ok":true}`) {
			t.Fatalf("forgotPassword: %d %s", r.Status, r.Body)
		}
		code := resetCodeRe.FindStringSubmatch(srv.Wait(t, 1).Text)[1]
		r = gql(`mutation($c: String!) { resetPassword(code: $c, password: "n3w-secret", passwordConfirmation: "other") { jwt } }`, map[string]any{"c": code})
		if errMsg(r) != "Passwords do not match" {
			t.Fatalf("mismatch: %s", r.Body)
		}
		clock.Add(2e9)
		r = gql(`mutation($c: String!) { resetPassword(code: $c, password: "n3w-secret", passwordConfirmation: "n3w-secret") { jwt user { username } } }`, map[string]any{"c": code})
		data, _ := r.JSON["data"].(map[string]any)
		reset, _ := data["resetPassword"].(map[string]any)
		if reset == nil || reset["jwt"] == nil || reset["user"].(map[string]any)["username"] != "kai" {
			t.Fatalf("resetPassword: %s", r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(jwt)...); r.Status != 401 {
			t.Fatalf("JWT from before the reset: %d", r.Status)
		}
		newJWT := reset["jwt"].(string)

		const change = `mutation { changePassword(currentPassword: "n3w-secret", password: "third-secret", passwordConfirmation: "third-secret") { jwt } }`
		if r := gql(change, nil); errMsg(r) != "Forbidden access" {
			t.Fatalf("changePassword as public: %s", r.Body)
		}
		clock.Add(2e9)
		r = gql(change, nil, bearer(newJWT)...)
		if !strings.Contains(string(r.Body), `"changePassword":{"jwt":"`) {
			t.Fatalf("changePassword: %s", r.Body)
		}
		loginJWT(t, e, "kai", "third-secret")

		r = gql(`mutation { emailConfirmation(confirmation: "nope") { jwt } }`, nil)
		if errMsg(r) != "Invalid token" {
			t.Fatalf("emailConfirmation: %s", r.Body)
		}
	})
}
