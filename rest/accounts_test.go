package rest_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/internal/testsmtp"
	"github.com/stratum-cms/stratum/mail"
)

// The account flows over HTTP, their mails delivered to a real SMTP
// server started by the test.

func withSMTP(srv *testsmtp.Server, o testenv.Options) testenv.Options {
	o.Tune = func(c *app.Config) {
		c.Email = mail.Config{Provider: "nodemailer"}
		c.Email.ProviderOptions.Host, c.Email.ProviderOptions.Port = srv.Host, srv.Port
		c.Email.ProviderOptions.Auth.User, c.Email.ProviderOptions.Auth.Pass = srv.User, srv.Pass
		c.Email.Settings.DefaultFrom = "Stratum <no-reply@example.com>"
		c.Email.Settings.DefaultReplyTo = "help@example.com"
	}
	return o
}

var (
	resetCodeRe   = regexp.MustCompile(`\?code=([0-9a-f]+)`)
	confirmCodeRe = regexp.MustCompile(`/api/auth/email-confirmation\?confirmation=([0-9a-f]+)`)
)

func TestForgotAndResetPassword(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		srv := testsmtp.Start(t)
		clock := newClock()
		o := withSMTP(srv, testenv.Options{})
		o.Auth.Now = clock.Now
		o.Auth.Advanced.EmailResetPassword = "https://front.example.com/reset"
		e := openBlog(t, db, o)
		oldJWT, _ := registerUser(t, e, "kai")

		// Unknown emails get the same answer and no mail.
		r := e.Do("POST", "/api/auth/forgot-password", map[string]any{"email": "nobody@example.com"})
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != `{"ok":true}` {
			t.Fatalf("unknown email: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/api/auth/forgot-password", map[string]any{"email": "not-an-email"})
		if r.Status != 400 { // not an email address: the validation error names the field
			t.Fatalf("invalid email: %d %s", r.Status, r.Body)
		}
		_, _ = registerUser(t, e, "mia")
		r = e.Do("POST", "/api/auth/forgot-password", map[string]any{"email": "MIA@example.com"})
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != `{"ok":true}` {
			t.Fatalf("forgot-password: %d %s", r.Status, r.Body)
		}
		m := srv.Wait(t, 1)
		if len(srv.Mails()) != 1 {
			t.Fatalf("mails: %d, want only mia's", len(srv.Mails()))
		}
		if m.Subject != "Reset password" || len(m.To) != 1 || m.To[0] != "mia@example.com" || m.From != "no-reply@example.com" ||
			m.Header.Get("Reply-To") != "<help@example.com>" {
			t.Fatalf("mail: subject %q to %v from %q reply-to %q", m.Subject, m.To, m.From, m.Header.Get("Reply-To"))
		}
		if !strings.Contains(m.HTML, "https://front.example.com/reset?code=") || !strings.Contains(m.Text, "https://front.example.com/reset?code=") {
			t.Fatalf("mail without the reset link:\n%s\n%s", m.HTML, m.Text)
		}
		code := resetCodeRe.FindStringSubmatch(m.Text)[1]
		// The table keeps a digest, not the code.
		u, err := e.Store.Auth().UserByEmail(t.Context(), "mia@example.com")
		if err != nil || u.ResetPasswordToken == nil || *u.ResetPasswordToken == code {
			t.Fatalf("stored reset token: %v %v", u, err)
		}

		miaJWT := loginJWT(t, e, "mia", "secret-mia")
		for _, c := range []struct {
			name string
			body map[string]any
			want int
			msg  string
		}{
			{"mismatch", map[string]any{"code": code, "password": "new-secret", "passwordConfirmation": "other"}, 400, "Passwords do not match"},
			{"missing", map[string]any{"code": code, "password": "new-secret"}, 400, "passwordConfirmation is a required field"},
			{"unknown key", map[string]any{"code": code, "password": "new-secret", "passwordConfirmation": "new-secret", "role": 1}, 400, "Invalid key role"},
			{"wrong code", map[string]any{"code": strings.Repeat("0", 80), "password": "new-secret", "passwordConfirmation": "new-secret"}, 400, "Incorrect code provided"},
			{"not hex", map[string]any{"code": "x' OR 1=1 --", "password": "new-secret", "passwordConfirmation": "new-secret"}, 400, "Incorrect code provided"},
			{"number", map[string]any{"code": 12, "password": "new-secret", "passwordConfirmation": "new-secret"}, 400, "code must be a `string` type"},
			{"short password", map[string]any{"code": code, "password": "abc", "passwordConfirmation": "abc"}, 400, "password must be at least 6 characters"},
		} {
			r := e.Do("POST", "/api/auth/reset-password", c.body)
			if r.Status != c.want || r.ErrorMessage() != c.msg {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		clock.Add(2 * time.Second) // a new second: earlier JWTs end at the reset
		r = e.Do("POST", "/api/auth/reset-password", map[string]any{"code": code, "password": "new-secret", "passwordConfirmation": "new-secret"})
		if r.Status != 200 || r.JSON["jwt"] == nil {
			t.Fatalf("reset-password: %d %s", r.Status, r.Body)
		}
		user, _ := r.JSON["user"].(map[string]any)
		if user["username"] != "mia" || user["password"] != nil || user["resetPasswordToken"] != nil {
			t.Fatalf("reset answer user: %v", user)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(r.JSON["jwt"].(string))...); r.Status != 200 {
			t.Fatalf("new JWT: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(miaJWT)...); r.Status != 401 {
			t.Fatalf("JWT from before the reset: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(oldJWT)...); r.Status != 200 {
			t.Fatalf("another user's JWT: %d %s", r.Status, r.Body)
		}
		loginJWT(t, e, "mia", "new-secret")
		// A code works once.
		r = e.Do("POST", "/api/auth/reset-password", map[string]any{"code": code, "password": "third-secret", "passwordConfirmation": "third-secret"})
		if r.Status != 400 || r.ErrorMessage() != "Incorrect code provided" {
			t.Fatalf("reused code: %d %s", r.Status, r.Body)
		}
		// And for an hour.
		e.Do("POST", "/api/auth/forgot-password", map[string]any{"email": "mia@example.com"})
		code = resetCodeRe.FindStringSubmatch(srv.Wait(t, 2).Text)[1]
		clock.Add(61 * time.Minute)
		r = e.Do("POST", "/api/auth/reset-password", map[string]any{"code": code, "password": "third-secret", "passwordConfirmation": "third-secret"})
		if r.Status != 400 || !strings.HasPrefix(r.ErrorMessage(), "Incorrect code provided") {
			t.Fatalf("expired code: %d %s", r.Status, r.Body)
		}
	})
}

func loginJWT(t *testing.T, e *testenv.Env, ident, pw string) string {
	t.Helper()
	r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": ident, "password": pw})
	if r.Status != 200 {
		t.Fatalf("login %s: %d %s", ident, r.Status, r.Body)
	}
	return r.JSON["jwt"].(string)
}

func TestChangePassword(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		clock := newClock()
		e := openBlog(t, db, testenv.Options{Auth: auth.Config{Now: clock.Now}})
		jwt, _ := registerUser(t, e, "kai")
		for _, c := range []struct {
			name    string
			body    map[string]any
			headers []string
			want    int
			msg     string
		}{
			{"public", map[string]any{"currentPassword": "secret-kai", "password": "n3w-secret", "passwordConfirmation": "n3w-secret"}, nil, 403, "Forbidden"},
			{"wrong current", map[string]any{"currentPassword": "nope-nope", "password": "n3w-secret", "passwordConfirmation": "n3w-secret"}, bearer(jwt), 400, "The provided current password is invalid"},
			{"same", map[string]any{"currentPassword": "secret-kai", "password": "secret-kai", "passwordConfirmation": "secret-kai"}, bearer(jwt), 400, "Your new password must be different than your current password"},
			{"mismatch", map[string]any{"currentPassword": "secret-kai", "password": "n3w-secret", "passwordConfirmation": "n3w-secreT"}, bearer(jwt), 400, "Passwords do not match"},
			{"unknown key", map[string]any{"currentPassword": "secret-kai", "password": "n3w-secret", "passwordConfirmation": "n3w-secret", "id": 1}, bearer(jwt), 400, "Invalid key id"},
		} {
			r := e.Do("POST", "/api/auth/change-password", c.body, c.headers...)
			if r.Status != c.want || r.ErrorMessage() != c.msg {
				t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
			}
		}
		clock.Add(2 * time.Second)
		r := e.Do("POST", "/api/auth/change-password", map[string]any{"currentPassword": "secret-kai", "password": "n3w-secret", "passwordConfirmation": "n3w-secret"}, bearer(jwt)...)
		if r.Status != 200 || r.JSON["jwt"] == nil {
			t.Fatalf("change-password: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(jwt)...); r.Status != 401 {
			t.Fatalf("JWT from before the change: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users/me", nil, bearer(r.JSON["jwt"].(string))...); r.Status != 200 {
			t.Fatalf("JWT of the change: %d %s", r.Status, r.Body)
		}
		loginJWT(t, e, "kai", "n3w-secret")
	})
}

func TestEmailConfirmation(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		srv := testsmtp.Start(t)
		o := withSMTP(srv, testenv.Options{})
		o.Auth.Advanced.EmailConfirmation = true
		o.Auth.Advanced.EmailConfirmationRedirection = "https://front.example.com/welcome"
		o.Auth.ServerURL = "https://api.example.com"
		e := openBlog(t, db, o)

		r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "kai", "email": "Kai@Example.com", "password": "secret-kai"})
		if r.Status != 200 || r.JSON["jwt"] != nil || r.JSON["user"] == nil {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		if u := r.JSON["user"].(map[string]any); u["confirmed"] != false {
			t.Fatalf("registered user: %v", u)
		}
		m := srv.Wait(t, 1)
		if m.Subject != "Account confirmation" || m.To[0] != "kai@example.com" {
			t.Fatalf("confirmation mail: %q %v", m.Subject, m.To)
		}
		if !strings.Contains(m.Text, "https://api.example.com/api/auth/email-confirmation?confirmation=") {
			t.Fatalf("confirmation link: %s", m.Text)
		}
		code := confirmCodeRe.FindStringSubmatch(m.Text)[1]

		r = e.Do("POST", "/api/auth/local", map[string]any{"identifier": "kai", "password": "secret-kai"})
		if r.Status != 400 || r.ErrorName() != "ApplicationError" || r.ErrorMessage() != "Your account email is not confirmed" {
			t.Fatalf("login before confirmation: %d %s", r.Status, r.Body)
		}
		// Asking again sends a new code; the first one stops working.
		r = e.Do("POST", "/api/auth/send-email-confirmation", map[string]any{"email": "kai@example.com"})
		if r.Status != 200 || r.JSON["email"] != "kai@example.com" || r.JSON["sent"] != true {
			t.Fatalf("send-email-confirmation: %d %s", r.Status, r.Body)
		}
		code2 := confirmCodeRe.FindStringSubmatch(srv.Wait(t, 2).Text)[1]
		if st, _ := confirm(t, e, code); st != 400 {
			t.Fatalf("replaced code: %d", st)
		}
		if st, loc := confirm(t, e, "nonsense"); st != 400 || loc != "" {
			t.Fatalf("bad code: %d %s", st, loc)
		}
		if st, _ := confirm(t, e, ""); st != 400 {
			t.Fatalf("no code: %d", st)
		}
		if st, loc := confirm(t, e, code2); st != 302 || loc != "https://front.example.com/welcome" {
			t.Fatalf("confirmation: %d %q", st, loc)
		}
		loginJWT(t, e, "kai", "secret-kai")
		r = e.Do("POST", "/api/auth/send-email-confirmation", map[string]any{"email": "kai@example.com"})
		if r.Status != 400 || r.ErrorMessage() != "Already confirmed" {
			t.Fatalf("confirmed again: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/api/auth/send-email-confirmation", map[string]any{"email": "ghost@example.com"})
		if r.Status != 200 || r.JSON["sent"] != true {
			t.Fatalf("unknown email: %d %s", r.Status, r.Body)
		}
		if n := len(srv.Mails()); n != 2 {
			t.Fatalf("mails: %d", n)
		}
	})
}

// confirm follows no redirect: the status and the Location.
func confirm(t *testing.T, e *testenv.Env, code string) (int, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(e.URL + "/api/auth/email-confirmation?confirmation=" + code)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location")
}

func TestRegisterDisabled(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openBlog(t, db, testenv.Options{Auth: auth.Config{Advanced: auth.Advanced{RegisterDisabled: true}}})
		r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "kai", "email": "kai@example.com", "password": "secret-kai"})
		if r.Status != 400 || r.ErrorMessage() != "Register action is currently disabled" {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
	})
}
