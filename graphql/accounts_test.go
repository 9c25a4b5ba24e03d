package graphql

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// fakeAccounts stands in for users-permissions: users in memory, a token
// per user, and an authenticator that gives users the "authenticated" role.
type fakeAccounts struct {
	mu     sync.Mutex
	users  map[string]*fakeUser // by token
	byName map[string]*fakeUser
	public []string
	authed []string
}

type fakeUser struct {
	user     User
	password string
	token    string
}

func newFakeAccounts() *fakeAccounts {
	return &fakeAccounts{users: map[string]*fakeUser{}, byName: map[string]*fakeUser{}}
}

func (f *fakeAccounts) Register(ctx context.Context, in RegisterInput) (*AuthPayload, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.byName[in.Email]; ok {
		return nil, errs.Errorf(errs.KindApplication, "Email or Username are already taken")
	}
	if len(in.Password) < 6 {
		return nil, errs.Errorf(errs.KindValidation, "password must be at least 6 characters")
	}
	u := &fakeUser{user: User{ID: "u" + string(rune('0'+len(f.users))), Username: in.Username, Email: in.Email, Confirmed: true,
		Role: &Role{ID: "1", Name: "Authenticated", Type: "authenticated"}}, password: in.Password, token: "tok-" + in.Username}
	f.users[u.token], f.byName[in.Email], f.byName[in.Username] = u, u, u
	return &AuthPayload{JWT: u.token, User: u.user}, nil
}

func (f *fakeAccounts) Login(ctx context.Context, in LoginInput) (*AuthPayload, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	u := f.byName[in.Identifier]
	if u == nil || u.password != in.Password {
		return nil, errs.Errorf(errs.KindValidation, "Invalid identifier or password")
	}
	return &AuthPayload{JWT: u.token, User: u.user}, nil
}

func (f *fakeAccounts) Me(ctx context.Context, p *auth.Principal) (*User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, u := range f.users {
		if HTTPRequest(ctx) != nil && HTTPRequest(ctx).Header.Get("Authorization") == "Bearer "+u.token {
			c := u.user
			return &c, nil
		}
	}
	return nil, nil
}

// Authenticate maps a known token to the authenticated role.
func (f *fakeAccounts) Authenticate(r *http.Request) (*auth.Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return auth.NewPrincipal("public", f.public), nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if u := f.users[strings.TrimPrefix(h, "Bearer ")]; u != nil {
		return auth.NewPrincipal("user", append([]string{MeAction}, f.authed...)), nil
	}
	return nil, &errs.Error{Kind: errs.KindUnauthorized, Message: "Missing or invalid credentials"}
}

// The account flows need the real users-permissions service: they are
// tested over the whole app (rest/accounts_graphql_test.go).
var errFakeFlow = errs.Errorf(errs.KindApplication, "not in the fake")

func (f *fakeAccounts) ForgotPassword(context.Context, string) error { return errFakeFlow }
func (f *fakeAccounts) ResetPassword(context.Context, string, string, string) (*AuthPayload, error) {
	return nil, errFakeFlow
}
func (f *fakeAccounts) ChangePassword(context.Context, *auth.Principal, string, string, string) (*AuthPayload, error) {
	return nil, errFakeFlow
}
func (f *fakeAccounts) EmailConfirmation(context.Context, string) (*AuthPayload, error) {
	return nil, errFakeFlow
}
