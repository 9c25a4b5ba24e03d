package graphql

import (
	"context"
	"net"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
)

// UsersPermissions adapts the auth service to Accounts: register, login and
// me answer with the service's users and JWTs, and its errors (Strapi's
// ValidationError and ApplicationError) pass through.
func UsersPermissions(svc *auth.Service) Accounts { return upAccounts{svc: svc} }

type upAccounts struct{ svc *auth.Service }

// clientIP is the caller's address: the first X-Forwarded-For entry when
// the server trusts its proxy, else the connection's.
func clientIP(ctx context.Context) string {
	r := HTTPRequest(ctx)
	if r == nil {
		return ""
	}
	if rq := reqFrom(ctx); rq != nil && rq.srv.cfg.TrustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			return strings.TrimSpace(first)
		}
	}
	ip, _, _ := net.SplitHostPort(r.RemoteAddr)
	return ip
}

// limit applies the auth service's rate limiter, as REST does on
// /api/auth/local: per identifier, operation and client address.
func (a upAccounts) limit(ctx context.Context, id, op string) error {
	if id == "" {
		id = "unknownIdentifier"
	}
	ip := clientIP(ctx)
	if l := a.svc.Limiter(); l != nil && !l.Allow(strings.ToLower(id)+":graphql."+op+":"+ip) {
		return &engine.Error{Kind: engine.KindRateLimit, Message: "Too many requests, please try again later."}
	}
	return nil
}

func (a upAccounts) Register(ctx context.Context, in RegisterInput) (*AuthPayload, error) {
	if err := a.limit(ctx, in.Email, "register"); err != nil {
		return nil, err
	}
	s, err := a.svc.Register(ctx, map[string]any{"username": in.Username, "email": in.Email, "password": in.Password})
	if err != nil {
		return nil, err
	}
	return &AuthPayload{JWT: s.JWT, User: userOf(s.User)}, nil
}

func (a upAccounts) Login(ctx context.Context, in LoginInput) (*AuthPayload, error) {
	if err := a.limit(ctx, in.Identifier, "login"); err != nil {
		return nil, err
	}
	body := map[string]any{"identifier": in.Identifier, "password": in.Password}
	s, err := a.svc.Login(ctx, body)
	if err != nil {
		return nil, err
	}
	return &AuthPayload{JWT: s.JWT, User: userOf(s.User)}, nil
}

func (a upAccounts) Me(ctx context.Context, p *auth.Principal) (*User, error) {
	v, err := a.svc.Me(ctx, p)
	if err != nil || v == nil {
		return nil, err
	}
	u := userOf(v)
	return &u, nil
}

func userOf(v *auth.UserView) User {
	if v == nil {
		return User{}
	}
	u := User{ID: strconv.FormatInt(v.ID, 10), Username: v.Username, Email: v.Email, Confirmed: v.Confirmed, Blocked: v.Blocked}
	if v.Role != nil {
		u.Role = &Role{ID: strconv.FormatInt(v.Role.ID, 10), Name: v.Role.Name, Description: v.Role.Description, Type: v.Role.Type}
	}
	return u
}
