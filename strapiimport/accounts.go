package strapiimport

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/store"
)

// roles imports users-permissions roles and their permissions.
func (im *importer) roles() error {
	im.roleIDs = map[int64]int64{}
	if !im.src.Has("up_roles", "id", "type") {
		im.rep.skip("users-permissions: no up_roles table in the Strapi database")
		return nil
	}
	var roles []*auth.Role
	err := im.src.Rows(im.ctx, "up_roles", nil, []string{"id"}, func(r map[string]any) error {
		id, _ := toInt(r["id"])
		ro := &auth.Role{ID: id, DocumentID: str(r["document_id"]), Name: str(r["name"]), Description: str(r["description"]),
			Type: str(r["type"])}
		ro.CreatedAt = timeOr(r["created_at"], time.Now().UTC())
		ro.UpdatedAt = timeOr(r["updated_at"], ro.CreatedAt)
		if ro.Type == "" {
			ro.Type = strings.ToLower(ro.Name)
		}
		roles = append(roles, ro)
		return nil
	})
	if err != nil {
		return err
	}
	err = batch(im, "roles", roles, func(tx *store.ImportTx, ro *auth.Role) error {
		id, err := tx.PutRole(ro)
		im.roleIDs[ro.ID] = id
		return err
	})
	if err != nil {
		return err
	}
	im.rep.Counts["roles"] = len(roles)
	// Permissions: up_permissions (action) joined to roles by the link
	// table. Each imported role gets exactly Strapi's set.
	actions := map[int64]string{}
	at := time.Now().UTC()
	if im.src.Has("up_permissions", "id", "action") {
		err := im.src.Rows(im.ctx, "up_permissions", []string{"id", "action"}, []string{"id"}, func(r map[string]any) error {
			id, _ := toInt(r["id"])
			actions[id] = str(r["action"])
			return nil
		})
		if err != nil {
			return err
		}
	}
	type grants struct {
		role    int64
		actions []string
	}
	byRole := map[int64][]string{}
	if im.src.Has("up_permissions_role_lnk", "permission_id", "role_id") {
		err := im.src.Rows(im.ctx, "up_permissions_role_lnk", []string{"permission_id", "role_id"}, []string{"id"}, func(r map[string]any) error {
			p, _ := toInt(r["permission_id"])
			ro, _ := toInt(r["role_id"])
			if rid, ok := im.roleIDs[ro]; ok && actions[p] != "" {
				byRole[rid] = append(byRole[rid], actions[p])
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var all []grants
	n := 0
	for _, ro := range roles {
		rid := im.roleIDs[ro.ID]
		all = append(all, grants{rid, byRole[rid]})
		n += len(byRole[rid])
	}
	if err := batch(im, "permissions", all, func(tx *store.ImportTx, g grants) error {
		return tx.SetPermissions(g.role, g.actions, at)
	}); err != nil {
		return err
	}
	im.rep.Counts["permissions"] = n
	if _, err := os.Stat(filepath.Join(im.o.Project, "config", "permissions.json")); err == nil && im.o.Project != "" {
		im.rep.warn("config/permissions.json sets the content-type permissions of the roles it names at every start: they replace the imported ones")
	}
	return nil
}

func timeOr(v any, def time.Time) time.Time {
	if t, ok := toTime(v); ok {
		return t
	}
	return def
}

// users imports users-permissions users with their bcrypt hashes.
func (im *importer) users() error {
	if !im.src.Has("up_users", "id", "email") {
		im.rep.skip("users-permissions: no up_users table in the Strapi database")
		return nil
	}
	roleOf := map[int64]int64{}
	if im.src.Has("up_users_role_lnk", "user_id", "role_id") {
		err := im.src.Rows(im.ctx, "up_users_role_lnk", []string{"user_id", "role_id"}, []string{"id"}, func(r map[string]any) error {
			u, _ := toInt(r["user_id"])
			ro, _ := toInt(r["role_id"])
			roleOf[u] = ro
			return nil
		})
		if err != nil {
			return err
		}
	}
	// The attributes of the project's users-permissions extension are
	// columns, join tables, components and media of up_users in Strapi,
	// read as a type's are.
	var ext *models.ContentType
	var od *ownerData
	if ut := im.o.Schema.Type(models.UserUID); ut != nil && ut.Extension() != nil && len(ut.Extension().Attributes) > 0 {
		ext = ut.Extension()
		var err error
		if od, err = im.loadOwner(models.UserUID, "up_users", ext.Attributes); err != nil {
			return err
		}
		if err := im.preload(ext.Attributes); err != nil {
			return err
		}
	}
	var users []*auth.User
	err := im.src.Rows(im.ctx, "up_users", nil, []string{"id"}, func(r map[string]any) error {
		id, _ := toInt(r["id"])
		u := &auth.User{ID: id, DocumentID: str(r["document_id"]), Username: str(r["username"]),
			Email: strings.ToLower(str(r["email"])), Provider: str(r["provider"]), Password: str(r["password"]),
			ResetPasswordToken: strPtr(r["reset_password_token"]), ConfirmationToken: strPtr(r["confirmation_token"]),
			Confirmed: toBool(r["confirmed"]), Blocked: toBool(r["blocked"])}
		if u.Provider == "" {
			u.Provider = "local"
		}
		if u.Password != "" && !strings.HasPrefix(u.Password, "$2") {
			im.rep.warn("user %d (%s): password is not a bcrypt hash: the user must reset it", id, u.Username)
		}
		if ro, ok := roleOf[id]; ok {
			if rid, ok := im.roleIDs[ro]; ok {
				u.RoleID = &rid
			}
		}
		u.CreatedAt = timeOr(r["created_at"], time.Now().UTC())
		u.UpdatedAt = timeOr(r["updated_at"], u.CreatedAt)
		u.PublishedAt = timePtr(r["published_at"])
		if ext != nil {
			m, err := im.values(models.UserUID, "up_users", ext.Attributes, od, id, r)
			if err != nil {
				return err
			}
			if u.Data, u.Extra, err = engine.EncodeColumns(ext, m); err != nil {
				return err
			}
		}
		users = append(users, u)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "users", users, func(tx *store.ImportTx, u *auth.User) error { return tx.PutUser(u) }); err != nil {
		return err
	}
	im.rep.Counts["users"] = len(users)
	return nil
}

// admins imports admin users with their bcrypt hashes.
func (im *importer) admins() error {
	if !im.src.Has("admin_users", "id", "email") {
		im.rep.skip("admins: no admin_users table in the Strapi database")
		return nil
	}
	var admins []*auth.AdminUser
	err := im.src.Rows(im.ctx, "admin_users", nil, []string{"id"}, func(r map[string]any) error {
		id, _ := toInt(r["id"])
		a := &auth.AdminUser{ID: id, DocumentID: str(r["document_id"]), Firstname: str(r["firstname"]), Lastname: str(r["lastname"]),
			Email: strings.ToLower(str(r["email"])), Password: str(r["password"]), IsActive: toBool(r["is_active"]), Blocked: toBool(r["blocked"])}
		if a.Password == "" {
			im.rep.skip("admin %d (%s): no password (an invitation never accepted)", id, a.Email)
			return nil
		}
		a.CreatedAt = timeOr(r["created_at"], time.Now().UTC())
		a.UpdatedAt = timeOr(r["updated_at"], a.CreatedAt)
		admins = append(admins, a)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "admins", admins, func(tx *store.ImportTx, a *auth.AdminUser) error { return tx.PutAdmin(a) }); err != nil {
		return err
	}
	im.rep.Counts["admins"] = len(admins)
	return nil
}

// tokens imports content-API tokens with their HMAC digests: with the same
// API_TOKEN_SALT, the tokens clients hold keep working.
func (im *importer) tokens() error {
	if !im.src.Has("strapi_api_tokens", "id", "access_key") {
		im.rep.skip("API tokens: no strapi_api_tokens table in the Strapi database")
		return nil
	}
	perms := map[int64]string{}
	if im.src.Has("strapi_api_token_permissions", "id", "action") {
		err := im.src.Rows(im.ctx, "strapi_api_token_permissions", []string{"id", "action"}, []string{"id"}, func(r map[string]any) error {
			id, _ := toInt(r["id"])
			perms[id] = str(r["action"])
			return nil
		})
		if err != nil {
			return err
		}
	}
	byToken := map[int64][]string{}
	if im.src.Has("strapi_api_token_permissions_token_lnk", "api_token_permission_id", "api_token_id") {
		err := im.src.Rows(im.ctx, "strapi_api_token_permissions_token_lnk", []string{"api_token_permission_id", "api_token_id"}, []string{"id"},
			func(r map[string]any) error {
				p, _ := toInt(r["api_token_permission_id"])
				t, _ := toInt(r["api_token_id"])
				if perms[p] != "" {
					byToken[t] = append(byToken[t], perms[p])
				}
				return nil
			})
		if err != nil {
			return err
		}
	}
	var toks []*auth.APIToken
	err := im.src.Rows(im.ctx, "strapi_api_tokens", nil, []string{"id"}, func(r map[string]any) error {
		id, _ := toInt(r["id"])
		if k, has := r["kind"]; has && k != nil && str(k) != "content-api" {
			im.rep.skip("API token %d (%s): kind %s is not a content-API token", id, str(r["name"]), str(k))
			return nil
		}
		t := &auth.APIToken{ID: id, Name: str(r["name"]), Description: str(r["description"]), Type: str(r["type"]),
			AccessKey: str(r["access_key"]), LastUsedAt: timePtr(r["last_used_at"]), ExpiresAt: timePtr(r["expires_at"]),
			Permissions: byToken[id]}
		if l, ok := toInt(r["lifespan"]); ok && r["lifespan"] != nil {
			t.Lifespan = &l
		}
		if t.Permissions == nil {
			t.Permissions = []string{}
		}
		t.CreatedAt = timeOr(r["created_at"], time.Now().UTC())
		t.UpdatedAt = timeOr(r["updated_at"], t.CreatedAt)
		toks = append(toks, t)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "tokens", toks, func(tx *store.ImportTx, t *auth.APIToken) error { return tx.PutToken(t) }); err != nil {
		return err
	}
	im.rep.Counts["API tokens"] = len(toks)
	return nil
}
