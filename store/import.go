package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
	"github.com/stratum-cms/stratum/webhooks"
)

// ImportTx writes rows that come from another database (`stratum import
// strapi`) with the ids they had there. Every write is an upsert on the id,
// so writing the same rows again changes nothing and an interrupted import
// is finished by running it again. No events are written: an import is not
// a series of edits to announce to webhooks. FinishImport must follow, to
// move sequences past the ids written and to recount the tables.
type ImportTx struct {
	s       *Store
	ctx     context.Context
	tx      *sql.Tx
	touched map[string]bool
}

// Import runs fn in one write transaction.
func (s *Store) Import(ctx context.Context, fn func(*ImportTx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &ImportTx{s: s, ctx: ctx, tx: tx, touched: map[string]bool{}}
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	tables := make([]string, 0, len(t.touched))
	for tbl := range t.touched {
		tables = append(tables, tbl)
	}
	sort.Strings(tables)
	for _, tbl := range tables {
		if _, err := tx.ExecContext(ctx, bumpVersionSQL(s.d), tbl); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// upsert inserts a row or, when its id is taken, overwrites that row.
func (t *ImportTx) upsert(table string, cols []string, vals []any) error {
	set := make([]string, 0, len(cols))
	for _, c := range cols {
		if c != "id" {
			set = append(set, c+" = excluded."+c)
		}
	}
	q := "INSERT INTO " + quote(table) + " (" + strings.Join(cols, ", ") + ") VALUES (" + t.s.phs(1, len(cols)) +
		") ON CONFLICT (id) DO UPDATE SET " + strings.Join(set, ", ")
	t.s.statements.Add(1)
	if _, err := t.tx.ExecContext(t.ctx, q, vals...); err != nil {
		return fmt.Errorf("write %s: %w", table, err)
	}
	return nil
}

// PutRow writes one version of a document with its id.
func (t *ImportTx) PutRow(ct *models.ContentType, r *engine.Row) error {
	var pub any
	if r.PublishedAt != nil {
		pub = t.s.d.Time(*r.PublishedAt)
	}
	data, large := splitData(ct, r.Data)
	t.touched[ct.Table()] = true
	return t.upsert(ct.Table(), []string{"id", "document_id", "locale", "published_at", "created_at", "updated_at", "data", "large", "extra"},
		[]any{r.ID, r.DocumentID, r.Locale, pub, t.s.d.Time(r.CreatedAt), t.s.d.Time(r.UpdatedAt), data, large, string(r.Extra)})
}

// PutRows writes versions of documents with their ids, in one statement
// per 500 rows.
func (t *ImportTx) PutRows(ct *models.ContentType, rows []*engine.Row) error {
	cols := []string{"id", "document_id", "locale", "published_at", "created_at", "updated_at", "data", "large", "extra"}
	set := make([]string, 0, len(cols)-1)
	for _, c := range cols[1:] {
		set = append(set, c+" = excluded."+c)
	}
	t.touched[ct.Table()] = true
	for start := 0; start < len(rows); start += 500 {
		part := rows[start:min(start+500, len(rows))]
		values := make([]string, len(part))
		args := make([]any, 0, len(part)*len(cols))
		for i, r := range part {
			var pub any
			if r.PublishedAt != nil {
				pub = t.s.d.Time(*r.PublishedAt)
			}
			data, large := splitData(ct, r.Data)
			values[i] = "(" + t.s.phs(len(args)+1, len(args)+len(cols)) + ")"
			args = append(args, r.ID, r.DocumentID, r.Locale, pub, t.s.d.Time(r.CreatedAt), t.s.d.Time(r.UpdatedAt), data, large, string(r.Extra))
		}
		t.s.statements.Add(1)
		if _, err := t.tx.ExecContext(t.ctx, "INSERT INTO "+quote(ct.Table())+" ("+strings.Join(cols, ", ")+") VALUES "+
			strings.Join(values, ", ")+" ON CONFLICT (id) DO UPDATE SET "+strings.Join(set, ", "), args...); err != nil {
			return fmt.Errorf("write %s: %w", ct.Table(), err)
		}
	}
	return nil
}

// PutFile writes a media library row with its id.
func (t *ImportTx) PutFile(r *upload.FileRecord) error {
	return t.upsert("stratum_files", []string{"id", "document_id", "name", "alternative_text", "caption", "width", "height",
		"formats", "hash", "ext", "mime", "size", "url", "created_at", "updated_at", "focal_point", "preview_url", "provider",
		"provider_metadata"},
		[]any{r.ID, r.DocumentID, r.Name, r.AlternativeText, r.Caption, r.Width, r.Height, r.Formats, r.Hash, r.Ext, r.Mime,
			r.Size, r.URL, r.CreatedAt, r.UpdatedAt, r.FocalPoint, r.PreviewURL, nullIfEmpty(r.Provider), r.ProviderMetadata})
}

// PutRole writes a users-permissions role and answers the id it has here:
// a role of the same type that exists with another id (the public and
// authenticated roles every project starts with) is updated in place and
// keeps its id.
func (t *ImportTx) PutRole(r *auth.Role) (int64, error) {
	var id int64
	err := t.tx.QueryRowContext(t.ctx, "SELECT id FROM up_roles WHERE type = "+t.s.d.Placeholder(1), r.Type).Scan(&id)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if err == nil && id != r.ID {
		_, err = t.tx.ExecContext(t.ctx, "UPDATE up_roles SET name = "+t.s.d.Placeholder(1)+", description = "+t.s.d.Placeholder(2)+
			" WHERE id = "+t.s.d.Placeholder(3), r.Name, r.Description, id)
		return id, err
	}
	return r.ID, t.upsert("up_roles", []string{"id", "document_id", "name", "description", "type", "created_at", "updated_at"},
		[]any{r.ID, r.DocumentID, r.Name, r.Description, r.Type, r.CreatedAt, r.UpdatedAt})
}

// SetPermissions makes a role's permissions exactly actions: the others
// (the defaults a new project's roles start with) are revoked.
func (t *ImportTx) SetPermissions(roleID int64, actions []string, at time.Time) error {
	q := "DELETE FROM up_permissions WHERE role_id = " + t.s.d.Placeholder(1)
	args := []any{roleID}
	if len(actions) > 0 {
		ph := make([]string, len(actions))
		for i, a := range actions {
			args = append(args, a)
			ph[i] = t.s.d.Placeholder(i + 2)
		}
		q += " AND action NOT IN (" + strings.Join(ph, ", ") + ")"
	}
	if _, err := t.tx.ExecContext(t.ctx, q, args...); err != nil {
		return err
	}
	for _, a := range actions {
		if _, err := t.tx.ExecContext(t.ctx, "INSERT INTO up_permissions (role_id, action, created_at) VALUES ("+t.s.phs(1, 3)+
			") ON CONFLICT (role_id, action) DO NOTHING", roleID, a, at); err != nil {
			return err
		}
	}
	return nil
}

// PutUser writes a users-permissions user with its id and password hash.
func (t *ImportTx) PutUser(u *auth.User) error {
	return t.upsert("up_users", strings.Split(userCols, ", "), append([]any{u.ID}, userArgs(u)...))
}

// PutAdmin writes an admin with its id and password hash.
func (t *ImportTx) PutAdmin(a *auth.AdminUser) error {
	return t.upsert("stratum_admin_users", strings.Split(adminCols, ", "),
		[]any{a.ID, a.DocumentID, a.Firstname, a.Lastname, a.Email, a.Password, a.IsActive, a.Blocked, a.CreatedAt, a.UpdatedAt})
}

// PutToken writes an API token with its id and its stored digest.
func (t *ImportTx) PutToken(k *auth.APIToken) error {
	perms, err := tokenPermissions(k)
	if err != nil {
		return err
	}
	return t.upsert("stratum_api_tokens", strings.Split(tokenCols, ", "),
		[]any{k.ID, k.Name, k.Description, k.Type, k.AccessKey, k.LastUsedAt, k.ExpiresAt, k.Lifespan, perms, k.CreatedAt, k.UpdatedAt})
}

// PutWebhook writes a webhook with its id.
func (t *ImportTx) PutWebhook(w *webhooks.Webhook) error {
	return t.upsert("stratum_webhooks", []string{"id", "name", "url", "headers", "events", "enabled", "secret", "created_at", "updated_at"},
		append([]any{w.ID}, webhookArgs(w)...))
}

// importedSystemTables are the system tables an import writes ids into.
var importedSystemTables = []string{"up_roles", "up_permissions", "up_users", "stratum_admin_users", "stratum_api_tokens", "stratum_files",
	"stratum_webhooks"}

// FinishImport ends an import: PostgreSQL's sequences move past the ids
// written (SQLite's AUTOINCREMENT follows explicit ids by itself), and the
// counters of the content-type tables are made again from their rows.
func (s *Store) FinishImport(ctx context.Context, types []*models.ContentType) error {
	tables := append([]string{}, importedSystemTables...)
	for _, ct := range types {
		tables = append(tables, ct.Table())
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, tbl := range tables {
			if err := moveSequence(ctx, tx, s.d, tbl); err != nil {
				return err
			}
		}
		for _, ct := range types {
			if err := recountChanged(ctx, tx, s.d, ct.Table()); err != nil {
				return err
			}
		}
		return nil
	})
}

// moveSequence moves PostgreSQL's sequence of a table's id past the ids
// written with their values (SQLite's AUTOINCREMENT follows them itself).
func moveSequence(ctx context.Context, q querier, d Dialect, tbl string) error {
	if d.Name() != "postgres" {
		return nil
	}
	if _, err := q.ExecContext(ctx, "SELECT setval(pg_get_serial_sequence("+lit(quote(tbl))+", 'id'), "+
		"GREATEST((SELECT MAX(id) FROM "+quote(tbl)+"), 1), (SELECT MAX(id) FROM "+quote(tbl)+") IS NOT NULL)"); err != nil {
		return fmt.Errorf("sequence of %s: %w", tbl, err)
	}
	return nil
}

// recountChanged makes a document table's counters again from its rows and
// moves its version, so cached totals are dropped.
func recountChanged(ctx context.Context, q querier, d Dialect, tbl string) error {
	if err := recount(ctx, q, d, tbl); err != nil {
		return fmt.Errorf("count %s: %w", tbl, err)
	}
	_, err := q.ExecContext(ctx, bumpVersionSQL(d), tbl)
	return err
}

// importMarkKey is the stratum_meta key that records the source of an
// import begun in this database.
const importMarkKey = "import_source"

// BeginImport checks that an import may write here and records its source:
// the project must hold no documents, files, users, admins or API tokens,
// unless an import from the same source began here before (a second run,
// or the end of an interrupted one) or force is set. Upserts on ids would
// otherwise overwrite rows that have nothing to do with the source.
func (s *Store) BeginImport(ctx context.Context, source string, types []*models.ContentType, force bool) error {
	var mark string
	err := s.write.QueryRowContext(ctx, "SELECT value FROM stratum_meta WHERE "+quote("key")+" = "+s.d.Placeholder(1), importMarkKey).Scan(&mark)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if !force && mark != source {
		tables := []string{"stratum_files", "up_users", "stratum_admin_users", "stratum_api_tokens", "stratum_webhooks"}
		for _, ct := range types {
			tables = append(tables, ct.Table())
		}
		for _, t := range tables {
			var n int64
			if err := s.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t)).Scan(&n); err != nil {
				return fmt.Errorf("count %s: %w", t, err)
			}
			if n > 0 {
				why := "it did not come from an import"
				if mark != "" {
					why = "they came from another import"
				}
				return fmt.Errorf("the project's database already has %d rows in %s, and %s: "+
					"import into an empty project (or pass --force to overwrite rows with the same ids)", n, t, why)
			}
		}
	}
	_, err = s.write.ExecContext(ctx, "INSERT INTO stratum_meta ("+quote("key")+", value) VALUES ("+s.phs(1, 2)+
		") ON CONFLICT ("+quote("key")+") DO UPDATE SET value = excluded.value", importMarkKey, source)
	return err
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
