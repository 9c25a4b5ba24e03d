package store

import (
	"context"
	"fmt"
	"time"
)

// The system tables (settings, definitions, counters, users-permissions,
// admins, API tokens, files) change only through the numbered migrations
// below: each runs once per database, in its own transaction together with
// its row in stratum_migrations. Content-type tables are not here: they
// follow the schema (Migrate, Evolve).
//
// To change a system table, append a migration; never edit one that has
// shipped, since databases that ran it will not run it again.

// migration is one step of the system tables' history. Statements are per
// dialect because types differ (SQLite has no BIGSERIAL, PostgreSQL no
// AUTOINCREMENT); fn, when set, runs after them for steps SQL cannot say.
type migration struct {
	version  int
	name     string
	sqlite   []string
	postgres []string
	fn       func(ctx context.Context, q querier, d Dialect) error
}

// migrations is the ordered history; versions are 1, 2, 3... without gaps.
var migrations = []migration{
	{
		// The tables as GORM's AutoMigrate made them before this list
		// existed, column for column and index for index, so a database
		// made then is adopted as it is: every statement is IF NOT EXISTS.
		version: 1,
		name:    "system tables",
		sqlite: []string{
			`CREATE TABLE IF NOT EXISTS stratum_meta ("key" text, value text NOT NULL, PRIMARY KEY ("key"))`,
			`CREATE TABLE IF NOT EXISTS stratum_definitions (uid text, kind text NOT NULL, body text NOT NULL, updated_at datetime, PRIMARY KEY (uid))`,
			`CREATE TABLE IF NOT EXISTS stratum_counts (tbl text, published numeric, locale text, n integer NOT NULL, PRIMARY KEY (tbl, published, locale))`,
			`CREATE TABLE IF NOT EXISTS stratum_versions (tbl text, v integer NOT NULL, PRIMARY KEY (tbl))`,

			`CREATE TABLE IF NOT EXISTS up_roles (id integer PRIMARY KEY AUTOINCREMENT, document_id text NOT NULL, name text NOT NULL,
	description text NOT NULL DEFAULT '', type text NOT NULL, created_at datetime NOT NULL, updated_at datetime NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_roles_type_uq ON up_roles (type)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_roles_name_uq ON up_roles (name)`,

			`CREATE TABLE IF NOT EXISTS up_permissions (id integer PRIMARY KEY AUTOINCREMENT, role_id integer NOT NULL, action text NOT NULL,
	created_at datetime NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_permissions_role_action_uq ON up_permissions (role_id, action)`,

			`CREATE TABLE IF NOT EXISTS up_users (id integer PRIMARY KEY AUTOINCREMENT, document_id text NOT NULL, username text NOT NULL,
	email text NOT NULL, provider text NOT NULL DEFAULT 'local', password text NOT NULL DEFAULT '', reset_password_token text,
	confirmation_token text, confirmed numeric NOT NULL DEFAULT false, blocked numeric NOT NULL DEFAULT false, role_id integer,
	created_at datetime NOT NULL, updated_at datetime NOT NULL, published_at datetime)`,
			`CREATE INDEX IF NOT EXISTS up_users_role_idx ON up_users (role_id)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_users_email_uq ON up_users (email)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_users_username_uq ON up_users (username)`,

			`CREATE TABLE IF NOT EXISTS stratum_admin_users (id integer PRIMARY KEY AUTOINCREMENT, document_id text NOT NULL,
	firstname text NOT NULL DEFAULT '', lastname text NOT NULL DEFAULT '', email text NOT NULL, password text NOT NULL,
	is_active numeric NOT NULL DEFAULT true, blocked numeric NOT NULL DEFAULT false, created_at datetime NOT NULL, updated_at datetime NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_admin_users_email_uq ON stratum_admin_users (email)`,

			`CREATE TABLE IF NOT EXISTS stratum_api_tokens (id integer PRIMARY KEY AUTOINCREMENT, name text NOT NULL,
	description text NOT NULL DEFAULT '', type text NOT NULL, access_key text NOT NULL, last_used_at datetime, expires_at datetime,
	lifespan integer, permissions text NOT NULL, created_at datetime NOT NULL, updated_at datetime NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_api_tokens_access_key_uq ON stratum_api_tokens (access_key)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_api_tokens_name_uq ON stratum_api_tokens (name)`,

			`CREATE TABLE IF NOT EXISTS stratum_files (id integer PRIMARY KEY AUTOINCREMENT, document_id text NOT NULL, name text NOT NULL,
	alternative_text text, caption text, width integer, height integer, formats text, hash text NOT NULL, ext text, mime text,
	size real, url text, created_at datetime, updated_at datetime)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS idx_stratum_files_hash ON stratum_files (hash)`,
			`CREATE INDEX IF NOT EXISTS idx_stratum_files_document_id ON stratum_files (document_id)`,
		},
		postgres: []string{
			`CREATE TABLE IF NOT EXISTS stratum_meta ("key" text, value text NOT NULL, PRIMARY KEY ("key"))`,
			`CREATE TABLE IF NOT EXISTS stratum_definitions (uid text, kind text NOT NULL, body text NOT NULL, updated_at timestamptz, PRIMARY KEY (uid))`,
			`CREATE TABLE IF NOT EXISTS stratum_counts (tbl text, published boolean, locale text, n bigint NOT NULL, PRIMARY KEY (tbl, published, locale))`,
			`CREATE TABLE IF NOT EXISTS stratum_versions (tbl text, v bigint NOT NULL, PRIMARY KEY (tbl))`,

			`CREATE TABLE IF NOT EXISTS up_roles (id bigserial PRIMARY KEY, document_id varchar(24) NOT NULL, name varchar(255) NOT NULL,
	description varchar(1024) NOT NULL DEFAULT '', type varchar(255) NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_roles_type_uq ON up_roles (type)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_roles_name_uq ON up_roles (name)`,

			`CREATE TABLE IF NOT EXISTS up_permissions (id bigserial PRIMARY KEY, role_id bigint NOT NULL, action varchar(255) NOT NULL,
	created_at timestamptz NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_permissions_role_action_uq ON up_permissions (role_id, action)`,

			`CREATE TABLE IF NOT EXISTS up_users (id bigserial PRIMARY KEY, document_id varchar(24) NOT NULL, username varchar(255) NOT NULL,
	email varchar(255) NOT NULL, provider varchar(255) NOT NULL DEFAULT 'local', password varchar(255) NOT NULL DEFAULT '',
	reset_password_token varchar(255), confirmation_token varchar(255), confirmed boolean NOT NULL DEFAULT false,
	blocked boolean NOT NULL DEFAULT false, role_id bigint, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
	published_at timestamptz)`,
			`CREATE INDEX IF NOT EXISTS up_users_role_idx ON up_users (role_id)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_users_email_uq ON up_users (email)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS up_users_username_uq ON up_users (username)`,

			`CREATE TABLE IF NOT EXISTS stratum_admin_users (id bigserial PRIMARY KEY, document_id varchar(24) NOT NULL,
	firstname varchar(255) NOT NULL DEFAULT '', lastname varchar(255) NOT NULL DEFAULT '', email varchar(255) NOT NULL,
	password varchar(255) NOT NULL, is_active boolean NOT NULL DEFAULT true, blocked boolean NOT NULL DEFAULT false,
	created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_admin_users_email_uq ON stratum_admin_users (email)`,

			`CREATE TABLE IF NOT EXISTS stratum_api_tokens (id bigserial PRIMARY KEY, name varchar(255) NOT NULL,
	description varchar(1024) NOT NULL DEFAULT '', type varchar(32) NOT NULL, access_key varchar(128) NOT NULL,
	last_used_at timestamptz, expires_at timestamptz, lifespan bigint, permissions text NOT NULL,
	created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_api_tokens_access_key_uq ON stratum_api_tokens (access_key)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS stratum_api_tokens_name_uq ON stratum_api_tokens (name)`,

			// size is numeric, not double precision: GORM mapped float64 so.
			`CREATE TABLE IF NOT EXISTS stratum_files (id bigserial PRIMARY KEY, document_id text NOT NULL, name text NOT NULL,
	alternative_text text, caption text, width bigint, height bigint, formats text, hash text NOT NULL, ext text, mime text,
	size numeric, url text, created_at timestamptz, updated_at timestamptz)`,
			`CREATE UNIQUE INDEX IF NOT EXISTS idx_stratum_files_hash ON stratum_files (hash)`,
			`CREATE INDEX IF NOT EXISTS idx_stratum_files_document_id ON stratum_files (document_id)`,
		},
	},
	{
		// A user's JWTs issued before this moment (Unix seconds) are
		// refused: set when the password changes or the user is blocked.
		version:  2,
		name:     "users' tokens valid after",
		sqlite:   []string{`ALTER TABLE up_users ADD COLUMN tokens_valid_after integer NOT NULL DEFAULT 0`},
		postgres: []string{`ALTER TABLE up_users ADD COLUMN IF NOT EXISTS tokens_valid_after bigint NOT NULL DEFAULT 0`},
	},
	{
		// Webhooks, the outbox of document events (written in the
		// transaction of the change) and the deliveries of events to
		// webhooks. Times are Unix milliseconds.
		version: 3,
		name:    "webhooks and the event outbox",
		sqlite: []string{
			`CREATE TABLE stratum_webhooks (id integer PRIMARY KEY AUTOINCREMENT, name text NOT NULL, url text NOT NULL,
	headers text NOT NULL, events text NOT NULL, enabled boolean NOT NULL, secret text NOT NULL DEFAULT '',
	created_at bigint NOT NULL, updated_at bigint NOT NULL)`,
			`CREATE TABLE stratum_events (id integer PRIMARY KEY AUTOINCREMENT, event text NOT NULL, uid text NOT NULL,
	document_id text NOT NULL, locale text NOT NULL, payload text NOT NULL, created_at bigint NOT NULL,
	dispatched boolean NOT NULL DEFAULT false)`,
			`CREATE INDEX stratum_events_created_idx ON stratum_events (created_at)`,
			`CREATE INDEX stratum_events_undispatched_idx ON stratum_events (id) WHERE dispatched = false`,
			`CREATE TABLE stratum_deliveries (id integer PRIMARY KEY AUTOINCREMENT, webhook_id bigint NOT NULL, event_id bigint NOT NULL,
	status text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_at bigint NOT NULL, lease_until bigint NOT NULL DEFAULT 0,
	last_status integer NOT NULL DEFAULT 0, last_error text NOT NULL DEFAULT '', created_at bigint NOT NULL, updated_at bigint NOT NULL)`,
			`CREATE UNIQUE INDEX stratum_deliveries_uq ON stratum_deliveries (webhook_id, event_id)`,
			`CREATE INDEX stratum_deliveries_pending_idx ON stratum_deliveries (status, webhook_id, id)`,
		},
		postgres: []string{
			`CREATE TABLE stratum_webhooks (id bigserial PRIMARY KEY, name text NOT NULL, url text NOT NULL,
	headers text NOT NULL, events text NOT NULL, enabled boolean NOT NULL, secret text NOT NULL DEFAULT '',
	created_at bigint NOT NULL, updated_at bigint NOT NULL)`,
			`CREATE TABLE stratum_events (id bigserial PRIMARY KEY, event text NOT NULL, uid text NOT NULL,
	document_id text NOT NULL, locale text NOT NULL, payload text NOT NULL, created_at bigint NOT NULL,
	dispatched boolean NOT NULL DEFAULT false)`,
			`CREATE INDEX stratum_events_created_idx ON stratum_events (created_at)`,
			`CREATE INDEX stratum_events_undispatched_idx ON stratum_events (id) WHERE dispatched = false`,
			`CREATE TABLE stratum_deliveries (id bigserial PRIMARY KEY, webhook_id bigint NOT NULL, event_id bigint NOT NULL,
	status text NOT NULL, attempts integer NOT NULL DEFAULT 0, next_at bigint NOT NULL, lease_until bigint NOT NULL DEFAULT 0,
	last_status integer NOT NULL DEFAULT 0, last_error text NOT NULL DEFAULT '', created_at bigint NOT NULL, updated_at bigint NOT NULL)`,
			`CREATE UNIQUE INDEX stratum_deliveries_uq ON stratum_deliveries (webhook_id, event_id)`,
			`CREATE INDEX stratum_deliveries_pending_idx ON stratum_deliveries (status, webhook_id, id)`,
		},
	},
	{
		// Files imported from Strapi keep what its files table says of them:
		// a focal point, a preview URL, the provider (aws-s3, ...) and its
		// metadata. NULL provider reads as local.
		version: 4,
		name:    "files' focal point, preview URL and provider",
		sqlite: []string{
			`ALTER TABLE stratum_files ADD COLUMN focal_point text`,
			`ALTER TABLE stratum_files ADD COLUMN preview_url text`,
			`ALTER TABLE stratum_files ADD COLUMN provider text`,
			`ALTER TABLE stratum_files ADD COLUMN provider_metadata text`,
		},
		postgres: []string{
			`ALTER TABLE stratum_files ADD COLUMN IF NOT EXISTS focal_point text`,
			`ALTER TABLE stratum_files ADD COLUMN IF NOT EXISTS preview_url text`,
			`ALTER TABLE stratum_files ADD COLUMN IF NOT EXISTS provider text`,
			`ALTER TABLE stratum_files ADD COLUMN IF NOT EXISTS provider_metadata text`,
		},
	},
	{
		// Users and roles are system types of the schema: the attributes a
		// users-permissions extension adds are kept as a content-type's are
		// (scalars in data, long values in large, relations, media and
		// components in extra).
		version: 5,
		name:    "users' and roles' extension attributes",
		sqlite: []string{
			`ALTER TABLE up_users ADD COLUMN data text NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_users ADD COLUMN large text NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_users ADD COLUMN extra text NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN data text NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN large text NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN extra text NOT NULL DEFAULT '{}'`,
		},
		postgres: []string{
			`ALTER TABLE up_users ADD COLUMN IF NOT EXISTS data jsonb NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_users ADD COLUMN IF NOT EXISTS large jsonb NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_users ADD COLUMN IF NOT EXISTS extra jsonb NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN IF NOT EXISTS data jsonb NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN IF NOT EXISTS large jsonb NOT NULL DEFAULT '{}'`,
			`ALTER TABLE up_roles ADD COLUMN IF NOT EXISTS extra jsonb NOT NULL DEFAULT '{}'`,
		},
	},
	{
		// Every write transaction updated the same counter and version rows
		// of its table, so concurrent writers to one table queued on those
		// row locks until each commit (creates stopped at about 800/s). A
		// writer now changes the rows of one of several shards; totals and
		// versions are sums over the shards (counts.go). Nodes of an older
		// version cannot write after this (their upserts name the old key):
		// upgrade every node together.
		version: 6,
		name:    "sharded counters and versions",
		sqlite: []string{
			`CREATE TABLE stratum_counts_sharded (tbl text, published numeric, locale text, shard integer NOT NULL DEFAULT 0, n integer NOT NULL, PRIMARY KEY (tbl, published, locale, shard))`,
			`INSERT INTO stratum_counts_sharded (tbl, published, locale, shard, n) SELECT tbl, published, locale, 0, n FROM stratum_counts`,
			`DROP TABLE stratum_counts`,
			`ALTER TABLE stratum_counts_sharded RENAME TO stratum_counts`,
			`CREATE TABLE stratum_versions_sharded (tbl text, shard integer NOT NULL DEFAULT 0, v integer NOT NULL, PRIMARY KEY (tbl, shard))`,
			`INSERT INTO stratum_versions_sharded (tbl, shard, v) SELECT tbl, 0, v FROM stratum_versions`,
			`DROP TABLE stratum_versions`,
			`ALTER TABLE stratum_versions_sharded RENAME TO stratum_versions`,
		},
		postgres: []string{
			`ALTER TABLE stratum_counts ADD COLUMN IF NOT EXISTS shard smallint NOT NULL DEFAULT 0`,
			`ALTER TABLE stratum_counts DROP CONSTRAINT IF EXISTS stratum_counts_pkey`,
			`ALTER TABLE stratum_counts ADD PRIMARY KEY (tbl, published, locale, shard)`,
			`ALTER TABLE stratum_versions ADD COLUMN IF NOT EXISTS shard smallint NOT NULL DEFAULT 0`,
			`ALTER TABLE stratum_versions DROP CONSTRAINT IF EXISTS stratum_versions_pkey`,
			`ALTER TABLE stratum_versions ADD PRIMARY KEY (tbl, shard)`,
		},
	},
	{
		// The write fence (fence.go). SQLite needs nothing: its writes
		// already take turns on one connection.
		version:  7,
		name:     "schema write fence",
		postgres: []string{fenceFunction},
	},
}

// migrationLock is the PostgreSQL advisory lock nodes take turns on.
const migrationLock = 0x5374726174756d01

const migrationsTable = `CREATE TABLE IF NOT EXISTS stratum_migrations (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_at TEXT NOT NULL)`

// Migration is a system migration as recorded.
type Migration struct {
	Version   int
	Name      string
	AppliedAt string // UTC, TimeLayout
}

// LatestMigration is the version the system tables reach after Open.
func LatestMigration() int { return migrations[len(migrations)-1].version }

// MigrateSystem runs the system migrations the database has not recorded.
// Open calls it. Several nodes may call it at once: each migration runs
// under a lock (the PostgreSQL advisory lock, SQLite's write lock taken by
// BEGIN IMMEDIATE) and is skipped when another node recorded it first.
func (s *Store) MigrateSystem(ctx context.Context) error {
	done, err := s.appliedVersions(ctx, s.write)
	if err != nil {
		done = map[int]bool{} // no table yet: the first migration makes it
	}
	for _, m := range migrations {
		if done[m.version] {
			continue
		}
		if err := s.migrationTx(ctx, func(q querier) error { return s.apply(ctx, q, m) }); err != nil {
			return fmt.Errorf("system migration %d (%s): %w", m.version, m.name, err)
		}
	}
	return nil
}

// apply runs one migration unless it is recorded; q holds the lock.
func (s *Store) apply(ctx context.Context, q querier, m migration) error {
	if _, err := q.ExecContext(ctx, migrationsTable); err != nil {
		return err
	}
	var n int
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM stratum_migrations WHERE version = "+s.d.Placeholder(1), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil // another node was first
	}
	stmts := m.sqlite
	if s.d.Name() == "postgres" {
		stmts = m.postgres
	}
	for _, stmt := range stmts {
		if _, err := q.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if m.fn != nil {
		if err := m.fn(ctx, q, s.d); err != nil {
			return err
		}
	}
	_, err := q.ExecContext(ctx, "INSERT INTO stratum_migrations (version, name, applied_at) VALUES ("+
		s.d.Placeholder(1)+", "+s.d.Placeholder(2)+", "+s.d.Placeholder(3)+")",
		m.version, m.name, time.Now().UTC().Format(TimeLayout))
	return err
}

// migrationTx runs fn in a transaction that holds the migration lock.
func (s *Store) migrationTx(ctx context.Context, fn func(querier) error) error {
	if s.d.Name() == "postgres" {
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit()
	}
	// database/sql's BEGIN is DEFERRED: two stores on one file would both
	// read "not applied" and the second would fail to upgrade to a writer.
	// BEGIN IMMEDIATE takes the write lock first (waiting busy_timeout).
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := fn(conn); err != nil {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	return nil
}

func (s *Store) appliedVersions(ctx context.Context, q querier) (map[int]bool, error) {
	ms, err := s.migrationsFrom(ctx, q)
	if err != nil {
		return nil, err
	}
	out := map[int]bool{}
	for _, m := range ms {
		out[m.Version] = true
	}
	return out, nil
}

// Migrations lists the recorded system migrations in order.
func (s *Store) Migrations(ctx context.Context) ([]Migration, error) {
	return s.migrationsFrom(ctx, s.read)
}

func (s *Store) migrationsFrom(ctx context.Context, q querier) ([]Migration, error) {
	rows, err := q.QueryContext(ctx, "SELECT version, name, applied_at FROM stratum_migrations ORDER BY version")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Migration
	for rows.Next() {
		var m Migration
		if err := rows.Scan(&m.Version, &m.Name, &m.AppliedAt); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
