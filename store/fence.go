package store

import (
	"context"
	"database/sql"
	"strconv"
)

// The write fence. A document write is checked and shaped against the
// schema snapshot its request started with; a schema change that commits
// while the write runs would leave a row of the old shape (a draft in a type
// that no longer has drafts, a value of a removed attribute). So every write
// transaction reads the stored schema version first, under a lock that a
// schema change takes exclusively for its whole transaction (PostgreSQL:
// the advisory lock Evolve already serialises changes with, shared here;
// SQLite: the one write connection and BEGIN IMMEDIATE). The engine compares
// it with its snapshot's and runs the write again on the new snapshot.

// fenceFunction reads the version after taking the lock, in one round
// trip. A plain SELECT could not: its snapshot is taken before the lock is
// granted, so it would read the version from before the change it waited
// for. A VOLATILE PL/pgSQL function takes a new snapshot per statement.
const fenceFunction = `CREATE OR REPLACE FUNCTION stratum_schema_fence() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	PERFORM pg_advisory_xact_lock_shared(hashtext('stratum_schema'));
	RETURN (SELECT value FROM stratum_meta WHERE key = 'schema_version');
END $$`

// schemaLock is what Evolve takes: the same key, exclusively.
const schemaLock = "SELECT pg_advisory_xact_lock(hashtext('stratum_schema'))"

// fence reads the stored schema version at the start of tx (0 before any
// change), holding the fence until tx ends.
func (s *Store) fence(ctx context.Context, tx *sql.Tx) (int64, error) {
	s.statements.Add(1)
	var v sql.NullString
	var err error
	if s.d.Name() == "postgres" {
		err = tx.QueryRowContext(ctx, "SELECT stratum_schema_fence()").Scan(&v)
	} else {
		err = tx.QueryRowContext(ctx, "SELECT value FROM stratum_meta WHERE key = ?", schemaVersionKey).Scan(&v)
		if err == sql.ErrNoRows {
			err = nil
		}
	}
	if err != nil || !v.Valid {
		return 0, err
	}
	return strconv.ParseInt(v.String, 10, 64)
}

func (t *txn) SchemaVersion() int64 { return t.schemaVersion }
