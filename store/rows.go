package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

const rowCols = "t0.id, t0.document_id, t0.locale, t0.published_at, t0.created_at, t0.updated_at, t0.data, t0.large"

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// List runs one SELECT for a page of rows.
func (s *Store) List(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) ([]engine.Row, error) {
	if rs, ok := relSortOf(q); ok && !ct.System {
		return s.listByRelationSort(ctx, ct, q, rs)
	}
	c := &compiler{d: s.d}
	if ct.System { // users, roles, files, admins: their columns (system.go)
		cols, attrs := systemSelect(ct)
		stmt, err := s.listSQL(c, ct, q, cols)
		if err != nil {
			return nil, err
		}
		return s.queryRows(ctx, s.read, stmt, c.args, func(sc scanner) (engine.Row, error) { return s.scanSystem(sc, attrs) })
	}
	c.resolve = s.resolver(ctx)
	stmt, err := s.listSQL(c, ct, q, docCols(q))
	if err != nil {
		return nil, err
	}
	return s.queryHint(ctx, s.read, stmt, c.args, q.WithExtra, q.Limit)
}

// docCols are the columns a list of documents reads.
func docCols(q *engine.ListQuery) string {
	if q.WithExtra {
		return rowCols + ", t0.extra"
	}
	return rowCols
}

// listSQL is a list's statement selecting cols; its values are added to
// c's arguments (c may hold other statements' before it).
func (s *Store) listSQL(c *compiler, ct *models.ContentType, q *engine.ListQuery, cols string) (string, error) {
	c.joins = nil
	where, err := c.where(ct, q)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	order := c.orderBy(q.Sort, q.Version)
	b.WriteString("SELECT " + cols + " FROM " + c.from(ct) + " WHERE " + where + " ORDER BY " + order)
	if q.Limit >= 0 {
		b.WriteString(" LIMIT " + strconv.Itoa(q.Limit))
	} else if q.Start > 0 && s.d.Name() == "sqlite" {
		b.WriteString(" LIMIT -1")
	}
	if q.Start > 0 {
		b.WriteString(" OFFSET " + strconv.Itoa(q.Start))
	}
	return b.String(), nil
}

// countStatement is the COUNT of a filtered list, its compiler (values,
// tables read) and its key in the count cache.
func (s *Store) countStatement(r *idResolver, ct *models.ContentType, q *engine.ListQuery) (*compiler, string, string, error) {
	c := &compiler{d: s.d, resolve: r}
	where, err := c.where(ct, q)
	if err != nil {
		return nil, "", "", err
	}
	sql := "SELECT COUNT(*) FROM " + quote(ct.Table()) + " t0 WHERE " + where
	return c, sql, stmtKey(sql, c.args), nil
}

// stmtKey names a statement with its values, for the caches that remember
// answers (count cache, resolved ids, unique checks): each value is quoted,
// so "ab","c" and "a","bc" differ.
func stmtKey(q string, args []any) string { return q + "\x00" + fmt.Sprintf("%#v", args) }

// Count runs the COUNT that goes with a List.
func (s *Store) Count(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) (int64, error) {
	if ct.System {
		return s.countSystem(ctx, ct, q)
	}
	if n, ok, err := s.fastCount(ctx, ct, q); ok {
		return n, err
	}
	c, sql, key, err := s.countStatement(s.resolver(ctx), ct, q)
	if err != nil {
		return 0, err
	}
	return s.countCached(ctx, ct, c, sql, key)
}

// countCached runs a countStatement, or answers it from the count cache
// while the versions of the tables it reads stay the same.
func (s *Store) countCached(ctx context.Context, ct *models.ContentType, c *compiler, sql, key string) (int64, error) {
	s.statements.Add(1)
	versions, err := s.versions(ctx, append(c.tables, ct.Table()))
	if err != nil {
		return 0, err
	}
	if n, ok := s.counts.get(key, versions); ok && !c.uncached {
		return n, nil
	}
	n, err := s.countNow(ctx, c, sql)
	if err != nil {
		return 0, err
	}
	s.counts.put(key, versions, n)
	return n, nil
}

// countNow runs a countStatement.
func (s *Store) countNow(ctx context.Context, c *compiler, sql string) (int64, error) {
	var n int64
	s.statements.Add(1)
	err := again(ctx, func() error { return s.read.QueryRowContext(ctx, sql, c.args...).Scan(&n) })
	return n, err
}

func (s *Store) query(ctx context.Context, db querier, q string, args []any, extra bool) ([]engine.Row, error) {
	return s.queryHint(ctx, db, q, args, extra, 0)
}

// queryHint is query for about hint rows (a page's limit; 0 or less: unknown).
func (s *Store) queryHint(ctx context.Context, db querier, q string, args []any, extra bool, hint int) ([]engine.Row, error) {
	var out []engine.Row
	if hint > 0 {
		out = make([]engine.Row, 0, min(hint, 100))
	}
	err := s.readRows(ctx, db, q, args, rowShape{extra: extra}, func() { out = out[:0] },
		func(_ int, r engine.Row, _ int64) error {
			out = append(out, r)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// queryRows runs a SELECT of rows (retried when the database asks) and
// reads each with scan.
func (s *Store) queryRows(ctx context.Context, db querier, q string, args []any, scan func(scanner) (engine.Row, error)) ([]engine.Row, error) {
	s.statements.Add(1)
	var out []engine.Row
	err := sqlRead(ctx, db, q, args, func() { out = out[:0] }, func(rows *sql.Rows) error {
		r, err := scan(rows)
		if err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sqlRead runs q through database/sql and calls each with every row. The
// whole read runs again on another connection when its connection was
// lost or a prepared statement went stale (another node changed a
// column's type: that fails at the first row, not at the query), after
// reset; inside a transaction nothing can run again (an error aborts it),
// so the first error is the one to tell.
func sqlRead(ctx context.Context, db querier, q string, args []any, reset func(), each func(*sql.Rows) error) error {
	retry := again
	if _, inTx := db.(*sql.Tx); inTx {
		retry = func(_ context.Context, fn func() error) error { return fn() }
	}
	return retry(ctx, func() error {
		reset()
		rows, err := db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := each(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

type scanner interface{ Scan(dest ...any) error }

func (s *Store) scan(sc scanner, extra bool) (engine.Row, error) {
	var r engine.Row
	var pub, created, updated any
	// From *sql.Rows, data and large are read as the driver's buffers
	// (valid until the next row) and joined into one new slice, where
	// scanning into []byte copied each of them first. *sql.Row refuses
	// RawBytes.
	var data, large []byte
	var rawData, rawLarge sql.RawBytes
	raw := false
	switch sc.(type) {
	case *sql.Rows, shaped:
		raw = true
	}
	dest := []any{&r.ID, &r.DocumentID, &r.Locale, &pub, &created, &updated, &data, &large}
	if raw {
		dest[6], dest[7] = &rawData, &rawLarge
	}
	if extra {
		dest = append(dest, &r.Extra)
	}
	if err := sc.Scan(dest...); err != nil {
		return r, err
	}
	if raw {
		r.Data = joinedCopy(rawData, rawLarge)
	} else {
		r.Data = joinObjects(data, large)
	}
	var err error
	if pub != nil {
		t, e := toTime(pub)
		r.PublishedAt, err = &t, e
	}
	if err == nil {
		r.CreatedAt, err = toTime(created)
	}
	if err == nil {
		r.UpdatedAt, err = toTime(updated)
	}
	return r, err
}

func toTime(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case string:
		return time.Parse(time.RFC3339Nano, t)
	case []byte:
		return time.Parse(time.RFC3339Nano, string(t))
	}
	return time.Time{}, fmt.Errorf("unexpected time value %T", v)
}

// Write runs fn in a transaction on the write pool, behind the schema
// fence (fence.go).
func (s *Store) Write(ctx context.Context, fn func(engine.Tx) error) error {
	return s.writeTx(ctx, true, fn)
}

// writeTx runs fn in a transaction; fenced reads the schema version under
// the shared fence first (a schema change itself takes it exclusively).
func (s *Store) writeTx(ctx context.Context, fenced bool, fn func(engine.Tx) error) error {
	var opts *sql.TxOptions
	if s.writers != nil {
		// The fence reads the version after its lock is granted only
		// under READ COMMITTED (a server may default to another level).
		opts = &sql.TxOptions{Isolation: sql.LevelReadCommitted}
		if fenced {
			select {
			case s.writers <- struct{}{}:
				defer func() { <-s.writers }()
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	var tx *sql.Tx
	var version int64
	err := again(ctx, func() (err error) {
		if tx, err = s.write.BeginTx(ctx, opts); err != nil || !fenced {
			return err
		}
		if version, err = s.fence(ctx, tx); err != nil {
			_ = tx.Rollback()
		}
		return err
	})
	if err != nil {
		return err
	}
	t := &txn{s: s, tx: tx, ctx: ctx, schemaVersion: version}
	err = fn(t)
	if err == nil {
		err = t.flushCounts()
	}
	if err == nil { // what flushCounts did not take along
		err = t.flushEvents()
	}
	if err != nil {
		_ = tx.Rollback()
		if s.d.IsUniqueViolation(err) {
			return errors.Join(engine.ErrUniqueViolation, err)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		if s.d.IsUniqueViolation(err) {
			return errors.Join(engine.ErrUniqueViolation, err)
		}
		return err
	}
	return nil
}

type txn struct {
	s             *Store
	tx            *sql.Tx
	ctx           context.Context
	deltas        map[countKey]int64
	touched       map[string]bool
	schemaVersion int64 // read behind the fence; 0 in a schema change's own transaction
	// events wait for the commit, to be written in one statement.
	events []*engine.Event
	// taken remembers unique checks until the transaction writes a row
	// (a create checks each unique value for its draft and its published
	// version: the same question twice).
	taken map[string]bool
}

// count notes one statement and returns the transaction to run it on.
func (t *txn) count() *sql.Tx {
	t.s.statements.Add(1)
	return t.tx
}

func (t *txn) ph(n int) string { return t.s.d.Placeholder(n) }

func (t *txn) Get(ct *models.ContentType, documentID, locale string, v engine.Version) (*engine.Row, error) {
	args := []any{documentID}
	loc := ""
	if locale != query.AllLocales {
		loc = " AND t0.locale = " + t.ph(2)
		args = append(args, locale)
	}
	q := "SELECT " + rowCols + ", t0.extra FROM " + quote(ct.Table()) + " t0 WHERE t0.document_id = " + t.ph(1) +
		loc + " AND " + versionCond("t0", v) + " ORDER BY t0.published_at IS NULL DESC, t0.id LIMIT 1"
	if t.s.d.Name() == "postgres" {
		q += " FOR UPDATE"
	}
	r, err := t.s.scan(t.count().QueryRowContext(t.ctx, q, args...), true)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Insert writes rows of one type in one statement (a create's draft and
// published version: one round trip, not two) and sets their ids.
func (t *txn) Insert(ct *models.ContentType, rows ...*engine.Row) error {
	if len(rows) == 0 {
		return nil
	}
	t.taken = nil
	values := make([]string, len(rows))
	args := make([]any, 0, 8*len(rows))
	for i, r := range rows {
		var pub any
		if r.PublishedAt != nil {
			pub = t.s.d.Time(*r.PublishedAt)
		}
		data, large := splitData(ct, r.Data)
		values[i] = "(" + t.s.phs(8*i+1, 8*i+8) + ")"
		args = append(args, r.DocumentID, r.Locale, pub, t.s.d.Time(r.CreatedAt), t.s.d.Time(r.UpdatedAt), data, large, string(r.Extra))
	}
	q := "INSERT INTO " + quote(ct.Table()) + " (document_id, locale, published_at, created_at, updated_at, data, large, extra) VALUES " +
		strings.Join(values, ", ") + " RETURNING id"
	res, err := t.count().QueryContext(t.ctx, q, args...)
	if err != nil {
		return err
	}
	defer res.Close()
	var ids []int64
	for res.Next() {
		var id int64
		if err := res.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := res.Err(); err != nil {
		return err
	}
	if len(ids) != len(rows) {
		return fmt.Errorf("insert into %s returned %d ids for %d rows", ct.Table(), len(ids), len(rows))
	}
	// RETURNING promises no order; the ids, drawn from the sequence as the
	// VALUES are inserted one by one, rise in the order of the rows.
	slices.Sort(ids)
	for i, r := range rows {
		r.ID = ids[i]
		t.countDelta(ct, r.PublishedAt != nil, r.Locale, 1)
	}
	return nil
}

func (t *txn) Update(ct *models.ContentType, r *engine.Row) error {
	t.taken = nil
	var pub any
	if r.PublishedAt != nil {
		pub = t.s.d.Time(*r.PublishedAt)
	}
	t.touch(ct.Table())
	data, large := splitData(ct, r.Data)
	q := "UPDATE " + quote(ct.Table()) + " SET published_at = " + t.ph(1) + ", updated_at = " + t.ph(2) +
		", data = " + t.ph(3) + ", large = " + t.ph(4) + ", extra = " + t.ph(5) + " WHERE id = " + t.ph(6)
	_, err := t.count().ExecContext(t.ctx, q, pub, t.s.d.Time(r.UpdatedAt), data, large, string(r.Extra), r.ID)
	return err
}

func (t *txn) Delete(ct *models.ContentType, documentID, locale string, v engine.Version) (int64, error) {
	t.taken = nil
	q := "DELETE FROM " + quote(ct.Table()) + " WHERE document_id = " + t.ph(1) + " AND " + versionCond(quote(ct.Table()), v)
	args := []any{documentID}
	if locale != query.AllLocales {
		q += " AND locale = " + t.ph(2)
		args = append(args, locale)
	}
	return t.deleteCounted(ct, q, args)
}

// deleteCounted runs a DELETE and takes its rows off the counters.
func (t *txn) deleteCounted(ct *models.ContentType, q string, args []any) (int64, error) {
	rows, err := t.count().QueryContext(t.ctx, q+" RETURNING published_at IS NOT NULL, locale", args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		var published bool
		var locale string
		if err := rows.Scan(&published, &locale); err != nil {
			return n, err
		}
		t.countDelta(ct, published, locale, -1)
		n++
	}
	return n, rows.Err()
}

func (t *txn) Taken(ct *models.ContentType, a *models.Attribute, value any, locale, documentID string) (bool, error) {
	// The expression matches the unique index's, so PostgreSQL uses it.
	q := "SELECT 1 FROM " + quote(ct.Table()) + " t0 WHERE t0.published_at IS NOT NULL AND (" +
		t.s.d.JSONText("t0."+engine.Column(a), a.Name) + ") = " + t.ph(1) + " AND t0.locale = " + t.ph(2) +
		" AND t0.document_id <> " + t.ph(3) + " LIMIT 1"
	args := []any{uniqueText(t.s.d, value), locale, documentID}
	if ct.System {
		// A user's or role's extension attribute: one row per document.
		q = "SELECT 1 FROM " + quote(ct.Table()) + " t0 WHERE (" + t.s.d.JSONText("t0."+engine.Column(a), a.Name) +
			") = " + t.ph(1) + " AND t0.document_id <> " + t.ph(2) + " LIMIT 1"
		args = []any{uniqueText(t.s.d, value), documentID}
	}
	key := stmtKey(q, args)
	if taken, ok := t.taken[key]; ok {
		return taken, nil
	}
	var one int
	err := t.count().QueryRowContext(t.ctx, q, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	} else if err != nil {
		return false, err
	}
	if t.taken == nil {
		t.taken = map[string]bool{}
	}
	t.taken[key] = one == 1
	return one == 1, nil
}

// uniqueText is the value as the JSON text extraction yields it.
func uniqueText(d Dialect, v any) any {
	if d.Name() == "sqlite" {
		return v
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func (t *txn) Exists(ct *models.ContentType, ids []string) (map[string]bool, error) {
	found, err := t.ExistAll([]engine.IDSet{{Type: ct, DocumentIDs: ids}})
	if err != nil {
		return nil, err
	}
	return found[0], nil
}

func (t *txn) ExistAll(sets []engine.IDSet) ([]map[string]bool, error) {
	out := make([]map[string]bool, len(sets))
	var parts []string
	var args []any
	for i, set := range sets {
		out[i] = map[string]bool{}
		if len(set.DocumentIDs) == 0 {
			continue
		}
		cond := inList(t.s.d, "document_id", set.DocumentIDs, func(v any) string {
			args = append(args, v)
			return t.ph(len(args))
		})
		parts = append(parts, "SELECT DISTINCT "+strconv.Itoa(i)+", document_id FROM "+quote(set.Type.Table())+" WHERE "+cond)
	}
	if len(parts) == 0 {
		return out, nil
	}
	rows, err := t.count().QueryContext(t.ctx, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var id string
		if err := rows.Scan(&i, &id); err != nil {
			return nil, err
		}
		out[i][id] = true
	}
	return out, rows.Err()
}

func (t *txn) RemoveReference(ref models.Reference, documentID string) error {
	t.touch(ref.Owner.Table())
	tbl, a := quote(ref.Owner.Table()), ref.Attr
	var q string
	pg := t.s.d.Name() == "postgres"
	switch {
	case !a.IsToMany() && pg:
		q = "UPDATE " + tbl + " SET extra = jsonb_set(extra, " + lit("{"+a.Name+"}") + ", 'null'::jsonb) WHERE extra->>" + lit(a.Name) + " = $1"
	case !a.IsToMany():
		q = "UPDATE " + tbl + " SET extra = json_set(extra, " + lit("$."+a.Name) + ", json('null')) WHERE extra->>" + lit(a.Name) + " = ?"
	case pg:
		q = "UPDATE " + tbl + " SET extra = jsonb_set(extra, " + lit("{"+a.Name+"}") + ", COALESCE((SELECT jsonb_agg(e) FROM jsonb_array_elements(extra->" +
			lit(a.Name) + ") e WHERE e <> to_jsonb($1::text)), '[]'::jsonb)) WHERE extra->" + lit(a.Name) + " @> jsonb_build_array($1::text)"
	default:
		q = "UPDATE " + tbl + " SET extra = json_set(extra, " + lit("$."+a.Name) + ", json((SELECT json_group_array(value) FROM json_each(" + tbl +
			".extra, " + lit("$."+a.Name) + ") WHERE value <> ?1))) WHERE EXISTS (SELECT 1 FROM json_each(" + tbl + ".extra, " + lit("$."+a.Name) + ") WHERE value = ?1)"
	}
	_, err := t.count().ExecContext(t.ctx, q, documentID)
	return err
}

func (t *txn) FirstDocumentID(ct *models.ContentType) (string, error) {
	var id string
	err := t.count().QueryRowContext(t.ctx, "SELECT document_id FROM "+quote(ct.Table())+" ORDER BY id LIMIT 1").Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

func (t *txn) Meta(key string) (string, bool, error) {
	var v string
	err := t.count().QueryRowContext(t.ctx, "SELECT value FROM stratum_meta WHERE key = "+t.ph(1), key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return v, err == nil, err
}

func (t *txn) SetMeta(key, value string) error {
	_, err := t.count().ExecContext(t.ctx, "INSERT INTO stratum_meta (key, value) VALUES ("+t.ph(1)+", "+t.ph(2)+
		") ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
	return err
}

func (t *txn) DocumentIDs(ct *models.ContentType, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := inArgs(t.s.d, "id", ids)
	rows, err := t.count().QueryContext(t.ctx, "SELECT id, document_id FROM "+quote(ct.Table())+" WHERE "+cond, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var doc string
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		out[id] = doc
	}
	return out, rows.Err()
}

func (t *txn) Lock(ct *models.ContentType) error {
	if t.s.d.Name() != "postgres" {
		return nil // SQLite has one writer connection: writes are already serial
	}
	_, err := t.count().ExecContext(t.ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", ct.Table())
	return err
}

func (t *txn) Referencing(ref models.Reference, documentID string) ([]string, error) {
	c := &compiler{d: t.s.d}
	cond := c.refCond(ref.Attr, []string{documentID})
	q := "SELECT t0.document_id, MIN(t0.id) FROM " + quote(ref.Owner.Table()) + " t0 WHERE " + cond +
		" GROUP BY t0.document_id ORDER BY MIN(t0.id)"
	rows, err := t.count().QueryContext(t.ctx, q, c.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		var first int64
		if err := rows.Scan(&id, &first); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func (t *txn) AllRows(ct *models.ContentType, ids []string) ([]engine.Row, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	c := &compiler{d: t.s.d}
	where, err := c.where(ct, &engine.ListQuery{Version: engine.VersionAny, Locale: query.AllLocales, DocumentIDs: ids})
	if err != nil {
		return nil, err
	}
	q := "SELECT " + rowCols + ", t0.extra FROM " + quote(ct.Table()) + " t0 WHERE " + where + " ORDER BY t0.id"
	if t.s.d.Name() == "postgres" {
		q += " FOR UPDATE"
	}
	return t.s.query(t.ctx, t.tx, q, c.args, true)
}

func (t *txn) RemoveMorphReference(ref models.Reference, uid, documentID string) error {
	c := &compiler{d: t.s.d}
	cond := c.morphCond(ref.Attr, uid, []string{documentID})
	tbl := quote(ref.Owner.Table())
	rows, err := t.count().QueryContext(t.ctx, "SELECT t0.id, t0.extra FROM "+tbl+" t0 WHERE "+cond, c.args...)
	if err != nil {
		return err
	}
	type change struct {
		id    int64
		extra []byte
	}
	var changes []change
	for rows.Next() {
		var id int64
		var extra []byte
		if err := rows.Scan(&id, &extra); err != nil {
			rows.Close()
			return err
		}
		changes = append(changes, change{id, removeMorphItem(extra, ref.Attr, uid, documentID)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, ch := range changes {
		if _, err := t.count().ExecContext(t.ctx, "UPDATE "+tbl+" SET extra = "+t.ph(1)+" WHERE id = "+t.ph(2), string(ch.extra), ch.id); err != nil {
			return err
		}
	}
	if len(changes) > 0 {
		t.touch(ref.Owner.Table())
	}
	return nil
}

// removeMorphItem drops the items naming (uid, documentID) from a stored
// polymorphic relation value.
func removeMorphItem(extra []byte, a *models.Attribute, uid, documentID string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(extra, &m) != nil {
		return extra
	}
	type item struct {
		Type       string `json:"__type"`
		DocumentID string `json:"documentId"`
	}
	var one item
	if json.Unmarshal(m[a.Name], &one) == nil && one.Type != "" {
		if one.Type == uid && one.DocumentID == documentID {
			m[a.Name] = json.RawMessage("null")
		}
	} else {
		var list []item
		_ = json.Unmarshal(m[a.Name], &list)
		kept := make([]item, 0, len(list))
		for _, it := range list {
			if it.Type != uid || it.DocumentID != documentID {
				kept = append(kept, it)
			}
		}
		b, _ := json.Marshal(kept)
		m[a.Name] = b
	}
	out, err := json.Marshal(m)
	if err != nil {
		return extra
	}
	return out
}

// Emit adds an event to the outbox; the transaction writes its events
// together before it commits, in the order they came.
func (t *txn) Emit(ev *engine.Event) error {
	t.events = append(t.events, ev)
	return nil
}

func (t *txn) flushEvents() error {
	if len(t.events) == 0 {
		return nil
	}
	evs := t.events
	t.events = nil
	return t.s.insertEvents(t.ctx, t.count(), evs)
}
