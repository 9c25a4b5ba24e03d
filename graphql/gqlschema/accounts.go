package gqlschema

import (
	"context"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// Accounts is what the users-permissions part of the schema needs from the
// auth package: `register`, `login` and `me`. With a nil Accounts these
// three fields are left out of the schema. Errors should be *errs.Error
// (a ValidationError becomes BAD_USER_INPUT, as in Strapi).
type Accounts interface {
	Register(ctx context.Context, in RegisterInput) (*AuthPayload, error)
	Login(ctx context.Context, in LoginInput) (*AuthPayload, error)
	// Me returns the user behind a principal, or nil when it is not a user
	// (public, API token).
	Me(ctx context.Context, p *auth.Principal) (*User, error)
	// The account flows, shared with REST's /api/auth/*.
	ForgotPassword(ctx context.Context, email string) error
	ResetPassword(ctx context.Context, code, password, confirmation string) (*AuthPayload, error)
	ChangePassword(ctx context.Context, p *auth.Principal, current, password, confirmation string) (*AuthPayload, error)
	EmailConfirmation(ctx context.Context, code string) (*AuthPayload, error)
}

// ChangePasswordAction is the permission changePassword needs, as REST's.
const ChangePasswordAction = "plugin::users-permissions.auth.changePassword"

// RegisterInput is UsersPermissionsRegisterInput.
type RegisterInput struct{ Username, Email, Password string }

// LoginInput is UsersPermissionsLoginInput.
type LoginInput struct{ Identifier, Password, Provider string }

// AuthPayload is UsersPermissionsLoginPayload.
type AuthPayload struct {
	JWT  string
	User User
}

// User is UsersPermissionsMe.
type User struct {
	ID        string
	Username  string
	Email     string
	Confirmed bool
	Blocked   bool
	Role      *Role
}

// Role is UsersPermissionsMeRole.
type Role struct {
	ID          string
	Name        string
	Description string
	Type        string
}

// MeAction is the permission `me` needs, as in Strapi.
const MeAction = "plugin::users-permissions.user.me"

func (b *builder) usersPermissions() {
	str := func(get func(any) any) *gql.Field {
		return &gql.Field{Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return get(p.Source), nil }}
	}
	nn := func(get func(any) any) *gql.Field {
		f := str(get)
		f.Type = gql.NewNonNull(gql.String)
		return f
	}
	role := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsMeRole", Fields: b.fields("UsersPermissionsMeRole", func() gql.Fields {
		return gql.Fields{
			"id":          &gql.Field{Type: gql.NewNonNull(gql.ID), Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*Role).ID, nil }},
			"name":        nn(func(s any) any { return s.(*Role).Name }),
			"description": str(func(s any) any { return nilIfEmpty(s.(*Role).Description) }),
			"type":        str(func(s any) any { return nilIfEmpty(s.(*Role).Type) }),
		}
	})})
	me := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsMe", Fields: b.fields("UsersPermissionsMe", func() gql.Fields {
		return gql.Fields{
			"id":        &gql.Field{Type: gql.NewNonNull(gql.ID), Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*User).ID, nil }},
			"username":  nn(func(s any) any { return s.(*User).Username }),
			"email":     str(func(s any) any { return nilIfEmpty(s.(*User).Email) }),
			"confirmed": &gql.Field{Type: gql.Boolean, Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*User).Confirmed, nil }},
			"blocked":   &gql.Field{Type: gql.Boolean, Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*User).Blocked, nil }},
			"role": &gql.Field{Type: role, Resolve: func(p gql.ResolveParams) (any, error) {
				if r := p.Source.(*User).Role; r != nil {
					return r, nil
				}
				return nil, nil
			}},
		}
	})})
	payload := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsLoginPayload", Fields: b.fields("UsersPermissionsLoginPayload", func() gql.Fields {
		return gql.Fields{
			"jwt":  str(func(s any) any { return nilIfEmpty(s.(*AuthPayload).JWT) }),
			"user": &gql.Field{Type: gql.NewNonNull(me), Resolve: func(p gql.ResolveParams) (any, error) { return &p.Source.(*AuthPayload).User, nil }},
		}
	})})
	loginIn := gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsLoginInput", Fields: gql.InputObjectConfigFieldMap{
		"identifier": {Type: gql.NewNonNull(gql.String)},
		"password":   {Type: gql.NewNonNull(gql.String)},
		// String! = "local" in Strapi; graphql-go v0.8 refuses a literal
		// input object that leaves out a non-null field with a default.
		"provider": {Type: gql.String, DefaultValue: "local"},
	}})
	registerIn := gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsRegisterInput", Fields: gql.InputObjectConfigFieldMap{
		"username": {Type: gql.NewNonNull(gql.String)},
		"email":    {Type: gql.NewNonNull(gql.String)},
		"password": {Type: gql.NewNonNull(gql.String)},
	}})
	passwordPayload := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsPasswordPayload", Fields: b.fields("UsersPermissionsPasswordPayload", func() gql.Fields {
		return gql.Fields{"ok": &gql.Field{Type: gql.NewNonNull(gql.Boolean), Resolve: func(gql.ResolveParams) (any, error) { return true, nil }}}
	})})
	for _, t := range []gql.Type{role, me, payload, passwordPayload, loginIn, registerIn} {
		b.upTypes[t.Name()] = t
	}
	acc := b.srv.accounts
	b.query["me"] = &gql.Field{Type: me, Resolve: func(p gql.ResolveParams) (any, error) {
		pr := Principal(p.Context)
		if !access(p.Context).Can(MeAction) {
			return nil, errs.Forbidden()
		}
		u, err := acc.Me(p.Context, pr)
		if err != nil || u == nil {
			return nil, err
		}
		return u, nil
	}}
	b.mut["login"] = &gql.Field{Type: gql.NewNonNull(payload), Args: gql.FieldConfigArgument{"input": {Type: gql.NewNonNull(loginIn)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			in, _ := p.Args["input"].(map[string]any)
			s := func(k string) string { v, _ := in[k].(string); return v }
			return acc.Login(p.Context, LoginInput{Identifier: s("identifier"), Password: s("password"), Provider: s("provider")})
		}}
	b.mut["register"] = &gql.Field{Type: gql.NewNonNull(payload), Args: gql.FieldConfigArgument{"input": {Type: gql.NewNonNull(registerIn)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			in, _ := p.Args["input"].(map[string]any)
			s := func(k string) string { v, _ := in[k].(string); return v }
			return acc.Register(p.Context, RegisterInput{Username: s("username"), Email: s("email"), Password: s("password")})
		}}
	nnStr := &gql.ArgumentConfig{Type: gql.NewNonNull(gql.String)}
	arg := func(p gql.ResolveParams, k string) string { v, _ := p.Args[k].(string); return v }
	b.mut["forgotPassword"] = &gql.Field{Type: passwordPayload, Args: gql.FieldConfigArgument{"email": nnStr},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := acc.ForgotPassword(p.Context, arg(p, "email")); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}}
	b.mut["resetPassword"] = &gql.Field{Type: payload, Args: gql.FieldConfigArgument{"password": nnStr, "passwordConfirmation": nnStr, "code": nnStr},
		Resolve: func(p gql.ResolveParams) (any, error) {
			return acc.ResetPassword(p.Context, arg(p, "code"), arg(p, "password"), arg(p, "passwordConfirmation"))
		}}
	b.mut["changePassword"] = &gql.Field{Type: payload, Args: gql.FieldConfigArgument{"currentPassword": nnStr, "password": nnStr, "passwordConfirmation": nnStr},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if !access(p.Context).Can(ChangePasswordAction) {
				return nil, errs.Forbidden()
			}
			return acc.ChangePassword(p.Context, Principal(p.Context), arg(p, "currentPassword"), arg(p, "password"), arg(p, "passwordConfirmation"))
		}}
	b.mut["emailConfirmation"] = &gql.Field{Type: payload, Args: gql.FieldConfigArgument{"confirmation": nnStr},
		Resolve: func(p gql.ResolveParams) (any, error) {
			return acc.EmailConfirmation(p.Context, arg(p, "confirmation"))
		}}
	if up, ok := acc.(upAccounts); ok {
		b.usersPermissionsCollections(up.svc)
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
