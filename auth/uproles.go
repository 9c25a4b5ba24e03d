package auth

import (
	"context"
	"sort"
	"strings"

	"github.com/stratum-cms/stratum/errs"
)

// The content API's users-permissions roles and permissions
// (/api/users-permissions/...), in Strapi's shapes: permissions as a tree
// {"api::article": {"controllers": {"article": {"find": {"enabled", "policy"}}}}}
// rather than the admin API's flat list.

// Actions of the users-permissions content API.
const (
	ActionForgotPassword        = "plugin::users-permissions.auth.forgotPassword"
	ActionResetPassword         = "plugin::users-permissions.auth.resetPassword"
	ActionChangePassword        = "plugin::users-permissions.auth.changePassword"
	ActionEmailConfirmation     = "plugin::users-permissions.auth.emailConfirmation"
	ActionSendEmailConfirmation = "plugin::users-permissions.auth.sendEmailConfirmation"
	ActionRoleFind              = "plugin::users-permissions.role.find"
	ActionRoleFindOne           = "plugin::users-permissions.role.findOne"
	ActionRoleCreate            = "plugin::users-permissions.role.createRole"
	ActionRoleUpdate            = "plugin::users-permissions.role.updateRole"
	ActionRoleDelete            = "plugin::users-permissions.role.deleteRole"
	ActionGetPermissions        = "plugin::users-permissions.permissions.getPermissions"
)

// PermissionState is one action of the tree.
type PermissionState struct {
	Enabled bool   `json:"enabled"`
	Policy  string `json:"policy"`
}

// PermissionTree is Strapi's grouping of actions: type -> controllers ->
// controller -> action.
type PermissionTree map[string]map[string]map[string]map[string]PermissionState

// splitAction cuts "api::article.article.find" into its type, controller
// and action, as Strapi's split('.') does.
func splitAction(a string) (typ, ctrl, act string, ok bool) {
	parts := strings.Split(a, ".")
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// Permissions is every known action, those in enabled marked so.
func (s *Service) Permissions(enabled []string) PermissionTree {
	on := make(map[string]bool, len(enabled))
	for _, a := range enabled {
		on[a] = true
	}
	t := PermissionTree{}
	for a := range s.KnownActions() {
		typ, ctrl, act, ok := splitAction(a)
		if !ok {
			continue
		}
		if t[typ] == nil {
			t[typ] = map[string]map[string]map[string]PermissionState{"controllers": {}}
		}
		cs := t[typ]["controllers"]
		if cs[ctrl] == nil {
			cs[ctrl] = map[string]PermissionState{}
		}
		cs[ctrl][act] = PermissionState{Enabled: on[a]}
	}
	return t
}

// ContentRole is a role of /api/users-permissions/roles.
type ContentRole struct {
	RoleSummary
	NbUsers     *int64         `json:"nb_users,omitempty"`
	Permissions PermissionTree `json:"permissions,omitempty"`
}

// MarshalJSON is needed because the summary's own would stand for the
// whole role.
func (r ContentRole) MarshalJSON() ([]byte, error) {
	return marshalJoined(r.RoleSummary, struct {
		NbUsers     *int64         `json:"nb_users,omitempty"`
		Permissions PermissionTree `json:"permissions,omitempty"`
	}{r.NbUsers, r.Permissions})
}

// ContentRoles is GET /api/users-permissions/roles: every role with its
// users count, by name.
func (s *Service) ContentRoles(ctx context.Context) ([]ContentRole, error) {
	views, err := s.ListRoles(ctx)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(views, func(i, j int) bool { return views[i].Name < views[j].Name })
	out := make([]ContentRole, len(views))
	for i := range views {
		n := views[i].NbUsers
		out[i] = ContentRole{RoleSummary: views[i].RoleSummary, NbUsers: &n}
	}
	return out, nil
}

// ContentRole is GET /api/users-permissions/roles/:id: the role with its
// permissions as a tree.
func (s *Service) ContentRole(ctx context.Context, id int64) (*ContentRole, error) {
	v, err := s.GetRole(ctx, id)
	if err != nil {
		return nil, err
	}
	return &ContentRole{RoleSummary: v.RoleSummary, Permissions: s.Permissions(v.Permissions)}, nil
}

// ParseContentRoleInput reads Strapi's role body {name, description,
// type, permissions: tree}: the enabled actions of the tree become the
// role's whole set.
func ParseContentRoleInput(body map[string]any, create bool) (RoleInput, error) {
	flat := make(map[string]any, len(body))
	for k, v := range body {
		switch k {
		case "type", "users": // Strapi's body may carry them; the type follows the name
		case "permissions":
			actions, err := treeActions(v)
			if err != nil {
				return RoleInput{}, err
			}
			list := make([]any, len(actions))
			for i, a := range actions {
				list[i] = a
			}
			flat[k] = list
		default:
			flat[k] = v
		}
	}
	return ParseRoleInput(flat, create)
}

func treeActions(v any) ([]string, error) {
	bad := func() error {
		return validationAt("permissions", nil, "permissions must be an object of types, controllers and actions")
	}
	types, ok := v.(map[string]any)
	if !ok {
		return nil, bad()
	}
	var out []string
	for typ, tv := range types {
		tm, ok := tv.(map[string]any)
		if !ok {
			return nil, bad()
		}
		ctrls, ok := tm["controllers"].(map[string]any)
		if !ok {
			return nil, bad()
		}
		for ctrl, cv := range ctrls {
			acts, ok := cv.(map[string]any)
			if !ok {
				return nil, bad()
			}
			for act, av := range acts {
				st, ok := av.(map[string]any)
				if !ok {
					return nil, bad()
				}
				en, isBool := st["enabled"].(bool)
				if _, has := st["enabled"]; has && !isBool {
					return nil, bad()
				}
				if en {
					out = append(out, typ+"."+ctrl+"."+act)
				}
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// PublicRoleDeletion refuses deleting the Public role by id, as Strapi's
// content API does ("Cannot delete public role"); the Authenticated role
// is refused by DeleteRole.
func (s *Service) PublicRoleDeletion(ctx context.Context, id int64) error {
	r, err := s.st.Auth().RoleByType(ctx, RolePublic)
	if err != nil {
		return err
	}
	if r != nil && r.ID == id {
		return errs.Errorf(errs.KindApplication, "Cannot delete public role")
	}
	return nil
}
