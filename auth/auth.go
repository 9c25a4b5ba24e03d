// Package auth turns a request into a principal with its permissions:
// users-permissions (users, roles, JWTs), API tokens issued by admins, admin
// users, the secrets they rest on and the rate limiter of the login
// endpoints. Service is the real Authenticator; StaticAuth serves a
// permissions file alone (tests and tools that need no database).
package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
)

// Kinds of principals.
const (
	KindPublic   = "public"
	KindUser     = "user"
	KindAPIToken = "api-token"
	KindAdmin    = "admin"
)

// Principal is who makes a request and what they may do. It implements
// engine.Access.
type Principal struct {
	// Kind is "public", "user" or "api-token".
	Kind string
	// UserID is the users-permissions user of a "user" principal.
	UserID int64
	// TokenID is the API token of an "api-token" principal.
	TokenID int64
	actions map[string]bool
	// scope widens actions for API tokens: full-access may do everything,
	// read-only every action that ends in find or findOne.
	scope tokenScope
}

type tokenScope int

const (
	scopeActions tokenScope = iota
	scopeFull
	scopeReadOnly
)

var _ engine.Access = (*Principal)(nil)

// Can reports whether the principal holds the action permission.
func (p *Principal) Can(action string) bool {
	if p == nil {
		return false
	}
	switch p.scope {
	case scopeFull:
		return true
	case scopeReadOnly:
		return strings.HasSuffix(action, ".find") || strings.HasSuffix(action, ".findOne")
	}
	return p.actions[action]
}

// NewPrincipal builds a principal with a set of actions.
func NewPrincipal(kind string, actions []string) *Principal {
	m := make(map[string]bool, len(actions))
	for _, a := range actions {
		m[a] = true
	}
	return &Principal{Kind: kind, actions: m}
}

// AdminPrincipal is an admin on the admin API's content manager and media
// library: every admin is a super admin, so it may do every action.
func AdminPrincipal() *Principal {
	return &Principal{Kind: KindAdmin, scope: scopeFull}
}

// Authenticator resolves the principal of a request. Bad, expired or unknown
// credentials are an UnauthorizedError, never a silent fall back to Public.
type Authenticator interface {
	Authenticate(r *http.Request) (*Principal, error)
}

// Permissions is the roles-as-code file config/permissions.json:
// {"public": ["api::article.article.find", ...], "authenticated": [...],
// "<custom role name>": [...]}.
type Permissions map[string][]string

// LoadPermissions reads config/permissions.json of a project; a missing
// file is an empty set (Service leaves the roles as the database has them;
// StaticAuth makes nothing public).
func LoadPermissions(dir string) (Permissions, error) {
	path := filepath.Join(dir, "config", "permissions.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Permissions{}, nil
	}
	if err != nil {
		return nil, err
	}
	var p Permissions
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("config/permissions.json: %w", err)
	}
	for role, actions := range p {
		for _, a := range actions {
			if !validAction(a) {
				return nil, fmt.Errorf("config/permissions.json: role %q: %q is not an action like api::article.article.find", role, a)
			}
		}
		sort.Strings(actions)
	}
	return p, nil
}

func validAction(a string) bool {
	rest, ok := strings.CutPrefix(a, "api::")
	if !ok {
		rest, ok = strings.CutPrefix(a, "plugin::")
	}
	return ok && strings.Count(rest, ".") == 2
}

// StaticAuth serves the Public role from a permissions file. Any credentials
// are unknown to it, so they are refused with 401.
type StaticAuth struct {
	public *Principal
}

// NewStaticAuth builds the authenticator of a permissions file.
func NewStaticAuth(p Permissions) *StaticAuth {
	return &StaticAuth{public: NewPrincipal("public", p["public"])}
}

// Authenticate returns the Public principal for anonymous requests.
func (s *StaticAuth) Authenticate(r *http.Request) (*Principal, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		return nil, &errs.Error{Kind: errs.KindUnauthorized, Message: "Missing or invalid credentials"}
	}
	return s.public, nil
}
