package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
)

// Auth's tables (roles, permissions, users, API tokens, admins, meta).
// Times are bound as time.Time, as GORM did, so rows written before and
// after read alike. Everything runs on the write pool, as auth's GORM
// handle did: on SQLite a read outside a write transaction then waits for
// it instead of reading around it.

var _ auth.Store = (*Store)(nil)

// authOps runs auth's operations on a transaction or on the write pool.
type authOps struct {
	d Dialect
	q querier
	// pooled is set outside a transaction: the reads every request makes
	// (its credential, the roles) then run again past a dead connection.
	pooled bool
}

// read runs a read, again past dead pooled connections when it is not
// part of a transaction (whose connection is the one that died).
func (o *authOps) read(ctx context.Context, fn func() error) error {
	if !o.pooled {
		return fn()
	}
	return again(ctx, fn)
}

// Tx runs fn in a transaction on the write pool.
func (s *Store) Tx(ctx context.Context, fn func(auth.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(&authOps{d: s.d, q: tx}); err != nil {
		return err
	}
	return tx.Commit()
}

// Auth runs each operation on its own.
func (s *Store) Auth() auth.Tx { return &authOps{d: s.d, q: s.write, pooled: true} }

// ph is the placeholders 1..n, comma-separated.
func (o *authOps) ph(n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = o.d.Placeholder(i + 1)
	}
	return strings.Join(p, ", ")
}

// p is the n-th placeholder.
func (o *authOps) p(n int) string { return o.d.Placeholder(n) }

// exec runs a write, telling a unique index's refusal by auth.ErrDuplicate.
func (o *authOps) exec(ctx context.Context, q string, args ...any) error {
	_, err := o.q.ExecContext(ctx, q, args...)
	return o.dup(err)
}

func (o *authOps) dup(err error) error {
	if err != nil && o.d.IsUniqueViolation(err) {
		return fmt.Errorf("%w: %w", auth.ErrDuplicate, err)
	}
	return err
}

// insert runs an INSERT ... RETURNING id.
func (o *authOps) insert(ctx context.Context, id *int64, q string, args ...any) error {
	return o.dup(o.q.QueryRowContext(ctx, q+" RETURNING id", args...).Scan(id))
}

func (o *authOps) count(ctx context.Context, q string, args ...any) (int64, error) {
	var n int64
	err := o.q.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

// one reads a single row with scan; nil when there is none.
func one[T any](row *sql.Row, scan func(scanner) (*T, error)) (*T, error) {
	r, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// all reads every row with scan.
func all[T any](rows *sql.Rows, err error, scan func(scanner) (*T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

// --- roles and permissions ---------------------------------------------

const roleCols = "id, document_id, name, description, type, created_at, updated_at, data, extra"

func scanRole(row scanner) (*auth.Role, error) {
	r := &auth.Role{}
	return r, row.Scan(&r.ID, &r.DocumentID, &r.Name, &r.Description, &r.Type, &r.CreatedAt, &r.UpdatedAt, &r.Data, &r.Extra)
}

func (o *authOps) Roles(ctx context.Context) (out []auth.Role, err error) {
	err = o.read(ctx, func() error {
		rows, err := o.q.QueryContext(ctx, "SELECT "+roleCols+" FROM up_roles ORDER BY id")
		out, err = all(rows, err, scanRole)
		return err
	})
	return out, err
}

func (o *authOps) RoleByID(ctx context.Context, id int64) (*auth.Role, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+roleCols+" FROM up_roles WHERE id = "+o.p(1), id), scanRole)
}

func (o *authOps) RoleByType(ctx context.Context, typ string) (*auth.Role, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+roleCols+" FROM up_roles WHERE type = "+o.p(1)+" ORDER BY id LIMIT 1", typ), scanRole)
}

func (o *authOps) RoleByTypeOrName(ctx context.Context, typ, name string) (*auth.Role, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+roleCols+" FROM up_roles WHERE type = "+o.p(1)+" OR name = "+o.p(2)+
		" ORDER BY id LIMIT 1", typ, name), scanRole)
}

func (o *authOps) RoleTaken(ctx context.Context, name, typ string, exceptID int64) (bool, error) {
	q, args := "SELECT COUNT(*) FROM up_roles WHERE name = "+o.p(1)+" AND id <> "+o.p(2), []any{name, exceptID}
	if typ != "" {
		q, args = "SELECT COUNT(*) FROM up_roles WHERE (name = "+o.p(1)+" OR type = "+o.p(2)+") AND id <> "+o.p(3), []any{name, typ, exceptID}
	}
	n, err := o.count(ctx, q, args...)
	return n > 0, err
}

func (o *authOps) CreateRole(ctx context.Context, r *auth.Role) error {
	return o.insert(ctx, &r.ID, "INSERT INTO up_roles (document_id, name, description, type, created_at, updated_at, data, extra) VALUES ("+o.ph(8)+")",
		r.DocumentID, r.Name, r.Description, r.Type, r.CreatedAt, r.UpdatedAt, objectOrEmpty(r.Data), objectOrEmpty(r.Extra))
}

func (o *authOps) SaveRole(ctx context.Context, r *auth.Role) error {
	return o.exec(ctx, "UPDATE up_roles SET document_id = "+o.p(1)+", name = "+o.p(2)+", description = "+o.p(3)+", type = "+o.p(4)+
		", created_at = "+o.p(5)+", updated_at = "+o.p(6)+", data = "+o.p(7)+", extra = "+o.p(8)+" WHERE id = "+o.p(9),
		r.DocumentID, r.Name, r.Description, r.Type, r.CreatedAt, r.UpdatedAt, objectOrEmpty(r.Data), objectOrEmpty(r.Extra), r.ID)
}

func (o *authOps) DeleteRole(ctx context.Context, id int64) error {
	return o.exec(ctx, "DELETE FROM up_roles WHERE id = "+o.p(1), id)
}

func scanPermission(row scanner) (*auth.Permission, error) {
	p := &auth.Permission{}
	return p, row.Scan(&p.ID, &p.RoleID, &p.Action, &p.CreatedAt)
}

func (o *authOps) Permissions(ctx context.Context, roleIDs []int64) ([]auth.Permission, error) {
	q := "SELECT id, role_id, action, created_at FROM up_permissions"
	var args []any
	if roleIDs != nil {
		if len(roleIDs) == 0 {
			return nil, nil
		}
		var cond string
		cond, args = inArgs(o.d, "role_id", roleIDs)
		q += " WHERE " + cond
	}
	rows, err := o.q.QueryContext(ctx, q+" ORDER BY action, id", args...)
	return all(rows, err, scanPermission)
}

func (o *authOps) Grant(ctx context.Context, roleID int64, actions []string, at time.Time) error {
	if len(actions) == 0 {
		return nil
	}
	vals := make([]string, len(actions))
	args := make([]any, 0, 3*len(actions))
	for i, a := range actions {
		vals[i] = "(" + o.p(3*i+1) + ", " + o.p(3*i+2) + ", " + o.p(3*i+3) + ")"
		args = append(args, roleID, a, at)
	}
	return o.exec(ctx, "INSERT INTO up_permissions (role_id, action, created_at) VALUES "+strings.Join(vals, ", ")+
		" ON CONFLICT DO NOTHING", args...)
}

func (o *authOps) Revoke(ctx context.Context, roleID int64, prefix string) error {
	if prefix == "" {
		return o.exec(ctx, "DELETE FROM up_permissions WHERE role_id = "+o.p(1), roleID)
	}
	return o.exec(ctx, "DELETE FROM up_permissions WHERE role_id = "+o.p(1)+" AND action LIKE "+o.p(2)+` ESCAPE '\'`,
		roleID, escapeLike(prefix)+"%")
}

func (o *authOps) UsersPerRole(ctx context.Context, roleIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(roleIDs) == 0 {
		return out, nil
	}
	cond, args := inArgs(o.d, "role_id", roleIDs)
	rows, err := o.q.QueryContext(ctx, "SELECT role_id, COUNT(*) FROM up_users WHERE "+cond+" GROUP BY role_id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

func (o *authOps) MoveUsers(ctx context.Context, from, to int64) error {
	return o.exec(ctx, "UPDATE up_users SET role_id = "+o.p(1)+" WHERE role_id = "+o.p(2), to, from)
}

// --- users -------------------------------------------------------------

const userCols = "id, document_id, username, email, provider, password, reset_password_token, confirmation_token, " +
	"confirmed, blocked, role_id, created_at, updated_at, published_at, tokens_valid_after, data, extra"

func scanUser(row scanner) (*auth.User, error) {
	u := &auth.User{}
	return u, row.Scan(userDest(u)...)
}

func userDest(u *auth.User) []any {
	return []any{&u.ID, &u.DocumentID, &u.Username, &u.Email, &u.Provider, &u.Password, &u.ResetPasswordToken,
		&u.ConfirmationToken, &u.Confirmed, &u.Blocked, &u.RoleID, &u.CreatedAt, &u.UpdatedAt, &u.PublishedAt, &u.TokensValidAfter,
		&u.Data, &u.Extra}
}

func (o *authOps) UserByID(ctx context.Context, id int64) (u *auth.User, err error) {
	err = o.read(ctx, func() error {
		u, err = one(o.q.QueryRowContext(ctx, "SELECT "+userCols+" FROM up_users WHERE id = "+o.p(1), id), scanUser)
		return err
	})
	return u, err
}

func (o *authOps) LocalUser(ctx context.Context, email, username string) (*auth.User, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+userCols+" FROM up_users WHERE provider = 'local' AND (email = "+o.p(1)+
		" OR username = "+o.p(2)+") ORDER BY id LIMIT 1", email, username), scanUser)
}

func (o *authOps) UserByEmail(ctx context.Context, email string) (*auth.User, error) {
	return o.userWhere(ctx, "email", email)
}

func (o *authOps) UserByResetToken(ctx context.Context, digest string) (*auth.User, error) {
	return o.userWhere(ctx, "reset_password_token", digest)
}

func (o *authOps) UserByConfirmationToken(ctx context.Context, digest string) (*auth.User, error) {
	return o.userWhere(ctx, "confirmation_token", digest)
}

// userWhere is the first (by id) user whose column holds value; col is
// one of the names above, never input.
func (o *authOps) userWhere(ctx context.Context, col, value string) (u *auth.User, err error) {
	err = o.read(ctx, func() error {
		u, err = one(o.q.QueryRowContext(ctx, "SELECT "+userCols+" FROM up_users WHERE "+col+" = "+o.p(1)+" ORDER BY id LIMIT 1", value), scanUser)
		return err
	})
	return u, err
}

func (o *authOps) UserConflicts(ctx context.Context, username, email string, exceptID int64) ([]auth.User, error) {
	rows, err := o.q.QueryContext(ctx, "SELECT id, username, email FROM up_users WHERE (username = "+o.p(1)+" OR email = "+o.p(2)+
		") AND id <> "+o.p(3), username, email, exceptID)
	return all(rows, err, func(row scanner) (*auth.User, error) {
		u := &auth.User{}
		return u, row.Scan(&u.ID, &u.Username, &u.Email)
	})
}

func (o *authOps) CreateUser(ctx context.Context, u *auth.User) error {
	return o.insert(ctx, &u.ID, "INSERT INTO up_users ("+strings.TrimPrefix(userCols, "id, ")+") VALUES ("+o.ph(16)+")",
		userArgs(u)...)
}

func userArgs(u *auth.User) []any {
	return []any{u.DocumentID, u.Username, u.Email, u.Provider, u.Password, u.ResetPasswordToken, u.ConfirmationToken,
		u.Confirmed, u.Blocked, u.RoleID, u.CreatedAt, u.UpdatedAt, u.PublishedAt, u.TokensValidAfter,
		objectOrEmpty(u.Data), objectOrEmpty(u.Extra)}
}

// objectOrEmpty is a JSON object column's value: {} when there is none.
func objectOrEmpty(b []byte) string {
	if len(b) == 0 {
		return "{}"
	}
	return string(b)
}

func (o *authOps) SaveUser(ctx context.Context, u *auth.User) error {
	cols := strings.Split(strings.TrimPrefix(userCols, "id, "), ", ")
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = c + " = " + o.p(i+1)
	}
	return o.exec(ctx, "UPDATE up_users SET "+strings.Join(set, ", ")+" WHERE id = "+o.p(len(cols)+1), append(userArgs(u), u.ID)...)
}

func (o *authOps) DeleteUser(ctx context.Context, id int64) error {
	return o.exec(ctx, "DELETE FROM up_users WHERE id = "+o.p(1), id)
}

// --- API tokens ----------------------------------------------------------

const tokenCols = "id, name, description, type, access_key, last_used_at, expires_at, lifespan, permissions, created_at, updated_at"

func scanToken(row scanner) (*auth.APIToken, error) {
	t := &auth.APIToken{}
	var perms sql.NullString
	if err := row.Scan(&t.ID, &t.Name, &t.Description, &t.Type, &t.AccessKey, &t.LastUsedAt, &t.ExpiresAt, &t.Lifespan,
		&perms, &t.CreatedAt, &t.UpdatedAt); err != nil {
		return nil, err
	}
	if perms.String != "" {
		if err := json.Unmarshal([]byte(perms.String), &t.Permissions); err != nil {
			return nil, fmt.Errorf("token %d: permissions: %w", t.ID, err)
		}
	}
	return t, nil
}

// tokenPermissions is the permissions column: JSON text, as GORM's json
// serializer wrote it.
func tokenPermissions(t *auth.APIToken) (string, error) {
	b, err := json.Marshal(t.Permissions)
	return string(b), err
}

func (o *authOps) Tokens(ctx context.Context) ([]auth.APIToken, error) {
	rows, err := o.q.QueryContext(ctx, "SELECT "+tokenCols+" FROM stratum_api_tokens ORDER BY name")
	return all(rows, err, scanToken)
}

func (o *authOps) TokenByID(ctx context.Context, id int64) (*auth.APIToken, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+tokenCols+" FROM stratum_api_tokens WHERE id = "+o.p(1), id), scanToken)
}

func (o *authOps) TokenByAccessKey(ctx context.Context, key string) (t *auth.APIToken, err error) {
	err = o.read(ctx, func() error {
		t, err = one(o.q.QueryRowContext(ctx, "SELECT "+tokenCols+" FROM stratum_api_tokens WHERE access_key = "+o.p(1), key), scanToken)
		return err
	})
	return t, err
}

func (o *authOps) TokenNameTaken(ctx context.Context, name string, exceptID int64) (bool, error) {
	n, err := o.count(ctx, "SELECT COUNT(*) FROM stratum_api_tokens WHERE name = "+o.p(1)+" AND id <> "+o.p(2), name, exceptID)
	return n > 0, err
}

func (o *authOps) CreateToken(ctx context.Context, t *auth.APIToken) error {
	perms, err := tokenPermissions(t)
	if err != nil {
		return err
	}
	return o.insert(ctx, &t.ID, "INSERT INTO stratum_api_tokens ("+strings.TrimPrefix(tokenCols, "id, ")+") VALUES ("+o.ph(10)+")",
		t.Name, t.Description, t.Type, t.AccessKey, t.LastUsedAt, t.ExpiresAt, t.Lifespan, perms, t.CreatedAt, t.UpdatedAt)
}

func (o *authOps) SaveToken(ctx context.Context, t *auth.APIToken) error {
	perms, err := tokenPermissions(t)
	if err != nil {
		return err
	}
	return o.exec(ctx, "UPDATE stratum_api_tokens SET name = "+o.p(1)+", description = "+o.p(2)+", type = "+o.p(3)+
		", access_key = "+o.p(4)+", last_used_at = "+o.p(5)+", expires_at = "+o.p(6)+", lifespan = "+o.p(7)+
		", permissions = "+o.p(8)+", created_at = "+o.p(9)+", updated_at = "+o.p(10)+" WHERE id = "+o.p(11),
		t.Name, t.Description, t.Type, t.AccessKey, t.LastUsedAt, t.ExpiresAt, t.Lifespan, perms, t.CreatedAt, t.UpdatedAt, t.ID)
}

func (o *authOps) DeleteToken(ctx context.Context, id int64) error {
	return o.exec(ctx, "DELETE FROM stratum_api_tokens WHERE id = "+o.p(1), id)
}

func (o *authOps) TouchToken(ctx context.Context, id int64, at time.Time) error {
	return o.exec(ctx, "UPDATE stratum_api_tokens SET last_used_at = "+o.p(1)+" WHERE id = "+o.p(2), at, id)
}

// --- admins --------------------------------------------------------------

const adminCols = "id, document_id, firstname, lastname, email, password, is_active, blocked, created_at, updated_at"

func scanAdmin(row scanner) (*auth.AdminUser, error) {
	a := &auth.AdminUser{}
	return a, row.Scan(&a.ID, &a.DocumentID, &a.Firstname, &a.Lastname, &a.Email, &a.Password, &a.IsActive, &a.Blocked,
		&a.CreatedAt, &a.UpdatedAt)
}

func (o *authOps) AdminCount(ctx context.Context) (int64, error) {
	return o.count(ctx, "SELECT COUNT(*) FROM stratum_admin_users")
}

func (o *authOps) AdminByID(ctx context.Context, id int64) (*auth.AdminUser, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+adminCols+" FROM stratum_admin_users WHERE id = "+o.p(1), id), scanAdmin)
}

func (o *authOps) AdminByEmail(ctx context.Context, email string) (*auth.AdminUser, error) {
	return one(o.q.QueryRowContext(ctx, "SELECT "+adminCols+" FROM stratum_admin_users WHERE email = "+o.p(1)+" ORDER BY id LIMIT 1",
		email), scanAdmin)
}

func (o *authOps) CreateAdmin(ctx context.Context, a *auth.AdminUser) error {
	return o.insert(ctx, &a.ID, "INSERT INTO stratum_admin_users ("+strings.TrimPrefix(adminCols, "id, ")+") VALUES ("+o.ph(9)+")",
		a.DocumentID, a.Firstname, a.Lastname, a.Email, a.Password, a.IsActive, a.Blocked, a.CreatedAt, a.UpdatedAt)
}

// firstAdminLock is the PostgreSQL advisory lock that serialises
// register-admin across nodes; SQLite serialises write transactions
// already.
const firstAdminLock = 0x5374726174756d01

func (o *authOps) LockFirstAdmin(ctx context.Context) error {
	if o.d.Name() != "postgres" {
		return nil
	}
	_, err := o.q.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(firstAdminLock))
	return err
}

// --- meta ----------------------------------------------------------------

func (o *authOps) Meta(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := o.q.QueryRowContext(ctx, `SELECT value FROM stratum_meta WHERE "key" = `+o.p(1), key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return v, err == nil, err
}

func (o *authOps) PutMetaIfAbsent(ctx context.Context, key, value string) error {
	return o.exec(ctx, `INSERT INTO stratum_meta ("key", value) VALUES (`+o.ph(2)+`) ON CONFLICT ("key") DO NOTHING`, key, value)
}
