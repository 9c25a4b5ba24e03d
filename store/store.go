// Package store keeps documents in PostgreSQL (JSONB) or SQLite (JSON text)
// through GORM: one generic table per content-type, system tables, schema
// migration, and the compiler from the engine's query model to SQL.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sqlitedrv "github.com/glebarez/go-sqlite"
	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/ids"
)

// Store implements engine.Backend.
type Store struct {
	d Dialect
	// read and write are the pools (the same pool on PostgreSQL; on SQLite
	// many readers and one writer, so writers queue instead of failing busy).
	read  *sql.DB
	write *sql.DB
	// writeG is the GORM handle on the write pool (tests' raw SQL).
	writeG *gorm.DB
	// url is the PostgreSQL URL, for the LISTEN connection.
	url string
	// appName is this process's application_name on PostgreSQL ("" when
	// the URL sets one): it tells this node's sessions from other nodes'.
	appName string
	// counts caches filtered totals, checked against table versions.
	counts countCache
	// statements counts the SQL statements run for documents, so tests and
	// benchmarks can check how many queries a request costs.
	statements atomic.Int64
	// writers bounds the fenced write transactions open at once on
	// PostgreSQL (nil on SQLite: one write connection): writers queued on
	// the fence behind a schema change each hold a pooled connection, and a
	// writer that holds the fence may need one more for a read (a media
	// file's check), so the pool must never be all writers.
	writers chan struct{}
	// evolving makes this node's schema changes take turns.
	evolving sync.Mutex
}

// Statements is the number of document SQL statements run so far.
func (s *Store) Statements() int64 { return s.statements.Load() }

var _ engine.Backend = (*Store)(nil)

// maxConns is the size of a node's PostgreSQL pool.
const maxConns = 32

// Open connects to url: a postgres:// URL selects PostgreSQL; anything else
// is a SQLite file path.
func Open(url string) (*Store, error) {
	cfg := &gorm.Config{Logger: logger.Discard, PrepareStmt: false, SkipDefaultTransaction: true}
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		url = withStatementTimeout(url)
		url, appName := withApplicationName(url)
		g, err := gorm.Open(postgres.Open(url), cfg)
		if err != nil {
			return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
		}
		db, _ := g.DB()
		db.SetMaxOpenConns(maxConns)
		db.SetMaxIdleConns(maxConns)
		db.SetConnMaxIdleTime(5 * time.Minute)
		if err := db.Ping(); err != nil {
			return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
		}
		st := &Store{d: postgresDialect{}, read: db, write: db, writeG: g, url: url, appName: appName,
			writers: make(chan struct{}, maxConns/2)}
		var n int
		_ = db.QueryRow("SELECT COUNT(*) FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)").Scan(&n)
		st.d = postgresDialect{lz4: n > 0}
		return st.migrated()
	}
	if dir := filepath.Dir(url); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
	}
	// Turning a new file to WAL needs the exclusive lock, and SQLite answers
	// BUSY at once (without busy_timeout) when several processes open the
	// same new file together: such an open is tried again for a while.
	deadline := time.Now().Add(15 * time.Second)
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		st, err := openSQLite(url, cfg)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return st, err
		}
		time.Sleep(wait)
	}
}

// isBusy reports SQLite's "database is locked".
func isBusy(err error) bool {
	var se *sqlitedrv.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == 5 // SQLITE_BUSY and its extended codes
	}
	return strings.Contains(err.Error(), "SQLITE_BUSY")
}

func openSQLite(url string, cfg *gorm.Config) (*Store, error) {
	// busy_timeout first so the other pragmas wait instead of failing.
	dsn := url + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)" +
		"&_pragma=foreign_keys(1)&_pragma=temp_store(MEMORY)&_pragma=case_sensitive_like(1)" +
		"&_pragma=cache_size(-1024)" // 1 MiB of pages per connection
	rg, err := gorm.Open(sqlite.Open(dsn), cfg)
	if err != nil {
		return nil, fmt.Errorf("open SQLite %s: %w", url, err)
	}
	r, _ := rg.DB()
	// Write transactions take the write lock when they begin: one that
	// read first and then wrote could not wait for another process's
	// writer (SQLite answers BUSY at once to such an upgrade), which was a
	// 500 with two servers or a server and a command on one file.
	wg, err := gorm.Open(sqlite.Open(dsn+"&_txlock=immediate"), cfg)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("open SQLite %s: %w", url, err)
	}
	w, _ := wg.DB()
	// More readers than cores only add SQLite page caches, not throughput.
	readers := max(4, 2*runtime.NumCPU())
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	if err := w.Ping(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("open SQLite %s: %w", url, err)
	}
	st := &Store{d: sqliteDialect{}, read: r, write: w, writeG: wg}
	return st.migrated()
}

// migrated brings the system tables up to date before the store is used,
// so every package finds them whatever it starts with.
func (s *Store) migrated() (*Store, error) {
	if err := s.MigrateSystem(context.Background()); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Dialect names the database engine ("postgres" or "sqlite").
func (s *Store) Dialect() string { return s.d.Name() }

// GORM returns the GORM handle on the write pool, for tests that run SQL
// of their own; the application goes through the store's methods.
func (s *Store) GORM() *gorm.DB { return s.writeG }

// Close closes the pools.
func (s *Store) Close() error {
	err := s.read.Close()
	if s.write != s.read {
		err = errors.Join(err, s.write.Close())
	}
	return err
}

// Ping checks the connection.
func (s *Store) Ping(ctx context.Context) error { return s.read.PingContext(ctx) }

// DefaultStatementTimeout bounds one SQL statement on PostgreSQL unless the
// URL says otherwise (?statement_timeout=<ms>, 0 for none).
const DefaultStatementTimeout = 30 * time.Second

// withStatementTimeout sets PostgreSQL's statement_timeout on every pooled
// connection: the server cancels a runaway statement itself and the
// connection stays usable, where a client-side deadline would interrupt
// the wire protocol mid-answer and cost the connection.
func withStatementTimeout(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw // pgx reports the bad URL
	}
	q := u.Query()
	if q.Has("statement_timeout") {
		return raw
	}
	q.Set("statement_timeout", strconv.FormatInt(DefaultStatementTimeout.Milliseconds(), 10))
	u.RawQuery = q.Encode()
	return u.String()
}

// withApplicationName names this process's PostgreSQL sessions
// (stratum-<pid>-<random>) unless the URL names them.
func withApplicationName(raw string) (string, string) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return raw, ""
	}
	q := u.Query()
	if q.Has("application_name") {
		return raw, ""
	}
	name := fmt.Sprintf("stratum-%d-%s", os.Getpid(), ids.NewDocumentID()[:6])
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String(), name
}

// Pools are the database pools by name, for metrics.
func (s *Store) Pools() map[string]*sql.DB {
	if s.read == s.write {
		return map[string]*sql.DB{"main": s.write}
	}
	return map[string]*sql.DB{"read": s.read, "write": s.write}
}
