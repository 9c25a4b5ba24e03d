package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"encoding/hex"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/errs"
)

// API token types.
const (
	TokenReadOnly   = "read-only"
	TokenFullAccess = "full-access"
	TokenCustom     = "custom"
)

const day = 24 * time.Hour

// Lifespans are the allowed token lifespans in milliseconds (7, 30 and 90
// days); no lifespan means the token never expires.
var Lifespans = []int64{int64(7 * day / time.Millisecond), int64(30 * day / time.Millisecond), int64(90 * day / time.Millisecond)}

// lastUsedEvery bounds how often a token's lastUsedAt is written.
const lastUsedEvery = time.Hour

// TokenView is an API token as the admin API shows it. AccessKey, the
// token string, is only set when the token is created or regenerated.
type TokenView struct {
	ID int64 `json:"id"`
	// Kind is "content-api": Strapi 5.5x also has admin tokens, which
	// Stratum does not.
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Type        string   `json:"type"`
	LastUsedAt  *string  `json:"lastUsedAt"`
	ExpiresAt   *string  `json:"expiresAt"`
	Lifespan    *int64   `json:"lifespan"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
	Permissions []string `json:"permissions"`
	AccessKey   string   `json:"accessKey,omitempty"`
}

func tokenView(t *APIToken) *TokenView {
	p := t.Permissions
	if p == nil {
		p = []string{}
	}
	return &TokenView{ID: t.ID, Kind: "content-api", Name: t.Name, Description: t.Description, Type: t.Type,
		LastUsedAt: jsTimePtr(t.LastUsedAt), ExpiresAt: jsTimePtr(t.ExpiresAt), Lifespan: t.Lifespan,
		CreatedAt: jsTime(t.CreatedAt), UpdatedAt: jsTime(t.UpdatedAt), Permissions: p}
}

// TokenInput is the body of POST and PUT /admin/api-tokens.
type TokenInput struct {
	Name, Description, Type          string
	HasName, HasDescription, HasType bool
	Lifespan                         *int64
	Permissions                      []string
	HasPermissions                   bool
}

// ParseTokenInput reads {name, description, type, permissions, lifespan}
// strictly (lifespan only on create: it cannot be changed).
func ParseTokenInput(body map[string]any, create bool) (TokenInput, error) {
	var in TokenInput
	keys := []string{"name", "description", "type", "permissions"}
	if create {
		keys = append(keys, "lifespan")
	}
	if err := checkKeys(body, keys...); err != nil {
		return in, err
	}
	var err error
	if in.Name, in.HasName, err = str(body, "name", false); err != nil {
		return in, err
	}
	in.Name = strings.TrimSpace(in.Name)
	if (create || in.HasName) && in.Name == "" {
		return in, validationAt("name", nil, "name is a required field")
	}
	if in.Description, in.HasDescription, err = str(body, "description", true); err != nil {
		return in, err
	}
	if in.Type, in.HasType, err = str(body, "type", false); err != nil {
		return in, err
	}
	if in.HasType {
		if err := checkTokenType(in.Type); err != nil {
			return in, err
		}
	} else if create {
		in.Type = TokenReadOnly
	}
	if body["permissions"] != nil {
		if in.Permissions, in.HasPermissions, err = stringList(body, "permissions"); err != nil {
			return in, err
		}
		in.Permissions = dedupe(in.Permissions)
	}
	if v, ok := body["lifespan"]; ok && v != nil {
		n, isInt := integer(v)
		if !isInt || !validLifespan(n) {
			return in, validationAt("lifespan", v, "lifespan must be one of the following values: null, %d, %d, %d (7, 30 or 90 days in milliseconds)",
				Lifespans[0], Lifespans[1], Lifespans[2])
		}
		in.Lifespan = &n
	}
	return in, nil
}

func checkTokenType(t string) error {
	switch t {
	case TokenReadOnly, TokenFullAccess, TokenCustom:
		return nil
	}
	return validationAt("type", t, "type must be one of the following values: read-only, full-access, custom")
}

func validLifespan(n int64) bool {
	for _, l := range Lifespans {
		if n == l {
			return true
		}
	}
	return false
}

// checkTokenPermissions is Strapi's assertCustomTokenPermissionsValidity.
func (s *Service) checkTokenPermissions(typ string, perms []string, given bool) error {
	if typ != TokenCustom {
		if len(perms) > 0 {
			return errs.Errorf(errs.KindApplication, "Non-custom tokens should not reference permissions")
		}
		return nil
	}
	if !given {
		return errs.Errorf(errs.KindApplication, "Missing permissions attribute for custom token")
	}
	return s.checkActions(perms)
}

// newTokenString is 128 random bytes in hex: 256 characters.
func newTokenString() (string, error) {
	var b [128]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// hashToken is what is stored: HMAC-SHA512 of the token with API_TOKEN_SALT, in hex.
func (s *Service) hashToken(token string) string {
	m := hmac.New(sha512.New, s.secrets.APITokenSalt)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

func tokenNotFound() error { return errs.Errorf(errs.KindNotFound, "API Token not found") }

func nameTaken() error { return errs.Errorf(errs.KindApplication, "Name already taken") }

// CreateToken issues a token; the view carries the token string, shown
// only this once.
func (s *Service) CreateToken(ctx context.Context, in TokenInput) (*TokenView, error) {
	if in.Type == "" {
		in.Type = TokenReadOnly
	}
	if err := checkTokenType(in.Type); err != nil {
		return nil, err
	}
	if in.Lifespan != nil && !validLifespan(*in.Lifespan) {
		return nil, validationAt("lifespan", *in.Lifespan, "lifespan must be 7, 30 or 90 days in milliseconds")
	}
	if err := s.checkTokenPermissions(in.Type, in.Permissions, in.HasPermissions); err != nil {
		return nil, err
	}
	raw, err := newTokenString()
	if err != nil {
		return nil, err
	}
	now := s.now()
	t := &APIToken{Name: in.Name, Description: in.Description, Type: in.Type, AccessKey: s.hashToken(raw),
		Lifespan: in.Lifespan, Permissions: dedupe(in.Permissions), CreatedAt: now, UpdatedAt: now}
	if in.Type != TokenCustom {
		t.Permissions = []string{}
	}
	if in.Lifespan != nil {
		exp := now.Add(time.Duration(*in.Lifespan) * time.Millisecond)
		t.ExpiresAt = &exp
	}
	err = s.st.Tx(ctx, func(tx Tx) error {
		taken, err := tx.TokenNameTaken(ctx, t.Name, 0)
		if err != nil {
			return err
		}
		if taken {
			return nameTaken()
		}
		return tx.CreateToken(ctx, t)
	})
	if isUniqueViolation(err) {
		return nil, nameTaken()
	}
	if err != nil {
		return nil, err
	}
	v := tokenView(t)
	v.AccessKey = raw
	return v, nil
}

// ListTokens lists the tokens by name, without their strings.
func (s *Service) ListTokens(ctx context.Context) ([]*TokenView, error) {
	ts, err := s.st.Auth().Tokens(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*TokenView, len(ts))
	for i := range ts {
		out[i] = tokenView(&ts[i])
	}
	return out, nil
}

func (s *Service) getToken(ctx context.Context, tx Tx, id int64) (*APIToken, error) {
	t, err := tx.TokenByID(ctx, id)
	if err == nil && t == nil {
		err = tokenNotFound()
	}
	return t, err
}

// GetToken reads a token by id.
func (s *Service) GetToken(ctx context.Context, id int64) (*TokenView, error) {
	t, err := s.getToken(ctx, s.st.Auth(), id)
	if err != nil {
		return nil, err
	}
	return tokenView(t), nil
}

// UpdateToken changes a token's name, description, type and permissions;
// the token string and lifespan stay.
func (s *Service) UpdateToken(ctx context.Context, id int64, in TokenInput) (*TokenView, error) {
	var out *APIToken
	err := s.st.Tx(ctx, func(tx Tx) error {
		t, err := s.getToken(ctx, tx, id)
		if err != nil {
			return err
		}
		typ := t.Type
		if in.HasType {
			typ = in.Type
		}
		perms, given := in.Permissions, in.HasPermissions
		if !given && typ == TokenCustom && t.Type == TokenCustom {
			perms, given = t.Permissions, true
		}
		if err := s.checkTokenPermissions(typ, perms, given); err != nil {
			return err
		}
		if in.HasName && in.Name != t.Name {
			taken, err := tx.TokenNameTaken(ctx, in.Name, id)
			if err != nil {
				return err
			}
			if taken {
				return nameTaken()
			}
			t.Name = in.Name
		}
		if in.HasDescription {
			t.Description = in.Description
		}
		t.Type = typ
		t.Permissions = dedupe(perms)
		if typ != TokenCustom {
			t.Permissions = []string{}
		}
		t.UpdatedAt = s.now()
		out = t
		return tx.SaveToken(ctx, t)
	})
	if isUniqueViolation(err) {
		return nil, nameTaken()
	}
	if err != nil {
		return nil, err
	}
	return tokenView(out), nil
}

// DeleteToken revokes a token at once and returns what it was.
func (s *Service) DeleteToken(ctx context.Context, id int64) (*TokenView, error) {
	var out *APIToken
	err := s.st.Tx(ctx, func(tx Tx) error {
		t, err := s.getToken(ctx, tx, id)
		if err != nil {
			return err
		}
		out = t
		return tx.DeleteToken(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return tokenView(out), nil
}

// RegenerateToken gives a token a new string; the old one stops working at once.
func (s *Service) RegenerateToken(ctx context.Context, id int64) (*TokenView, error) {
	raw, err := newTokenString()
	if err != nil {
		return nil, err
	}
	var out *APIToken
	err = s.st.Tx(ctx, func(tx Tx) error {
		t, err := s.getToken(ctx, tx, id)
		if err != nil {
			return err
		}
		t.AccessKey, t.UpdatedAt = s.hashToken(raw), s.now()
		out = t
		return tx.SaveToken(ctx, t)
	})
	if err != nil {
		return nil, err
	}
	v := tokenView(out)
	v.AccessKey = raw
	return v, nil
}

// isTokenString reports whether s has the shape of a token: 256 lowercase
// hex characters. Anything else is refused without a lookup.
func isTokenString(s string) bool {
	if len(s) != 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// tokenPrincipal authenticates an API token. The token is looked up by its
// HMAC (so lookup timing says nothing about the token itself) and the
// digests are compared again in constant time.
func (s *Service) tokenPrincipal(ctx context.Context, raw string) (*Principal, error) {
	if !isTokenString(raw) {
		return nil, invalidCredentials()
	}
	digest := s.hashToken(raw)
	t, err := s.st.Auth().TokenByAccessKey(ctx, digest)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, invalidCredentials()
	}
	if !hmac.Equal([]byte(t.AccessKey), []byte(digest)) {
		return nil, invalidCredentials()
	}
	now := s.now()
	if t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) {
		return nil, &errs.Error{Kind: errs.KindUnauthorized, Message: "Token expired"}
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= lastUsedEvery {
		if err := s.st.Auth().TouchToken(ctx, t.ID, now); err != nil {
			s.log.Warn("update lastUsedAt", "token", t.ID, "err", err)
		}
	}
	p := &Principal{Kind: KindAPIToken, TokenID: t.ID}
	switch t.Type {
	case TokenFullAccess:
		p.scope = scopeFull
	case TokenReadOnly:
		p.scope = scopeReadOnly
	default:
		p.actions = make(map[string]bool, len(t.Permissions))
		for _, a := range t.Permissions {
			p.actions[a] = true
		}
	}
	return p, nil
}
