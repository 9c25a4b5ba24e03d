package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

var _ engine.SchemaStore = (*Store)(nil)

const schemaVersionKey = "schema_version"

// notifyChannel is the PostgreSQL channel schema changes are announced on.
const notifyChannel = "stratum_schema"

// Definitions returns the stored definitions and the schema version.
func (s *Store) Definitions(ctx context.Context) ([]engine.Definition, int64, error) {
	// The version first: a change committing between the two reads then
	// labels newer definitions with an older version (the next write's
	// fence finds it behind and reloads), never the other way round, which
	// would blind the fence until the change after.
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return nil, 0, err
	}
	out, err := loadDefinitions(ctx, s.write)
	return out, v, err
}

// SchemaVersion reads the stored schema version (0 before any change).
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	var v string
	err := s.read.QueryRowContext(ctx, "SELECT value FROM stratum_meta WHERE key = "+s.d.Placeholder(1), schemaVersionKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(v, 10, 64)
}

// Evolve runs a schema change in one transaction on the write pool. DDL is
// transactional on both PostgreSQL and SQLite, so a failed change leaves
// tables and definitions as they were.
func (s *Store) Evolve(ctx context.Context, fn func(engine.SchemaTx) error) error {
	// One at a time in this process too: changes queued on the advisory
	// lock would each hold a pooled connection, and with the writers
	// queued behind them could hold them all (fence.go).
	s.evolving.Lock()
	defer s.evolving.Unlock()
	return s.writeTx(ctx, false, func(tx engine.Tx) error {
		st := &schemaTxn{txn: tx.(*txn)}
		if s.d.Name() == "postgres" {
			// One schema change at a time across every node, and no
			// document write in flight (fence.go): taken first, before
			// any row lock, so it cannot join a deadlock.
			if _, err := st.count().ExecContext(ctx, schemaLock); err != nil {
				return err
			}
		}
		return fn(st)
	})
}

// Watch announces possible schema changes: PostgreSQL LISTEN/NOTIFY (with a
// slow poll as a safety net), elsewhere a poll every half second.
func (s *Store) Watch(ctx context.Context, changed func()) {
	poll := 500 * time.Millisecond
	if s.d.Name() == "postgres" && s.url != "" {
		go s.listen(ctx, changed)
		poll = 5 * time.Second
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			changed()
		}
	}
}

// listen keeps a dedicated connection LISTENing, reconnecting after errors.
func (s *Store) listen(ctx context.Context, changed func()) {
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, s.url)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+notifyChannel)
			if err == nil {
				changed() // a change may have committed before we listened
			}
			for err == nil {
				if _, err = conn.WaitForNotification(ctx); err == nil {
					changed()
				}
			}
			conn.Close(context.Background())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
			changed() // we may have missed a notification while away
		}
	}
}

type schemaTxn struct{ *txn }

func (t *schemaTxn) SaveDefinition(d engine.Definition) error {
	_, err := t.count().ExecContext(t.ctx, "INSERT INTO stratum_definitions (uid, kind, body, updated_at) VALUES ("+
		t.ph(1)+", "+t.ph(2)+", "+t.ph(3)+", "+t.ph(4)+") ON CONFLICT (uid) DO UPDATE SET kind = excluded.kind, body = excluded.body, updated_at = excluded.updated_at",
		d.UID, d.Kind, string(d.Body), time.Now().UTC())
	return err
}

func (t *schemaTxn) DeleteDefinition(uid string) error {
	_, err := t.count().ExecContext(t.ctx, "DELETE FROM stratum_definitions WHERE uid = "+t.ph(1), uid)
	return err
}

func (t *schemaTxn) BumpVersion() (int64, error) {
	cur, _, err := t.Meta(schemaVersionKey)
	if err != nil {
		return 0, err
	}
	n, _ := strconv.ParseInt(cur, 10, 64)
	n++
	if err := t.SetMeta(schemaVersionKey, strconv.FormatInt(n, 10)); err != nil {
		return 0, err
	}
	if t.s.d.Name() == "postgres" { // delivered when the transaction commits
		if _, err := t.count().ExecContext(t.ctx, "SELECT pg_notify($1, $2)", notifyChannel, strconv.FormatInt(n, 10)); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (t *schemaTxn) CreateType(ct *models.ContentType) error {
	t.touch(ct.Table())
	for _, stmt := range t.s.tableDDL(ct) {
		if _, err := t.count().ExecContext(t.ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

func (t *schemaTxn) DropType(ct *models.ContentType) error {
	t.touch(ct.Table())
	if _, err := t.count().ExecContext(t.ctx, "DROP TABLE IF EXISTS "+quote(ct.Table())); err != nil {
		return err
	}
	_, err := t.count().ExecContext(t.ctx, "DELETE FROM stratum_counts WHERE tbl = "+t.ph(1), ct.Table())
	return err
}

func (t *schemaTxn) RenameTable(from, to string) error {
	t.touch(from)
	t.touch(to)
	if _, err := t.count().ExecContext(t.ctx, "ALTER TABLE "+quote(from)+" RENAME TO "+quote(to)); err != nil {
		return err
	}
	_, err := t.count().ExecContext(t.ctx, "UPDATE stratum_counts SET tbl = "+t.ph(1)+" WHERE tbl = "+t.ph(2), to, from)
	return err
}

// SyncIndexes drops the indexes old had that cur has not, then
// creates cur's (CREATE ... IF NOT EXISTS keeps the ones that stay).
func (t *schemaTxn) SyncIndexes(old, cur *models.ContentType) error {
	keep := map[string]bool{}
	for _, n := range t.s.indexNames(cur) {
		keep[n] = true
	}
	for _, n := range t.s.indexNames(old) {
		if !keep[n] {
			if _, err := t.count().ExecContext(t.ctx, "DROP INDEX IF EXISTS "+quote(n)); err != nil {
				return err
			}
		}
	}
	return t.CreateType(cur)
}

func (t *schemaTxn) Rows(ct *models.ContentType) ([]engine.Row, error) {
	q := "SELECT " + rowCols + ", t0.extra FROM " + quote(ct.Table()) + " t0 ORDER BY t0.id"
	return t.s.query(t.ctx, t.tx, q, nil, true)
}

func (t *schemaTxn) CountRows(ct *models.ContentType) (int64, error) {
	var n int64
	err := t.count().QueryRowContext(t.ctx, "SELECT COUNT(*) FROM "+quote(ct.Table())).Scan(&n)
	return n, err
}

func (t *schemaTxn) LoadDefinitions() ([]engine.Definition, error) {
	return loadDefinitions(t.ctx, t.count())
}

// loadDefinitions reads stratum_definitions (a schema file's JSON per
// runtime type or component) in uid order.
func loadDefinitions(ctx context.Context, q querier) ([]engine.Definition, error) {
	rows, err := q.QueryContext(ctx, "SELECT uid, kind, body FROM stratum_definitions ORDER BY uid")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.Definition
	for rows.Next() {
		var d engine.Definition
		var body string
		if err := rows.Scan(&d.UID, &d.Kind, &body); err != nil {
			return nil, err
		}
		d.Body = []byte(body)
		out = append(out, d)
	}
	return out, rows.Err()
}

func (t *schemaTxn) DeleteRow(ct *models.ContentType, id int64) error {
	_, err := t.deleteCounted(ct, "DELETE FROM "+quote(ct.Table())+" WHERE id = "+t.ph(1), []any{id})
	return err
}

func (t *schemaTxn) SetLocale(ct *models.ContentType, from, to string) error {
	t.touch(ct.Table())
	_, err := t.count().ExecContext(t.ctx, "UPDATE "+quote(ct.Table())+" SET locale = "+t.ph(1)+" WHERE locale = "+t.ph(2), to, from)
	if err != nil {
		return err
	}
	return t.Recount(ct)
}

// Recount sets a type's counters from its rows, after a change that moved
// rows between versions or locales.
func (t *schemaTxn) Recount(ct *models.ContentType) error {
	// The counters are locked before this transaction takes any of their
	// rows: a writer waiting for one of those rows would hold its lock on
	// the table and wait for us (see recount).
	if err := lockCounters(t.ctx, t.tx, t.s.d); err != nil {
		return err
	}
	if err := t.flushCounts(); err != nil {
		return err
	}
	t.s.statements.Add(2)
	return recount(t.ctx, t.tx, t.s.d, ct.Table())
}

// Announce tells the other nodes to drop what they cache from system tables
// (roles' permissions). On SQLite the nodes' poll does it without a word.
func (s *Store) Announce(ctx context.Context) {
	if s.d.Name() == "postgres" {
		_, _ = s.write.ExecContext(ctx, "SELECT pg_notify($1, 'auth')", notifyChannel)
	}
}
