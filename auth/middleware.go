package auth

import (
	"net/http"
	"strings"

	"github.com/stratum-cms/stratum/errs"
)

// bearer reads `Authorization: Bearer <token>`: the scheme is
// case-insensitive and the header has exactly two parts.
func bearer(h string) (string, bool) {
	parts := strings.Fields(h)
	if len(parts) != 2 || !strings.EqualFold(parts[0], "bearer") {
		return "", false
	}
	return parts[1], true
}

// looksLikeJWT tells a compact JWS (three dot-separated parts) from an
// API token (hex, no dots).
func looksLikeJWT(t string) bool { return strings.Count(t, ".") == 2 }

// Authenticate resolves the principal of a content-API request:
//   - no Authorization header: the Public role;
//   - a users' JWT: the user with their role's permissions; a blocked or
//     deleted user is a 401 "Invalid credentials";
//   - an API token: its type's scope; an expired one is a 401 "Token expired";
//   - anything else (malformed, tampered, expired or foreign JWT, unknown
//     token, an admin JWT) is a 401, never a fall back to Public.
func (s *Service) Authenticate(r *http.Request) (*Principal, error) {
	ctx := r.Context()
	h := r.Header.Get("Authorization")
	if h == "" {
		rs, err := s.roleSet(ctx)
		if err != nil {
			return nil, err
		}
		return rs.public, nil
	}
	tok, ok := bearer(h)
	if !ok {
		return nil, invalidCredentials()
	}
	if !looksLikeJWT(tok) {
		return s.tokenPrincipal(ctx, tok)
	}
	id, issued, err := s.parseIssued(tok, s.secrets.JWT, false)
	if err != nil {
		return nil, invalidCredentials()
	}
	u, err := s.userByID(ctx, id)
	if err != nil {
		return nil, err
	}
	// A token issued before the password changed (or the user was
	// blocked) is over, also once the user is unblocked.
	if u == nil || u.Blocked || issued.Unix() < u.TokensValidAfter {
		return nil, &errs.Error{Kind: errs.KindUnauthorized, Message: "Invalid credentials"}
	}
	rs, err := s.roleSet(ctx)
	if err != nil {
		return nil, err
	}
	p := &Principal{Kind: KindUser, UserID: u.ID}
	if u.RoleID != nil {
		p.actions = rs.perms[*u.RoleID]
	}
	return p, nil
}

// Admin is the admin user of an admin-API request.
type Admin struct {
	ID    int64
	Email string
}

// AuthenticateAdmin resolves the admin of an admin-API request: only an
// admin JWT of an active admin is accepted; users' JWTs and API tokens
// are 401s.
func (s *Service) AuthenticateAdmin(r *http.Request) (*Admin, error) {
	tok, ok := bearer(r.Header.Get("Authorization"))
	if !ok || !looksLikeJWT(tok) {
		return nil, invalidCredentials()
	}
	id, err := s.ParseAdminJWT(tok)
	if err != nil {
		return nil, invalidCredentials()
	}
	a, err := s.adminByID(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if a == nil || !a.IsActive || a.Blocked {
		return nil, &errs.Error{Kind: errs.KindUnauthorized, Message: "Invalid credentials"}
	}
	return &Admin{ID: a.ID, Email: a.Email}, nil
}
