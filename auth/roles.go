package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
	"github.com/stratum-cms/stratum/models"
)

// Role types of the two roles every project has.
const (
	RolePublic        = "public"
	RoleAuthenticated = "authenticated"
)

// Plugin actions users-permissions knows (Strapi's route handler names).
var pluginActions = []string{
	"plugin::users-permissions.auth.callback", "plugin::users-permissions.auth.register",
	"plugin::users-permissions.auth.connect", "plugin::users-permissions.auth.forgotPassword",
	"plugin::users-permissions.auth.resetPassword", "plugin::users-permissions.auth.emailConfirmation",
	"plugin::users-permissions.auth.sendEmailConfirmation", "plugin::users-permissions.auth.changePassword",
	"plugin::users-permissions.user.find", "plugin::users-permissions.user.findOne",
	"plugin::users-permissions.user.count", "plugin::users-permissions.user.create",
	"plugin::users-permissions.user.update", "plugin::users-permissions.user.destroy",
	"plugin::users-permissions.user.me",
	"plugin::users-permissions.role.find", "plugin::users-permissions.role.findOne",
	"plugin::users-permissions.role.createRole", "plugin::users-permissions.role.updateRole",
	"plugin::users-permissions.role.deleteRole", "plugin::users-permissions.permissions.getPermissions",
	"plugin::upload.content-api.find", "plugin::upload.content-api.findOne",
	"plugin::upload.content-api.upload", "plugin::upload.content-api.destroy",
	"plugin::i18n.locales.listLocales",
}

// Actions of the users-permissions endpoints.
const (
	ActionLogin      = "plugin::users-permissions.auth.callback"
	ActionRegister   = "plugin::users-permissions.auth.register"
	ActionMe         = "plugin::users-permissions.user.me"
	ActionUserFind   = "plugin::users-permissions.user.find"
	ActionUserOne    = "plugin::users-permissions.user.findOne"
	ActionUserCount  = "plugin::users-permissions.user.count"
	ActionUserCreate = "plugin::users-permissions.user.create"
	ActionUserUpdate = "plugin::users-permissions.user.update"
	ActionUserDelete = "plugin::users-permissions.user.destroy"
)

// Strapi's default permissions of a fresh install.
var defaultPermissions = map[string][]string{
	RolePublic: {
		"plugin::users-permissions.auth.callback", "plugin::users-permissions.auth.connect",
		"plugin::users-permissions.auth.forgotPassword", "plugin::users-permissions.auth.resetPassword",
		"plugin::users-permissions.auth.register", "plugin::users-permissions.auth.emailConfirmation",
		"plugin::users-permissions.auth.sendEmailConfirmation",
	},
	RoleAuthenticated: {"plugin::users-permissions.user.me", "plugin::users-permissions.auth.changePassword"},
}

// KnownActions is every action a permission may name now: the content
// actions of the current schema and the plugins' actions.
func (s *Service) KnownActions() map[string]bool {
	out := map[string]bool{}
	for _, a := range s.cfg.Actions() {
		out[a] = true
	}
	for _, a := range pluginActions {
		out[a] = true
	}
	return out
}

// checkActions refuses actions that are not registered.
func (s *Service) checkActions(actions []string) error {
	known := s.KnownActions()
	var unknown []string
	for _, a := range actions {
		if !known[a] {
			unknown = append(unknown, a)
		}
	}
	if len(unknown) > 0 {
		return errs.Errorf(errs.KindApplication, "Unknown permissions provided: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// roleType derives a custom role's type from its name, as Strapi does
// (snake_case of the lower-cased name).
func roleType(name string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			us = false
		} else if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	return strings.Trim(b.String(), "_")
}

func (s *Service) ensureDefaultRoles(ctx context.Context) error {
	for _, r := range []struct{ typ, name, desc string }{
		{RoleAuthenticated, "Authenticated", "Default role given to authenticated user."},
		{RolePublic, "Public", "Default role given to unauthenticated user."},
	} {
		have, err := s.st.Auth().RoleByType(ctx, r.typ)
		if err != nil {
			return fmt.Errorf("read roles: %w", err)
		}
		if have != nil {
			continue
		}
		err = startupRetry(func() error {
			return s.st.Tx(ctx, func(tx Tx) error {
				if have, err := tx.RoleByType(ctx, r.typ); err != nil || have != nil {
					return err // another node made it meanwhile
				}
				role := &Role{DocumentID: ids.NewDocumentID(), Name: r.name, Description: r.desc, Type: r.typ,
					CreatedAt: s.now(), UpdatedAt: s.now()}
				if err := tx.CreateRole(ctx, role); err != nil {
					return err
				}
				return s.grant(ctx, tx, role.ID, defaultPermissions[r.typ])
			})
		})
		if err != nil {
			return fmt.Errorf("create the %s role: %w", r.name, err)
		}
	}
	return nil
}

// startupRetry runs a start-time transaction again when a concurrent start
// got in its way: a unique index refused a row another node just created,
// or (SQLite, several handles on one file) the database was busy.
func startupRetry(fn func() error) error {
	var err error
	for try := 0; try < 5; try++ {
		if err = fn(); err == nil || !(isUniqueViolation(err) || isBusy(err)) {
			return err
		}
		time.Sleep(time.Duration(try+1) * 20 * time.Millisecond)
	}
	return err
}

func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY")
}

// grant adds permissions to a role (existing ones are kept).
func (s *Service) grant(ctx context.Context, tx Tx, roleID int64, actions []string) error {
	return tx.Grant(ctx, roleID, dedupe(actions), s.now())
}

// ApplyPermissions sets roles from config/permissions.json: for each role
// it names ("public", "authenticated" or a custom role's name, created if
// missing) the role's content-type permissions (api::...) become exactly
// the listed ones; plugin permissions listed are granted in addition to
// the role's others.
func (s *Service) ApplyPermissions(ctx context.Context, p Permissions) error {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := s.checkActions(p[name]); err != nil {
			return fmt.Errorf("config/permissions.json: role %q: %s", name, errs.From(err).Message)
		}
	}
	apply := func(tx Tx) error {
		for _, name := range names {
			role, err := s.roleForKey(ctx, tx, name)
			if err != nil {
				return err
			}
			if err := tx.Revoke(ctx, role.ID, "api::"); err != nil {
				return err
			}
			if err := s.grant(ctx, tx, role.ID, p[name]); err != nil {
				return err
			}
		}
		return nil
	}
	// Another node starting at the same time may create a role first.
	err := startupRetry(func() error { return s.st.Tx(ctx, apply) })
	if err != nil {
		return fmt.Errorf("config/permissions.json: %w", err)
	}
	s.invalidateRoles()
	return nil
}

// roleForKey finds the role a permissions.json key names, creating a
// custom role when none matches.
func (s *Service) roleForKey(ctx context.Context, tx Tx, key string) (*Role, error) {
	typ := strings.ToLower(key)
	if typ != RolePublic && typ != RoleAuthenticated {
		typ = roleType(key)
	}
	role, err := tx.RoleByTypeOrName(ctx, typ, key)
	if err != nil || role != nil {
		return role, err
	}
	if typ == "" {
		return nil, fmt.Errorf("role %q: a role name needs letters or digits", key)
	}
	role = &Role{DocumentID: ids.NewDocumentID(), Name: key, Type: typ, CreatedAt: s.now(), UpdatedAt: s.now()}
	return role, tx.CreateRole(ctx, role)
}

// --- the roles' permissions in memory -------------------------------------

type roleSnapshot struct {
	at              time.Time
	perms           map[int64]map[string]bool
	publicID        int64
	authenticatedID int64
	public          *Principal
}

func (s *Service) invalidateRoles() { s.roles.Store(nil) }

// InvalidateRoles drops this node's copy of the roles' permissions: another
// node changed them (the watch on the database says so).
func (s *Service) InvalidateRoles() { s.invalidateRoles() }

// rolesChanged follows a change made here: this node at once, the others
// through Config.Changed.
func (s *Service) rolesChanged() {
	s.invalidateRoles()
	if s.cfg.Changed != nil {
		s.cfg.Changed()
	}
}

// roleSet returns the roles' permissions, read again when older than the
// cache TTL.
func (s *Service) roleSet(ctx context.Context) (*roleSnapshot, error) {
	if rs := s.roles.Load(); rs != nil && s.cfg.Now().Sub(rs.at) < s.cfg.RoleCacheTTL {
		return rs, nil
	}
	s.rolesMu.Lock()
	defer s.rolesMu.Unlock()
	old := s.roles.Load()
	if old != nil && s.cfg.Now().Sub(old.at) < s.cfg.RoleCacheTTL {
		return old, nil
	}
	rs, err := s.loadRoles(ctx)
	if err != nil {
		if old != nil { // keep serving what we had rather than failing every request
			s.log.Error("reload roles", "err", err)
			return old, nil
		}
		return nil, err
	}
	s.roles.Store(rs)
	return rs, nil
}

func (s *Service) loadRoles(ctx context.Context) (*roleSnapshot, error) {
	db := s.st.Auth()
	roles, err := db.Roles(ctx)
	if err != nil {
		return nil, err
	}
	perms, err := db.Permissions(ctx, nil)
	if err != nil {
		return nil, err
	}
	rs := &roleSnapshot{at: s.cfg.Now(), perms: map[int64]map[string]bool{}}
	for _, r := range roles {
		rs.perms[r.ID] = map[string]bool{}
		switch r.Type {
		case RolePublic:
			rs.publicID = r.ID
		case RoleAuthenticated:
			rs.authenticatedID = r.ID
		}
	}
	for _, p := range perms {
		if m := rs.perms[p.RoleID]; m != nil {
			m[p.Action] = true
		}
	}
	rs.public = &Principal{Kind: KindPublic, actions: rs.perms[rs.publicID]}
	return rs, nil
}

// --- the roles admin API ---------------------------------------------------

// RoleSummary is a role as a populated user shows it.
type RoleSummary struct {
	ID          int64  `json:"id"`
	DocumentID  string `json:"documentId"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Type        string `json:"type"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
	PublishedAt string `json:"publishedAt"`
	// Ext is the public scalars of the role extension, as JSON members.
	Ext json.RawMessage `json:"-"`
}

// MarshalJSON writes the role's own attributes, those of the extension,
// then the timestamps.
func (r RoleSummary) MarshalJSON() ([]byte, error) {
	type plain RoleSummary
	b, err := json.Marshal(plain(r))
	return withExtension(b, r.Ext), err
}

// RoleView is a role in the admin API: with its users count and permissions.
type RoleView struct {
	RoleSummary
	NbUsers     int64    `json:"nb_users"`
	Permissions []string `json:"permissions"`
}

// MarshalJSON is needed because the summary's own would stand for the
// whole view.
func (v RoleView) MarshalJSON() ([]byte, error) {
	return marshalJoined(v.RoleSummary, struct {
		NbUsers     int64    `json:"nb_users"`
		Permissions []string `json:"permissions"`
	}{v.NbUsers, v.Permissions})
}

// marshalJoined writes a and b, two values that marshal as objects, as one.
func marshalJoined(a, b any) ([]byte, error) {
	ab, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	bb, err := json.Marshal(b)
	return joinObjects(ab, bb), err
}

func roleSummary(r *Role) RoleSummary {
	return RoleSummary{ID: r.ID, DocumentID: r.DocumentID, Name: r.Name, Description: r.Description, Type: r.Type,
		CreatedAt: jsTime(r.CreatedAt), UpdatedAt: jsTime(r.UpdatedAt), PublishedAt: jsTime(r.UpdatedAt),
		Ext: extensionFields(r.Data)}
}

// RoleInput is the body of POST/PUT /admin/users-permissions/roles.
type RoleInput struct {
	Name, Description       string
	HasName, HasDescription bool
	Permissions             []string
	HasPermissions          bool
	// Ext holds the other keys, for the role extension's attributes (the
	// service refuses those it does not define).
	Ext map[string]any
}

// ParseRoleInput reads {name, description, permissions}; name is required
// on create.
func ParseRoleInput(body map[string]any, create bool) (RoleInput, error) {
	var in RoleInput
	for k, v := range body {
		if k != "name" && k != "description" && k != "permissions" {
			if in.Ext == nil {
				in.Ext = map[string]any{}
			}
			in.Ext[k] = v
		}
	}
	var err error
	if in.Name, in.HasName, err = str(body, "name", false); err != nil {
		return in, err
	}
	if in.HasName && strings.TrimSpace(in.Name) == "" || create && !in.HasName {
		return in, validationAt("name", nil, "name is a required field")
	}
	in.Name = strings.TrimSpace(in.Name)
	if in.Description, in.HasDescription, err = str(body, "description", true); err != nil {
		return in, err
	}
	if in.Permissions, in.HasPermissions, err = stringList(body, "permissions"); err != nil {
		return in, err
	}
	in.Permissions = dedupe(in.Permissions)
	return in, nil
}

func roleNotFound() error { return errs.Errorf(errs.KindNotFound, "Role not found") }

func roleTaken() error { return errs.Errorf(errs.KindApplication, "Role name already taken") }

// ListRoles lists every role in id order.
func (s *Service) ListRoles(ctx context.Context) ([]RoleView, error) {
	roles, err := s.st.Auth().Roles(ctx)
	if err != nil {
		return nil, err
	}
	return s.roleViews(ctx, s.st.Auth(), roles)
}

func (s *Service) roleViews(ctx context.Context, db Tx, roles []Role) ([]RoleView, error) {
	out := make([]RoleView, len(roles))
	if len(roles) == 0 {
		return out, nil
	}
	ids := make([]int64, len(roles))
	for i := range roles {
		ids[i] = roles[i].ID
	}
	perms, err := db.Permissions(ctx, ids)
	if err != nil {
		return nil, err
	}
	n, err := db.UsersPerRole(ctx, ids)
	if err != nil {
		return nil, err
	}
	byRole := map[int64][]string{}
	for _, p := range perms {
		byRole[p.RoleID] = append(byRole[p.RoleID], p.Action)
	}
	for i := range roles {
		p := byRole[roles[i].ID]
		if p == nil {
			p = []string{}
		}
		out[i] = RoleView{RoleSummary: roleSummary(&roles[i]), NbUsers: n[roles[i].ID], Permissions: p}
	}
	return out, nil
}

func (s *Service) roleView(ctx context.Context, db Tx, r *Role) (*RoleView, error) {
	v, err := s.roleViews(ctx, db, []Role{*r})
	if err != nil {
		return nil, err
	}
	return &v[0], nil
}

// GetRole reads a role by id.
func (s *Service) GetRole(ctx context.Context, id int64) (*RoleView, error) {
	r, err := s.st.Auth().RoleByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, roleNotFound()
	}
	return s.roleView(ctx, s.st.Auth(), r)
}

// CreateRole makes a custom role.
func (s *Service) CreateRole(ctx context.Context, in RoleInput) (*RoleView, error) {
	if err := s.checkActions(in.Permissions); err != nil {
		return nil, err
	}
	typ := roleType(in.Name)
	if typ == "" {
		return nil, validationAt("name", in.Name, "name needs letters or digits")
	}
	r := &Role{DocumentID: ids.NewDocumentID(), Name: in.Name, Description: in.Description, Type: typ,
		CreatedAt: s.now(), UpdatedAt: s.now()}
	var err error
	if r.Data, r.Extra, err = s.prepareSystem(ctx, models.RoleUID, r.DocumentID, nil, nil, in.Ext, true); err != nil {
		return nil, err
	}
	err = s.st.Tx(ctx, func(tx Tx) error {
		taken, err := tx.RoleTaken(ctx, r.Name, r.Type, 0)
		if err != nil {
			return err
		}
		if taken {
			return roleTaken()
		}
		if err := tx.CreateRole(ctx, r); err != nil {
			return err
		}
		return s.grant(ctx, tx, r.ID, in.Permissions)
	})
	if isUniqueViolation(err) {
		return nil, roleTaken()
	}
	if err != nil {
		return nil, err
	}
	s.rolesChanged()
	return s.roleView(ctx, s.st.Auth(), r)
}

// UpdateRole changes a role's name, description and, when given, replaces
// its permissions.
func (s *Service) UpdateRole(ctx context.Context, id int64, in RoleInput) (*RoleView, error) {
	if err := s.checkActions(in.Permissions); err != nil {
		return nil, err
	}
	// The extension's values are checked first: the engine writes the
	// inverse sides of its relations in a transaction of its own.
	var data, extra []byte
	if len(in.Ext) > 0 {
		cur, err := s.st.Auth().RoleByID(ctx, id)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, roleNotFound()
		}
		if data, extra, err = s.prepareSystem(ctx, models.RoleUID, cur.DocumentID, cur.Data, cur.Extra, in.Ext, false); err != nil {
			return nil, err
		}
	}
	var r *Role
	err := s.st.Tx(ctx, func(tx Tx) error {
		var err error
		if r, err = tx.RoleByID(ctx, id); err != nil {
			return err
		}
		if r == nil {
			return roleNotFound()
		}
		if len(in.Ext) > 0 {
			r.Data, r.Extra = data, extra
		}
		if in.HasName && in.Name != r.Name {
			taken, err := tx.RoleTaken(ctx, in.Name, "", id)
			if err != nil {
				return err
			}
			if taken {
				return roleTaken()
			}
			r.Name = in.Name
		}
		if in.HasDescription {
			r.Description = in.Description
		}
		r.UpdatedAt = s.now()
		if err := tx.SaveRole(ctx, r); err != nil {
			return err
		}
		if !in.HasPermissions {
			return nil
		}
		if err := tx.Revoke(ctx, id, ""); err != nil {
			return err
		}
		return s.grant(ctx, tx, id, in.Permissions)
	})
	if isUniqueViolation(err) {
		return nil, roleTaken()
	}
	if err != nil {
		return nil, err
	}
	s.rolesChanged()
	return s.roleView(ctx, s.st.Auth(), r)
}

// DeleteRole removes a custom role; its users get the Authenticated role.
func (s *Service) DeleteRole(ctx context.Context, id int64) (*RoleView, error) {
	var view *RoleView
	err := s.st.Tx(ctx, func(tx Tx) error {
		r, err := tx.RoleByID(ctx, id)
		if err != nil {
			return err
		}
		if r == nil {
			return roleNotFound()
		}
		if r.Type == RolePublic || r.Type == RoleAuthenticated {
			return errs.Errorf(errs.KindApplication, "The %s role cannot be deleted", r.Name)
		}
		// Inside the transaction: on SQLite the write pool has one
		// connection, and reading outside would wait for it.
		if view, err = s.roleView(ctx, tx, r); err != nil {
			return err
		}
		auth, err := tx.RoleByType(ctx, RoleAuthenticated)
		if err != nil {
			return err
		}
		if auth == nil {
			return errs.Errorf(errs.KindApplication, "Impossible to find the default role")
		}
		if err := tx.MoveUsers(ctx, id, auth.ID); err != nil {
			return err
		}
		if err := tx.Revoke(ctx, id, ""); err != nil {
			return err
		}
		return tx.DeleteRole(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	s.rolesChanged()
	return view, nil
}

// SchemaActions lists the content-API actions of a schema: find, findOne,
// create, update and delete of every content-type.
func SchemaActions(s *models.Schema) []string {
	out := make([]string, 0, len(s.Types)*5)
	for _, ct := range s.Types {
		for _, a := range []string{"find", "findOne", "create", "update", "delete"} {
			out = append(out, ct.Action(a))
		}
	}
	return out
}
