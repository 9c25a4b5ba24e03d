package auth

import (
	"context"
	"sort"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
	"github.com/stratum-cms/stratum/query"
)

// UserView is a user as the API shows it: password, resetPasswordToken and
// confirmationToken are never part of it; role only when populated.
type UserView struct {
	ID          int64        `json:"id"`
	DocumentID  string       `json:"documentId"`
	Username    string       `json:"username"`
	Email       string       `json:"email"`
	Provider    string       `json:"provider"`
	Confirmed   bool         `json:"confirmed"`
	Blocked     bool         `json:"blocked"`
	CreatedAt   string       `json:"createdAt"`
	UpdatedAt   string       `json:"updatedAt"`
	PublishedAt *string      `json:"publishedAt"`
	Role        *RoleSummary `json:"role,omitempty"`
	// Ext holds the extension's scalars, Populated its populated
	// attributes, as JSON object members (MarshalJSON places them).
	Ext       []byte `json:"-"`
	Populated []byte `json:"-"`
}

func userView(u *User, role *Role) *UserView {
	v := &UserView{ID: u.ID, DocumentID: u.DocumentID, Username: u.Username, Email: u.Email, Provider: u.Provider,
		Confirmed: u.Confirmed, Blocked: u.Blocked, CreatedAt: jsTime(u.CreatedAt), UpdatedAt: jsTime(u.UpdatedAt),
		PublishedAt: jsTimePtr(u.PublishedAt), Ext: extensionFields(u.Data)}
	if role != nil {
		rs := roleSummary(role)
		v.Role = &rs
	}
	return v
}

// Session is the answer of login and register: {jwt, user}.
type Session struct {
	JWT  string    `json:"jwt,omitempty"` // none while the email awaits confirmation
	User *UserView `json:"user"`
}

func userNotFound() error { return errs.Errorf(errs.KindNotFound, "User not found") }

// --- login and register -------------------------------------------------

// Login checks {identifier, password}: identifier is the email
// (case-insensitive) or the username. A wrong password and an unknown user
// get the same answer, in the same time.
func (s *Service) Login(ctx context.Context, body map[string]any) (*Session, error) {
	var fe errs.FieldErrors
	ident, _, err := str(body, "identifier", false)
	if err != nil {
		return nil, err
	}
	pw, _, err := str(body, "password", false)
	if err != nil {
		return nil, err
	}
	if ident == "" {
		fe.Add([]string{"identifier"}, nil, "identifier is a required field")
	}
	if pw == "" {
		fe.Add([]string{"password"}, nil, "password is a required field")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	found, err := s.st.Auth().LocalUser(ctx, strings.ToLower(ident), ident)
	if err != nil {
		return nil, err
	}
	var u User
	if found != nil {
		u = *found
	}
	if !checkPassword(u.Password, pw) { // an unknown user has no hash: same work, same answer
		return nil, errs.Errorf(errs.KindValidation, "Invalid identifier or password")
	}
	if s.cfg.Advanced.EmailConfirmation && !u.Confirmed {
		return nil, errs.Errorf(errs.KindApplication, "Your account email is not confirmed")
	}
	if u.Blocked {
		return nil, errs.Errorf(errs.KindApplication, "Your account has been blocked by an administrator")
	}
	return s.session(&u)
}

// Register creates a user with the Authenticated role from {username,
// email, password} and logs them in.
func (s *Service) Register(ctx context.Context, body map[string]any) (*Session, error) {
	if s.cfg.Advanced.RegisterDisabled {
		return nil, errs.Errorf(errs.KindApplication, "Register action is currently disabled")
	}
	allowed := s.extensionKeys(s.cfg.RegisterAllowedFields)
	if allowed == nil {
		allowed = map[string]bool{}
	}
	var unknown []string
	for k := range body {
		if k != "username" && k != "email" && k != "password" && !allowed[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, errs.Errorf(errs.KindValidation, "Invalid parameters: %s", strings.Join(unknown, ", "))
	}
	in, err := parseUserInput(body, true, allowed)
	if err != nil {
		return nil, err
	}
	in.Confirmed, in.HasConfirmed = !s.cfg.Advanced.EmailConfirmation, true
	u, err := s.createUser(ctx, in, true)
	if err != nil {
		return nil, err
	}
	if s.cfg.Advanced.EmailConfirmation {
		// As Strapi: the user must confirm first, so no JWT yet.
		if err := s.sendConfirmation(ctx, u); err != nil {
			return nil, err
		}
		return &Session{User: userView(u, nil)}, nil
	}
	return s.session(u)
}

// --- the users collection -------------------------------------------------

// userInput is a create or update body of /api/users.
type userInput struct {
	Username, Email, Password          string
	HasUsername, HasEmail, HasPassword bool
	Confirmed, Blocked                 bool
	HasConfirmed, HasBlocked           bool
	RoleID                             int64
	HasRole                            bool
	// Ext holds the values of the extension's attributes; extData and
	// extExtra are their checked columns on update.
	Ext               map[string]any
	extData, extExtra []byte
	hasExt            bool
}

// parseUserInput reads the built-in fields of a body; the keys in ext
// (attributes of the users-permissions extension) go to in.Ext, for the
// engine to check.
func parseUserInput(body map[string]any, create bool, ext map[string]bool) (userInput, error) {
	var in userInput
	base := map[string]any{}
	for k, v := range body {
		if ext[k] {
			if in.Ext == nil {
				in.Ext = map[string]any{}
			}
			in.Ext[k] = v
			continue
		}
		base[k] = v
	}
	body = base
	if err := checkKeys(body, "username", "email", "password", "role", "confirmed", "blocked"); err != nil {
		return in, err
	}
	var err error
	if in.Username, in.HasUsername, err = str(body, "username", false); err != nil {
		return in, err
	}
	if in.Email, in.HasEmail, err = str(body, "email", false); err != nil {
		return in, err
	}
	if in.Password, in.HasPassword, err = str(body, "password", false); err != nil {
		return in, err
	}
	var fe errs.FieldErrors
	for _, f := range []struct {
		name string
		has  bool
	}{{"username", in.HasUsername}, {"email", in.HasEmail}, {"password", in.HasPassword}} {
		if create && !f.has {
			fe.Add([]string{f.name}, nil, "%s is a required field", f.name)
		}
	}
	if err := fe.Err(); err != nil {
		return in, err
	}
	in.Username = strings.TrimSpace(in.Username)
	in.Email = strings.ToLower(strings.TrimSpace(in.Email))
	if in.HasUsername && len([]rune(in.Username)) < 3 {
		return in, validationAt("username", in.Username, "username must be at least 3 characters")
	}
	if in.HasEmail {
		if err := checkEmail("email", in.Email); err != nil {
			return in, err
		}
	}
	if in.HasPassword {
		if err := checkUserPassword(in.Password); err != nil {
			return in, err
		}
	}
	if in.Confirmed, in.HasConfirmed, err = boolean(body, "confirmed"); err != nil {
		return in, err
	}
	if in.Blocked, in.HasBlocked, err = boolean(body, "blocked"); err != nil {
		return in, err
	}
	if v, ok := body["role"]; ok && v != nil {
		if m, isObj := v.(map[string]any); isObj {
			v = m["id"]
		}
		n, isInt := integer(v)
		if !isInt || n < 1 {
			return in, validationAt("role", v, "role must be the id of a role")
		}
		in.RoleID, in.HasRole = n, true
	}
	return in, nil
}

// createUser inserts a user; register reports a taken email or username
// with Strapi's one message, the users API with the field's.
func (s *Service) createUser(ctx context.Context, in userInput, register bool) (*User, error) {
	hash, err := hashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	now := s.now()
	u := &User{DocumentID: ids.NewDocumentID(), Username: in.Username, Email: in.Email, Provider: "local",
		Password: hash, Confirmed: in.Confirmed, Blocked: in.Blocked, CreatedAt: now, UpdatedAt: now, PublishedAt: &now}
	// The extension's values are checked (and inverse relations written)
	// before the user is: a refused value leaves no user behind.
	if err := s.prepareExtension(ctx, u, in.Ext, true); err != nil {
		return nil, err
	}
	taken := func(field string) error {
		if register {
			return errs.Errorf(errs.KindApplication, "Email or Username are already taken")
		}
		return errs.Errorf(errs.KindApplication, "%s already taken", field)
	}
	err = s.st.Tx(ctx, func(tx Tx) error {
		roleID, err := s.pickRole(ctx, tx, in)
		if err != nil {
			return err
		}
		u.RoleID = &roleID
		if field, err := s.conflict(ctx, tx, u.Username, u.Email, 0); err != nil || field != "" {
			if err == nil {
				err = taken(field)
			}
			return err
		}
		return tx.CreateUser(ctx, u)
	})
	if isUniqueViolation(err) {
		return nil, taken("Email or Username")
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// pickRole is the role of the body, or the Authenticated role.
func (s *Service) pickRole(ctx context.Context, tx Tx, in userInput) (int64, error) {
	var r *Role
	var err error
	if in.HasRole {
		r, err = tx.RoleByID(ctx, in.RoleID)
	} else {
		r, err = tx.RoleByType(ctx, s.cfg.Advanced.DefaultRole)
	}
	switch {
	case err != nil:
		return 0, err
	case r == nil && in.HasRole:
		return 0, validationAt("role", in.RoleID, "Role with id %d not found", in.RoleID)
	case r == nil:
		return 0, errs.Errorf(errs.KindApplication, "Impossible to find the default role")
	}
	return r.ID, nil
}

// conflict names the field another user already holds ("Email" or "Username").
func (s *Service) conflict(ctx context.Context, tx Tx, username, email string, exceptID int64) (string, error) {
	others, err := tx.UserConflicts(ctx, username, email, exceptID)
	if err != nil {
		return "", err
	}
	for _, o := range others {
		if o.Email == email {
			return "Email", nil
		}
	}
	if len(others) > 0 {
		return "Username", nil
	}
	return "", nil
}

// CreateUser is POST /api/users: the created user with its role.
func (s *Service) CreateUser(ctx context.Context, body map[string]any) (*UserView, error) {
	in, err := parseUserInput(body, true, s.extensionKeys(nil))
	if err != nil {
		return nil, err
	}
	u, err := s.createUser(ctx, in, false)
	if err != nil {
		return nil, err
	}
	return s.viewWithRole(ctx, u)
}

func (s *Service) viewWithRole(ctx context.Context, u *User) (*UserView, error) {
	var role *Role
	if u.RoleID != nil {
		var err error
		if role, err = s.st.Auth().RoleByID(ctx, *u.RoleID); err != nil {
			return nil, err
		}
	}
	return userView(u, role), nil
}

// SelfUpdate refuses what users may not change of their own account
// through /api/users/:id, whatever their role's permissions: their role,
// whether they are blocked, whether they are confirmed.
func SelfUpdate(p *Principal, id int64, body map[string]any) error {
	if p == nil || p.Kind != KindUser || p.UserID != id {
		return nil
	}
	for _, k := range []string{"role", "blocked", "confirmed"} {
		if _, ok := body[k]; ok {
			return errs.InvalidKey(k, k, "body", "data")
		}
	}
	return nil
}

// UpdateUser is PUT /api/users/:id: a partial update. A new password or a
// block ends the user's JWTs issued before it.
func (s *Service) UpdateUser(ctx context.Context, id int64, body map[string]any) (*UserView, error) {
	in, err := parseUserInput(body, false, s.extensionKeys(nil))
	if err != nil {
		return nil, err
	}
	if len(in.Ext) > 0 {
		// Checked over the stored values first, outside auth's
		// transaction (the engine writes inverse relations in its own).
		cur, err := s.st.Auth().UserByID(ctx, id)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, userNotFound()
		}
		if err := s.prepareExtension(ctx, cur, in.Ext, false); err != nil {
			return nil, err
		}
		in.extData, in.extExtra, in.hasExt = cur.Data, cur.Extra, true
	}
	var u *User
	err = s.st.Tx(ctx, func(tx Tx) error {
		var err error
		if u, err = tx.UserByID(ctx, id); err != nil {
			return err
		}
		if u == nil {
			return userNotFound()
		}
		if in.HasUsername {
			u.Username = in.Username
		}
		if in.HasEmail {
			u.Email = in.Email
		}
		if in.HasUsername || in.HasEmail {
			field, err := s.conflict(ctx, tx, u.Username, u.Email, u.ID)
			if err != nil {
				return err
			}
			if field != "" {
				return errs.Errorf(errs.KindApplication, "%s already taken", field)
			}
		}
		if in.HasPassword {
			h, err := hashPassword(in.Password)
			if err != nil {
				return err
			}
			u.Password = h
		}
		if in.HasConfirmed {
			u.Confirmed = in.Confirmed
		}
		if in.HasBlocked {
			u.Blocked = in.Blocked
		}
		if in.hasExt {
			u.Data, u.Extra = in.extData, in.extExtra
		}
		if in.HasRole {
			rid, err := s.pickRole(ctx, tx, in)
			if err != nil {
				return err
			}
			u.RoleID = &rid
		}
		now := s.now()
		u.UpdatedAt, u.PublishedAt = now, &now
		if in.HasPassword || (in.HasBlocked && in.Blocked) {
			// Every JWT issued before this second stops working (iat has
			// whole seconds: one issued earlier in this same second
			// still passes); the next login's works.
			u.TokensValidAfter = now.Unix()
		}
		return tx.SaveUser(ctx, u)
	})
	if isUniqueViolation(err) {
		return nil, errs.Errorf(errs.KindApplication, "Email or Username already taken")
	}
	if err != nil {
		return nil, err
	}
	return s.viewWithRole(ctx, u)
}

// DeleteUser is DELETE /api/users/:id: the deleted user.
func (s *Service) DeleteUser(ctx context.Context, id int64) (*UserView, error) {
	var u *User
	err := s.st.Tx(ctx, func(tx Tx) error {
		var err error
		if u, err = tx.UserByID(ctx, id); err != nil {
			return err
		}
		if u == nil {
			return userNotFound()
		}
		return tx.DeleteUser(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return userView(u, nil), nil
}

// GetUser reads one user for GET /api/users/:id and /api/users/me, with
// the query's fields and populate (the role, the extension's relations,
// media and components, read with acc's permissions); nil when there is
// none.
func (s *Service) GetUser(ctx context.Context, acc engine.Access, id int64, q *query.Query) (any, error) {
	shape, err := userShapeOf(q, s.userType())
	if err != nil {
		return nil, err
	}
	u, err := s.st.Auth().UserByID(ctx, id)
	if err != nil || u == nil {
		return nil, err
	}
	row := UserWithRole{User: *u}
	if shape.populateRole && u.RoleID != nil {
		if row.Role, err = s.st.Auth().RoleByID(ctx, *u.RoleID); err != nil {
			return nil, err
		}
	}
	pop, err := s.populated(ctx, acc, []*User{u}, shape)
	if err != nil {
		return nil, err
	}
	return shape.view(&row, pop[0]), nil
}

// ListUsers is GET /api/users: a plain list with filters, sort,
// pagination, fields and populate.
func (s *Service) ListUsers(ctx context.Context, acc engine.Access, q *query.Query) ([]any, error) {
	shape, err := userShapeOf(q, s.userType())
	if err != nil {
		return nil, err
	}
	if err := s.resolveExtension(acc, q); err != nil {
		return nil, err
	}
	users, err := s.st.Auth().FindUsers(ctx, q, shape.populateRole)
	if err != nil {
		return nil, err
	}
	list := make([]*User, len(users))
	for i := range users {
		list[i] = &users[i].User
	}
	pop, err := s.populated(ctx, acc, list, shape)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(users))
	for i := range users {
		out[i] = shape.view(&users[i], pop[i])
	}
	return out, nil
}

// CountUsers is GET /api/users/count.
func (s *Service) CountUsers(ctx context.Context, acc engine.Access, q *query.Query) (int64, error) {
	if err := s.resolveExtension(acc, q); err != nil {
		return 0, err
	}
	return s.st.Auth().CountUsers(ctx, q.Filter)
}

// resolveExtension has the engine resolve the filters and sorts on the
// extension's attributes (the built-in ones are compiled on auth's columns).
func (s *Service) resolveExtension(acc engine.Access, q *query.Query) error {
	ct := s.userType()
	if ct == nil || q == nil {
		return nil
	}
	return s.cfg.Extension.ResolveExtensionQuery(acc, ct, q)
}

// populated is, per user, the JSON members of the extension attributes the
// shape populates (nil each when none).
func (s *Service) populated(ctx context.Context, acc engine.Access, users []*User, shape *userShape) ([][]byte, error) {
	if len(shape.populate) == 0 || s.userType() == nil {
		return make([][]byte, len(users)), nil
	}
	rows := make([]engine.Row, len(users))
	for i, u := range users {
		rows[i] = engine.Row{ID: u.ID, DocumentID: u.DocumentID, Data: u.Data, Extra: u.Extra}
	}
	return s.cfg.Extension.PopulateExtension(ctx, acc, s.userType(), rows, shape.populate)
}

// userByID loads a user for authentication.
func (s *Service) userByID(ctx context.Context, id int64) (*User, error) {
	return s.st.Auth().UserByID(ctx, id)
}

// Me is the user behind a principal with their role, or nil when the
// principal is not a user (public, API token) or the user is gone.
func (s *Service) Me(ctx context.Context, p *Principal) (*UserView, error) {
	if p == nil || p.Kind != KindUser {
		return nil, nil
	}
	u, err := s.st.Auth().UserByID(ctx, p.UserID)
	if err != nil || u == nil {
		return nil, err
	}
	return s.viewWithRole(ctx, u)
}
