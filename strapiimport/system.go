package strapiimport

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
)

// locales reads Strapi's locales (i18n_locale and the default in the core
// store) and writes them to config/plugins.json when the project has no
// locales configured: Stratum reads locales from configuration.
func (im *importer) locales() error {
	im.defLoc = "en"
	if im.src.Has("strapi_core_store_settings", "key", "value") {
		err := im.src.Rows(im.ctx, "strapi_core_store_settings", []string{"key", "value"}, []string{"id"}, func(r map[string]any) error {
			if str(r["key"]) == "plugin_i18n_default_locale" {
				var l string
				if json.Unmarshal([]byte(str(r["value"])), &l) == nil && l != "" {
					im.defLoc = l
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var codes []string
	if im.src.Has("i18n_locale", "code") {
		err := im.src.Rows(im.ctx, "i18n_locale", []string{"code"}, []string{"id"}, func(r map[string]any) error {
			if c := str(r["code"]); c != "" {
				codes = append(codes, c)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	im.rep.Counts["locales"] = len(codes)
	localized := false
	for _, ct := range im.o.Schema.Types {
		localized = localized || ct.Localized
	}
	if len(codes) == 0 || !localized || im.o.Project == "" {
		return nil
	}
	// The default first, the others in Strapi's order.
	sort.SliceStable(codes, func(i, j int) bool { return codes[i] == im.defLoc && codes[j] != im.defLoc })
	return writeLocales(filepath.Join(im.o.Project, "config", "plugins.json"), codes, im.defLoc, im.rep)
}

// writeLocales sets i18n's locales in plugins.json, unless some are set.
func writeLocales(file string, codes []string, def string, rep *Report) error {
	cfg := map[string]any{}
	if b, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	i18n, _ := cfg["i18n"].(map[string]any)
	if i18n == nil {
		i18n = map[string]any{}
	}
	c, _ := i18n["config"].(map[string]any)
	if c == nil {
		c = map[string]any{}
	}
	if have, ok := c["locales"].([]any); ok && len(have) > 0 {
		rep.warn("%s already lists locales %v: kept (Strapi's are %v, default %s)", file, have, codes, def)
		return nil
	}
	c["locales"], c["defaultLocale"] = codes, def
	i18n["config"] = c
	cfg["i18n"] = i18n
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// files imports the media library's rows and copies local files.
func (im *importer) files() error {
	if !im.src.Has("files", "id", "hash") {
		im.rep.skip("media: no files table in the Strapi database")
		return nil
	}
	var recs []*upload.FileRecord
	copied, missing := 0, 0
	err := im.src.Rows(im.ctx, "files", nil, []string{"id"}, func(r map[string]any) error {
		id, ok := toInt(r["id"])
		if !ok {
			return nil
		}
		f := &upload.FileRecord{ID: id, DocumentID: str(r["document_id"]), Name: str(r["name"]),
			AlternativeText: strPtr(r["alternative_text"]), Caption: strPtr(r["caption"]), Hash: str(r["hash"]),
			Ext: str(r["ext"]), Mime: str(r["mime"]), Size: toFloat(r["size"]), URL: str(r["url"])}
		if w, ok := toInt(r["width"]); ok {
			n := int(w)
			f.Width = &n
		}
		if h, ok := toInt(r["height"]); ok {
			n := int(h)
			f.Height = &n
		}
		f.FocalPoint, f.PreviewURL, f.ProviderMetadata = jsonText(r["focal_point"]), strPtr(r["preview_url"]), jsonText(r["provider_metadata"])
		if p := str(r["provider"]); p != "local" {
			f.Provider = p
		}
		if r["formats"] != nil {
			s := str(r["formats"])
			if s != "null" && s != "" {
				f.Formats = &s
			}
		}
		f.CreatedAt = time.Now().UTC()
		if t, ok := toTime(r["created_at"]); ok {
			f.CreatedAt = t
		}
		f.UpdatedAt = f.CreatedAt
		if t, ok := toTime(r["updated_at"]); ok {
			f.UpdatedAt = t
		}
		if p := str(r["provider"]); p != "local" && p != "" {
			im.rep.warn("file %d (%s): provider %s: its URL %s is kept as is", id, f.Name, p, f.URL)
		} else {
			c, m := im.copyLocal(f)
			copied, missing = copied+c, missing+m
		}
		recs = append(recs, f)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "files", recs, func(tx *store.ImportTx, f *upload.FileRecord) error { return tx.PutFile(f) }); err != nil {
		return err
	}
	im.rep.Counts["files"] = len(recs)
	im.rep.Counts["files copied"] = copied
	if missing > 0 {
		im.rep.skip("%d local files are not in %s: their rows are imported, their URLs answer 404", missing, im.o.Uploads)
	}
	return nil
}

// copyLocal copies a local file and its formats from Strapi's uploads
// folder to Stratum's (nothing when they are the same folder, or the file
// is there with the same size).
func (im *importer) copyLocal(f *upload.FileRecord) (copied, missing int) {
	urls := []string{f.URL}
	if f.Formats != nil {
		var formats map[string]struct {
			URL string `json:"url"`
		}
		if json.Unmarshal([]byte(*f.Formats), &formats) == nil {
			for _, v := range formats {
				urls = append(urls, v.URL)
			}
		}
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, "/uploads/") {
			continue
		}
		name := path.Base(u)
		from := filepath.Join(im.o.Uploads, name)
		to := filepath.Join(im.o.UploadDir, name)
		if im.o.Uploads == "" || im.o.UploadDir == "" {
			continue
		}
		fi, err := os.Stat(from)
		if err != nil {
			missing++
			continue
		}
		if same(from, to) {
			continue
		}
		if ti, err := os.Stat(to); err == nil && ti.Size() == fi.Size() {
			continue
		}
		if err := copyFile(from, to); err != nil {
			im.rep.warn("file %d: copy %s: %v", f.ID, name, err)
			continue
		}
		copied++
	}
	return copied, missing
}

func same(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := to + ".importing"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, to)
}

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
	// Permissions: up_permissions (action) joined to roles by the link table.
	type grant struct {
		role   int64
		action string
		at     time.Time
	}
	actions := map[int64]string{}
	at := map[int64]time.Time{}
	if im.src.Has("up_permissions", "id", "action") {
		err := im.src.Rows(im.ctx, "up_permissions", nil, []string{"id"}, func(r map[string]any) error {
			id, _ := toInt(r["id"])
			actions[id] = str(r["action"])
			at[id] = timeOr(r["created_at"], time.Now().UTC())
			return nil
		})
		if err != nil {
			return err
		}
	}
	var grants []grant
	if im.src.Has("up_permissions_role_lnk", "permission_id", "role_id") {
		err := im.src.Rows(im.ctx, "up_permissions_role_lnk", []string{"permission_id", "role_id"}, []string{"id"}, func(r map[string]any) error {
			p, _ := toInt(r["permission_id"])
			ro, _ := toInt(r["role_id"])
			if rid, ok := im.roleIDs[ro]; ok && actions[p] != "" {
				grants = append(grants, grant{rid, actions[p], at[p]})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := batch(im, "permissions", grants, func(tx *store.ImportTx, g grant) error {
		return tx.PutPermission(g.role, g.action, g.at)
	}); err != nil {
		return err
	}
	im.rep.Counts["permissions"] = len(grants)
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

// jsonText is a JSON column's text, nil for NULL or JSON null.
func jsonText(v any) *string {
	if v == nil {
		return nil
	}
	s := str(v)
	if s == "" || s == "null" || !json.Valid([]byte(s)) {
		return nil
	}
	return &s
}
