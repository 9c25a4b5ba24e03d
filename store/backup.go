package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/models"
)

// Backups (`stratum export --file`, `stratum import --file`) copy tables
// row by row with their ids. Values are written in a portable form whatever
// the database: times as RFC 3339 (UTC), booleans as booleans, numbers as
// numbers, JSON columns as JSON, so an archive made on SQLite restores on
// PostgreSQL and back.

// backupSystemTables are the system tables a backup holds, in the order
// they are written and restored. Not held: stratum_migrations (the archive
// records the version instead), stratum_counts and stratum_versions (made
// again from the rows), and the event outbox and its deliveries.
var backupSystemTables = []string{"stratum_meta", "stratum_definitions", "up_roles", "up_permissions", "up_users",
	"stratum_admin_users", "stratum_api_tokens", "stratum_files", "stratum_webhooks"}

// notRestored are tables an archive may never write.
var notRestored = []string{"stratum_migrations", "stratum_counts", "stratum_versions", "stratum_events", "stratum_deliveries"}

// ColumnKind is how a column's values are written in a backup.
type ColumnKind int

// The kinds of columns.
const (
	KindText ColumnKind = iota
	KindInt
	KindFloat
	KindBool
	KindTime
	KindJSON
)

// BackupTable is a table of a backup: its name and columns as this
// database has them.
type BackupTable struct {
	Name string
	// Documents is set for a content-type's table (they all share one
	// layout, so a restore can make one that does not exist yet).
	Documents bool
	Columns   []string
	kinds     map[string]ColumnKind
}

// columns reads a table's columns and their kinds from the catalogue (none
// when the table does not exist).
func (s *Store) columns(ctx context.Context, q querier, table string, documents bool) ([]string, map[string]ColumnKind, error) {
	var query string
	if s.d.Name() == "postgres" {
		query = "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
	} else {
		query = "SELECT name, type FROM pragma_table_info(?) ORDER BY cid"
	}
	rows, err := q.QueryContext(ctx, query, table)
	if err != nil {
		return nil, nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	kinds := map[string]ColumnKind{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, nil, err
		}
		cols = append(cols, name)
		kinds[name] = columnKind(s.d.Name(), strings.ToLower(typ), name, documents)
	}
	return cols, kinds, rows.Err()
}

// columnKind maps a declared type (PostgreSQL's data_type or SQLite's
// declared type) to a kind. SQLite's content tables keep times and JSON in
// TEXT columns: their names say which.
func columnKind(dialect, typ, name string, documents bool) ColumnKind {
	if !documents && (name == "data" || name == "large" || name == "extra") {
		// The users' and roles' extension attributes (migration 5): JSON
		// objects, TEXT on SQLite.
		return KindJSON
	}
	if documents {
		switch name {
		case "published_at", "created_at", "updated_at":
			return KindTime
		case "data", "large", "extra":
			return KindJSON
		}
	}
	switch {
	case typ == "boolean" || typ == "numeric" && dialect == "sqlite":
		// SQLite's booleans were declared numeric (GORM); PostgreSQL's
		// numeric column is the files' size.
		return KindBool
	case strings.HasPrefix(typ, "timestamp") || typ == "datetime" || typ == "date":
		return KindTime
	case typ == "integer" || typ == "bigint" || typ == "smallint":
		return KindInt
	case typ == "real" || typ == "double precision" || typ == "numeric":
		return KindFloat
	case typ == "jsonb" || typ == "json":
		return KindJSON
	}
	return KindText
}

// BackupReader reads one consistent snapshot of the database.
type BackupReader struct {
	s   *Store
	ctx context.Context
	tx  *sql.Tx
}

// ReadBackup runs fn in one read transaction: every table is read as it was
// when it began (REPEATABLE READ on PostgreSQL, a WAL snapshot on SQLite).
func (s *Store) ReadBackup(ctx context.Context, fn func(*BackupReader) error) error {
	var opts *sql.TxOptions
	if s.d.Name() == "postgres" {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := s.read.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // read only
	if s.d.Name() == "postgres" {
		// A large table takes longer than one request's statement.
		if _, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
			return err
		}
	}
	return fn(&BackupReader{s: s, ctx: ctx, tx: tx})
}

// Tables lists the tables a backup holds: the system tables, then the
// tables of types.
func (r *BackupReader) Tables(types []*models.ContentType) ([]*BackupTable, error) {
	var out []*BackupTable
	add := func(name string, documents bool) error {
		cols, kinds, err := r.s.columns(r.ctx, r.tx, name, documents)
		if err != nil {
			return err
		}
		if len(cols) == 0 {
			return fmt.Errorf("table %s does not exist", name)
		}
		out = append(out, &BackupTable{Name: name, Documents: documents, Columns: cols, kinds: kinds})
		return nil
	}
	for _, t := range backupSystemTables {
		if err := add(t, false); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, ct := range types {
		if seen[ct.Table()] {
			continue
		}
		seen[ct.Table()] = true
		if err := add(ct.Table(), true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Count is the number of rows of a table.
func (r *BackupReader) Count(t *BackupTable) (int64, error) {
	var n int64
	err := r.tx.QueryRowContext(r.ctx, "SELECT COUNT(*) FROM "+quote(t.Name)+r.where(t)).Scan(&n)
	return n, err
}

// where leaves out the rows a backup does not hold: the mark of an import.
func (r *BackupReader) where(t *BackupTable) string {
	if t.Name == "stratum_meta" {
		return " WHERE " + quote("key") + " <> " + lit(importMarkKey)
	}
	return ""
}

// Rows calls fn with every row of a table, one at a time in the order of
// its key, its values in portable form in the order of t.Columns.
func (r *BackupReader) Rows(t *BackupTable, fn func(vals []any) error) error {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = quote(c)
	}
	order := quote(t.Columns[0])
	if slices.Contains(t.Columns, "id") {
		order = "id"
	}
	rows, err := r.tx.QueryContext(r.ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+quote(t.Name)+r.where(t)+" ORDER BY "+order)
	if err != nil {
		return fmt.Errorf("read %s: %w", t.Name, err)
	}
	defer rows.Close()
	raw := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	vals := make([]any, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read %s: %w", t.Name, err)
		}
		for i, c := range t.Columns {
			vals[i] = portable(t.kinds[c], raw[i])
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// portable is a stored value in the form a backup writes.
func portable(k ColumnKind, v any) any {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	if v == nil {
		return nil
	}
	switch k {
	case KindInt:
		switch x := v.(type) {
		case float64:
			return int64(x)
		case bool:
			if x {
				return int64(1)
			}
			return int64(0)
		case string:
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				return n
			}
		}
	case KindFloat:
		switch x := v.(type) {
		case int64:
			return float64(x)
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
		}
	case KindBool:
		switch x := v.(type) {
		case int64:
			return x != 0
		case float64:
			return x != 0
		case string:
			return x == "1" || strings.EqualFold(x, "true") || x == "t"
		}
	case KindTime:
		switch x := v.(type) {
		case time.Time:
			return x.UTC().Format(time.RFC3339Nano)
		case string:
			if t, ok := parseTime(x); ok {
				return t.UTC().Format(time.RFC3339Nano)
			}
		case int64: // Unix milliseconds
			return time.UnixMilli(x).UTC().Format(time.RFC3339Nano)
		}
	case KindJSON:
		if s, ok := v.(string); ok && json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
	case KindText:
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10)
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64)
		case time.Time:
			return x.UTC().Format(time.RFC3339Nano)
		}
	}
	return v
}

var timeLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"}

func parseTime(s string) (time.Time, bool) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// HasContent names a table of the project that holds rows a restore would
// replace (stored definitions, documents of types, files, users, admins,
// API tokens, webhooks), or "" when there is none.
func (s *Store) HasContent(ctx context.Context, types []*models.ContentType) (string, int64, error) {
	tables := []string{"stratum_definitions", "up_users", "stratum_admin_users", "stratum_api_tokens", "stratum_files", "stratum_webhooks"}
	for _, ct := range types {
		tables = append(tables, ct.Table())
	}
	for _, t := range tables {
		var n int64
		if err := s.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(t)).Scan(&n); err != nil {
			return "", 0, fmt.Errorf("count %s: %w", t, err)
		}
		if n > 0 {
			return t, n, nil
		}
	}
	return "", 0, nil
}

// RestoreTx writes the tables of a backup in one transaction: each table
// named is emptied, then gets the archive's rows with their ids.
type RestoreTx struct {
	s      *Store
	ctx    context.Context
	tx     *sql.Tx
	cur    *BackupTable
	idx    []int // archive column -> position in cur.Columns
	buf    []any
	n      int
	tables []*BackupTable
}

// restoreBatch is the number of rows per INSERT.
const restoreBatch = 100

// Restore runs fn in one write transaction, then makes what is derived from
// the rows again: PostgreSQL's sequences move past the ids written, and
// the counters of the document tables are recounted.
func (s *Store) Restore(ctx context.Context, fn func(*RestoreTx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &RestoreTx{s: s, ctx: ctx, tx: tx}
	err = func() error {
		if s.d.Name() == "postgres" {
			if _, err := tx.ExecContext(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
				return err
			}
		}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.flush(); err != nil {
			return err
		}
		return t.finish()
	}()
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Table begins the rows of a table whose archive columns are cols. A
// document table that does not exist is made (its indexes come when the
// server starts with its type); any other table must be one of the system
// tables a backup holds.
func (t *RestoreTx) Table(name string, documents bool, cols []string) error {
	if err := t.flush(); err != nil {
		return err
	}
	if slices.Contains(notRestored, name) || documents && slices.Contains(backupSystemTables, name) {
		return fmt.Errorf("the archive writes table %q, which a backup never holds", name)
	}
	if !documents && !slices.Contains(backupSystemTables, name) {
		return fmt.Errorf("the archive holds an unknown system table %q", name)
	}
	for _, w := range t.tables {
		if w.Name == name {
			return fmt.Errorf("the archive holds table %q twice", name)
		}
	}
	have, kinds, err := t.s.columns(t.ctx, t.tx, name, documents)
	if err != nil {
		return err
	}
	if len(have) == 0 && documents {
		if _, err := t.tx.ExecContext(t.ctx, t.s.d.CreateTable(name)); err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
		if have, kinds, err = t.s.columns(t.ctx, t.tx, name, documents); err != nil {
			return err
		}
	}
	if len(have) == 0 {
		return fmt.Errorf("table %s does not exist in this database", name)
	}
	if documents && (!slices.Contains(have, "document_id") || !slices.Contains(have, "data")) {
		return fmt.Errorf("table %s of this database is not a document table", name)
	}
	for _, c := range cols {
		if !slices.Contains(have, c) {
			return fmt.Errorf("table %s has no column %q here (was the archive made by a newer Stratum?)", name, c)
		}
	}
	if len(cols) == 0 || len(cols) > 200 {
		return fmt.Errorf("table %s: %d columns in the archive", name, len(cols))
	}
	if _, err := t.tx.ExecContext(t.ctx, "DELETE FROM "+quote(name)); err != nil {
		return fmt.Errorf("empty %s: %w", name, err)
	}
	t.cur = &BackupTable{Name: name, Documents: documents, Columns: cols, kinds: kinds}
	t.tables = append(t.tables, t.cur)
	return nil
}

// Row adds a row of the current table: its values as JSON, in the order of
// the columns given to Table.
func (t *RestoreTx) Row(vals []json.RawMessage) error {
	if t.cur == nil {
		return errors.New("a row comes before its table")
	}
	if len(vals) != len(t.cur.Columns) {
		return fmt.Errorf("a row of %s has %d values for %d columns", t.cur.Name, len(vals), len(t.cur.Columns))
	}
	for i, c := range t.cur.Columns {
		v, err := t.bind(t.cur.kinds[c], vals[i])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.cur.Name, c, err)
		}
		t.buf = append(t.buf, v)
	}
	t.n++
	if t.n >= restoreBatch {
		return t.flush()
	}
	return nil
}

// bind turns an archive value into the bound value of a column here.
func (t *RestoreTx) bind(k ColumnKind, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	str := func() (string, bool) {
		if raw[0] != '"' {
			return "", false
		}
		if bytes.IndexByte(raw, '\\') < 0 && len(raw) >= 2 {
			return string(raw[1 : len(raw)-1]), true
		}
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	}
	switch k {
	case KindJSON:
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, err
		}
		return b.String(), nil
	case KindText:
		if s, ok := str(); ok {
			return s, nil
		}
		return string(raw), nil // a number or boolean kept as its text
	case KindInt:
		switch string(raw) {
		case "true":
			return int64(1), nil
		case "false":
			return int64(0), nil
		}
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return int64(f), nil
		}
	case KindFloat:
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil && raw[0] != '"' {
			return f, nil
		}
	case KindBool:
		switch string(raw) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return f != 0, nil
		}
	case KindTime:
		if s, ok := str(); ok {
			if tm, ok := parseTime(s); ok {
				if t.cur.Documents {
					return t.s.d.Time(tm), nil
				}
				return tm.UTC(), nil
			}
		}
	}
	return nil, fmt.Errorf("%.40s is not %s", raw, kindNames[k])
}

var kindNames = map[ColumnKind]string{KindText: "a text", KindInt: "an integer", KindFloat: "a number", KindBool: "a boolean",
	KindTime: "a time", KindJSON: "JSON"}

// flush writes the rows held.
func (t *RestoreTx) flush() error {
	if t.n == 0 {
		return nil
	}
	cols := make([]string, len(t.cur.Columns))
	for i, c := range t.cur.Columns {
		cols[i] = quote(c)
	}
	values := make([]string, t.n)
	for i := range values {
		values[i] = "(" + t.s.phs(i*len(cols)+1, (i+1)*len(cols)) + ")"
	}
	t.s.statements.Add(1)
	_, err := t.tx.ExecContext(t.ctx, "INSERT INTO "+quote(t.cur.Name)+" ("+strings.Join(cols, ", ")+") VALUES "+
		strings.Join(values, ", "), t.buf...)
	t.buf, t.n = t.buf[:0], 0
	if err != nil {
		return fmt.Errorf("write %s: %w", t.cur.Name, err)
	}
	return nil
}

// finish moves sequences past the ids written and recounts the document
// tables.
func (t *RestoreTx) finish() error {
	for _, tbl := range t.tables {
		if slices.Contains(tbl.Columns, "id") {
			if err := moveSequence(t.ctx, t.tx, t.s.d, tbl.Name); err != nil {
				return err
			}
		}
		if tbl.Documents {
			if err := recountChanged(t.ctx, t.tx, t.s.d, tbl.Name); err != nil {
				return err
			}
		}
	}
	return nil
}
