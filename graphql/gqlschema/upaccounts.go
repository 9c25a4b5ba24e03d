package gqlschema

import (
	"context"
	"strconv"

	"github.com/stratum-cms/stratum/auth"
)

// UsersPermissions adapts the auth service to Accounts: register, login and
// me answer with the service's users and JWTs, and its errors (Strapi's
// ValidationError and ApplicationError) pass through.
func UsersPermissions(svc *auth.Service) Accounts { return upAccounts{svc: svc} }

type upAccounts struct{ svc *auth.Service }

// limit counts an attempt with the auth service's limiter, under the same
// keys as REST (/api/auth/local, /api/auth/local/register), so the two
// APIs share one count per identifier and client.
func (a upAccounts) limit(ctx context.Context, id, op string) error {
	trust := false
	if rq := reqFrom(ctx); rq != nil {
		trust = rq.srv.cfg.TrustProxy
	}
	action := "/api/auth/local"
	switch op {
	case "register":
		action += "/register"
	case "forgot-password", "reset-password", "change-password":
		action = "/api/auth/" + op
	}
	return a.svc.LoginAttempt(HTTPRequest(ctx), trust, id, action)
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

func (a upAccounts) ForgotPassword(ctx context.Context, email string) error {
	if err := a.limit(ctx, email, "forgot-password"); err != nil {
		return err
	}
	return a.svc.ForgotPassword(ctx, map[string]any{"email": email})
}

func (a upAccounts) ResetPassword(ctx context.Context, code, password, confirmation string) (*AuthPayload, error) {
	if err := a.limit(ctx, "", "reset-password"); err != nil {
		return nil, err
	}
	return payloadOf(a.svc.ResetPassword(ctx, map[string]any{"code": code, "password": password, "passwordConfirmation": confirmation}))
}

func (a upAccounts) ChangePassword(ctx context.Context, p *auth.Principal, current, password, confirmation string) (*AuthPayload, error) {
	if err := a.limit(ctx, "", "change-password"); err != nil {
		return nil, err
	}
	return payloadOf(a.svc.ChangePassword(ctx, p, map[string]any{"currentPassword": current, "password": password, "passwordConfirmation": confirmation}))
}

func (a upAccounts) EmailConfirmation(ctx context.Context, code string) (*AuthPayload, error) {
	return payloadOf(a.svc.ConfirmEmailSession(ctx, code))
}

func payloadOf(s *auth.Session, err error) (*AuthPayload, error) {
	if err != nil {
		return nil, err
	}
	return &AuthPayload{JWT: s.JWT, User: userOf(s.User)}, nil
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
