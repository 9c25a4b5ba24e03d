package store

import (
	"context"
	"database/sql"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	_ "github.com/glebarez/go-sqlite"  // registers "sqlite"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// StrapiSource reads the tables of a Strapi 5 database (PostgreSQL or
// SQLite), for `stratum import strapi`. It only reads: table and column
// names are checked against the database's own catalogue before they are
// put in a statement, and values are bound.
type StrapiSource struct {
	db     *sql.DB
	sqlite bool
	cols   map[string][]string // table -> columns, in catalogue order
	id     string
}

// OpenStrapiSource connects to a Strapi database: a postgres:// URL, or the
// path of a SQLite file (with or without a sqlite:// or file: prefix).
func OpenStrapiSource(ctx context.Context, url string) (*StrapiSource, error) {
	s := &StrapiSource{}
	var err error
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		s.db, err = sql.Open("pgx", url)
		if u, perr := neturl.Parse(url); perr == nil {
			u.User = neturl.User(u.User.Username()) // never the password
			u.RawQuery = ""
			s.id = u.String()
		}
	} else {
		path := strings.TrimPrefix(strings.TrimPrefix(url, "sqlite://"), "file:")
		if path == "" {
			return nil, fmt.Errorf("the Strapi database: give a postgres:// URL or a SQLite file path")
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("the Strapi database %s: %w", path, err)
		}
		s.sqlite = true
		if abs, aerr := filepath.Abs(path); aerr == nil {
			s.id = "sqlite:" + abs
		}
		s.db, err = sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	}
	if err != nil {
		return nil, fmt.Errorf("open the Strapi database: %w", err)
	}
	s.db.SetMaxOpenConns(2)
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("connect to the Strapi database: %w", err)
	}
	if err := s.catalogue(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("read the Strapi database's tables: %w", err)
	}
	if !s.Has("strapi_database_schema") && !s.Has("strapi_core_store_settings") {
		s.db.Close()
		return nil, fmt.Errorf("the database has no strapi_core_store_settings or strapi_database_schema table: is it a Strapi database?")
	}
	return s, nil
}

func (s *StrapiSource) catalogue(ctx context.Context) error {
	s.cols = map[string][]string{}
	q := "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
	if s.sqlite {
		q = "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid"
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			return err
		}
		s.cols[t] = append(s.cols[t], c)
	}
	return rows.Err()
}

// Identity names the source without its credentials (a URL without its
// password, a SQLite file's absolute path).
func (s *StrapiSource) Identity() string { return s.id }

// Close ends the connection.
func (s *StrapiSource) Close() error { return s.db.Close() }

// Dialect names the source's engine ("postgres" or "sqlite").
func (s *StrapiSource) Dialect() string {
	if s.sqlite {
		return "sqlite"
	}
	return "postgres"
}

// Has reports whether the table exists with every one of cols.
func (s *StrapiSource) Has(table string, cols ...string) bool {
	have, ok := s.cols[table]
	if !ok {
		return false
	}
	for _, c := range cols {
		found := false
		for _, h := range have {
			found = found || h == c
		}
		if !found {
			return false
		}
	}
	return true
}

// Columns lists a table's columns (nil when it does not exist).
func (s *StrapiSource) Columns(table string) []string { return s.cols[table] }

// Tables lists the source's tables, sorted.
func (s *StrapiSource) Tables() []string {
	out := make([]string, 0, len(s.cols))
	for t := range s.cols {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Count is the number of rows of a table.
func (s *StrapiSource) Count(ctx context.Context, table string) (int64, error) {
	if !s.Has(table) {
		return 0, fmt.Errorf("no table %s in the Strapi database", table)
	}
	var n int64
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(table)).Scan(&n)
	return n, err
}

// Rows calls fn with every row of a table (the columns asked for, or all
// when cols is nil), ordered by the columns of orderBy (each must exist),
// streaming them. Values are Go values: int64, float64, bool, string,
// time.Time, or nil; JSON columns come as strings.
func (s *StrapiSource) Rows(ctx context.Context, table string, cols, orderBy []string, fn func(map[string]any) error) error {
	if cols == nil {
		cols = s.cols[table]
	}
	if !s.Has(table, cols...) || !s.Has(table, orderBy...) {
		return fmt.Errorf("the Strapi database has no table %s with columns %s", table, strings.Join(append(append([]string{}, cols...), orderBy...), ", "))
	}
	qc := make([]string, len(cols))
	for i, c := range cols {
		qc[i] = quote(table) + "." + quote(c)
	}
	q := "SELECT " + strings.Join(qc, ", ") + " FROM " + quote(table)
	if len(orderBy) > 0 {
		ob := make([]string, len(orderBy))
		for i, c := range orderBy {
			ob[i] = quote(c)
		}
		q += " ORDER BY " + strings.Join(ob, ", ")
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read %s: %w", table, err)
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = sourceValue(vals[i])
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sourceValue turns what a driver scanned into a plain Go value.
func sourceValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return string(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case float32:
		return float64(x)
	case time.Time:
		return x.UTC()
	}
	return v
}
