package store

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// stratum_counts keeps the number of rows of a content-type table per
// version and locale, changed in the same transaction as the rows: an
// unfiltered list's total is then a lookup instead of a scan of the table.
// stratum_versions holds each table's write version, bumped by every
// transaction that changes its rows, so a node can tell whether a count it
// cached still holds.

type countKey struct {
	tbl       string
	published bool
	locale    string
}

// countDelta records a row added (+1) or removed (-1) in a transaction.
func (t *txn) countDelta(ct *models.ContentType, published bool, locale string, d int64) {
	if t.deltas == nil {
		t.deltas = map[countKey]int64{}
	}
	t.touch(ct.Table())
	t.deltas[countKey{ct.Table(), published, locale}] += d
}

// touch records that the transaction changed rows of a table.
func (t *txn) touch(table string) {
	if t.touched == nil {
		t.touched = map[string]bool{}
	}
	t.touched[table] = true
}

// countShards is how many rows share a table's counters and version on
// PostgreSQL; a transaction changes those of one shard, chosen at random,
// so concurrent writers to a table rarely wait on each other's row locks.
// SQLite has one writer at a time: one shard.
const countShards = 16

// flushCounts applies the transaction's count changes and version bumps
// just before commit, in one statement on PostgreSQL together with the
// events kept for the outbox (fewer round trips while the rows are
// locked), always in the same order (version rows, then counter rows, each
// sorted by key), so concurrent writers never deadlock on these rows.
func (t *txn) flushCounts() error {
	tables := make([]string, 0, len(t.touched))
	for tbl := range t.touched {
		tables = append(tables, tbl)
	}
	sort.Strings(tables)
	t.touched = nil
	keys := make([]countKey, 0, len(t.deltas))
	for k, d := range t.deltas {
		if d != 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.tbl != b.tbl {
			return a.tbl < b.tbl
		}
		if a.published != b.published {
			return !a.published
		}
		return a.locale < b.locale
	})
	if len(tables) == 0 { // countDelta touches every table it counts
		return nil
	}
	pg := t.s.d.Name() == "postgres"
	shard := "0"
	var args []any
	var events string // "e AS (INSERT INTO stratum_events …)", or ""
	if pg {
		shard = strconv.Itoa(rand.IntN(countShards))
		// The outbox's events ride along: a data-modifying WITH clause runs
		// whether or not the statement reads it. One round trip fewer.
		if evs := t.events; len(evs) > 0 && len(evs) <= eventsPerStatement {
			t.events = nil
			var ins string
			ins, args = t.s.eventsInsert(evs, nil)
			events = "e AS (" + ins + ")"
		}
	}
	bind := func(v any) string {
		args = append(args, v)
		return t.ph(len(args))
	}
	rows := make([]string, len(tables))
	for i, tbl := range tables {
		rows[i] = "(" + bind(tbl) + ", " + shard + ", 1)"
	}
	versions := "INSERT INTO stratum_versions (tbl, shard, v) VALUES " + strings.Join(rows, ", ") +
		" ON CONFLICT (tbl, shard) DO UPDATE SET v = stratum_versions.v + 1"
	nVersionArgs := len(args)
	deltas := t.deltas
	t.deltas = nil
	if len(keys) == 0 {
		if events != "" {
			versions = "WITH " + events + " " + versions
		}
		_, err := t.count().ExecContext(t.ctx, versions, args...)
		return err
	}
	rows = make([]string, len(keys))
	for i, k := range keys {
		if pg { // typed: below, the values are a SELECT's, not an INSERT's
			rows[i] = "(" + bind(k.tbl) + "::text, " + bind(k.published) + "::boolean, " + bind(k.locale) + "::text, " +
				shard + "::smallint, " + bind(deltas[k]) + "::bigint)"
		} else {
			rows[i] = "(" + bind(k.tbl) + ", " + bind(k.published) + ", " + bind(k.locale) + ", " + shard + ", " + bind(deltas[k]) + ")"
		}
	}
	values := "VALUES " + strings.Join(rows, ", ")
	const upsertCounts = " ON CONFLICT (tbl, published, locale, shard) DO UPDATE SET n = stratum_counts.n + excluded.n"
	if pg {
		// One round trip. Every writer locks its version rows before its
		// counter rows (recount relies on that order): the counters are
		// read through the versions' RETURNING, so the versions are written
		// first, whatever order PostgreSQL gives unreferenced WITH clauses.
		with := "WITH "
		if events != "" {
			with += events + ", "
		}
		_, err := t.count().ExecContext(t.ctx, with+"v AS ("+versions+" RETURNING 1) INSERT INTO stratum_counts (tbl, published, locale, shard, n) "+
			"SELECT * FROM ("+values+") AS c WHERE EXISTS (SELECT 1 FROM v)"+upsertCounts, args...)
		return err
	}
	// SQLite: versions first, with the first arguments.
	if _, err := t.count().ExecContext(t.ctx, versions, args[:nVersionArgs]...); err != nil {
		return err
	}
	_, err := t.count().ExecContext(t.ctx, "INSERT INTO stratum_counts (tbl, published, locale, shard, n) "+values+upsertCounts, args[nVersionArgs:]...)
	return err
}

// bumpVersionSQL moves a table's version (shard 0) outside flushCounts.
func bumpVersionSQL(d Dialect) string {
	return "INSERT INTO stratum_versions (tbl, shard, v) VALUES (" + d.Placeholder(1) +
		", 0, 1) ON CONFLICT (tbl, shard) DO UPDATE SET v = stratum_versions.v + 1"
}

// fastCount answers an unfiltered list's total from the counters; ok is
// false when the query has conditions the counters cannot answer.
func (s *Store) fastCount(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) (int64, bool, error) {
	c := &compiler{d: s.d}
	stmt, ok := counterSQL(c, ct, q)
	if !ok {
		return 0, false, nil
	}
	var n int64
	s.statements.Add(1)
	err := s.read.QueryRowContext(ctx, stmt, c.args...).Scan(&n)
	return n, true, err
}

// counterSQL is the statement that sums a list's total from the counters,
// its values bound on c; false when the list has a filter (its total is
// counted in the table).
func counterSQL(c *compiler, ct *models.ContentType, q *engine.ListQuery) (string, bool) {
	if q.Filter != nil || q.DocumentIDs != nil || q.RefAttr != nil || ct.System {
		return "", false
	}
	conds := []string{"tbl = " + c.bind(ct.Table())}
	switch q.Version {
	case engine.VersionPublished:
		conds = append(conds, "published = "+c.bind(true))
	case engine.VersionDraft:
		conds = append(conds, "published = "+c.bind(false))
	}
	if q.Locale != query.AllLocales {
		conds = append(conds, "locale = "+c.bind(q.Locale))
	}
	return "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM stratum_counts WHERE " + strings.Join(conds, " AND "), true
}

// recount sets a table's counters from its rows (after schema changes that
// move rows between versions or locales, and for tables counted before).
//
// On PostgreSQL it first locks the counters against writers (EXCLUSIVE:
// reads go on) until its transaction ends: a writer that committed between
// the DELETE and the count would otherwise be counted twice (its row by
// the count, its +1 in a shard row the DELETE never saw).
func recount(ctx context.Context, db querier, d Dialect, table string) error {
	if pool, ok := db.(*sql.DB); ok && d.Name() == "postgres" {
		tx, err := pool.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := recount(ctx, tx, d, table); err != nil {
			_ = tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	if err := lockCounters(ctx, db, d); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM stratum_counts WHERE tbl = "+d.Placeholder(1), table); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO stratum_counts (tbl, published, locale, n) SELECT "+d.Placeholder(1)+
		", published_at IS NOT NULL, locale, COUNT(*) FROM "+quote(table)+" WHERE true GROUP BY published_at IS NOT NULL, locale"+
		" ON CONFLICT (tbl, published, locale, shard) DO UPDATE SET n = excluded.n", table)
	return err
}

// lockCounters keeps writers off the counters until the transaction ends
// (PostgreSQL; SQLite has one writer anyway). Take it before any counter
// or version row: a writer's flush holds the table lock while it waits
// for such a row.
func lockCounters(ctx context.Context, db querier, d Dialect) error {
	if d.Name() != "postgres" {
		return nil
	}
	_, err := db.ExecContext(ctx, "LOCK TABLE stratum_counts IN EXCLUSIVE MODE")
	return err
}

// ensureCounted counts a table that has no counters yet (one made before
// counters existed); tables with counters are left alone.
func (s *Store) ensureCounted(ctx context.Context, table string) error {
	var one int
	err := s.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM stratum_counts WHERE tbl = "+s.d.Placeholder(1), table).Scan(&one)
	if err != nil || one > 0 {
		return err
	}
	return recount(ctx, s.write, s.d, table)
}

// countCache keeps filtered totals per node: key is the compiled COUNT and
// its arguments, and an entry holds while the write versions of the tables
// it read are unchanged (checked against the database on every use).
type countCache struct {
	mu      sync.Mutex
	entries map[string]cachedCount
}

type cachedCount struct {
	versions string
	n        int64
}

const countCacheSize = 4096

// versions reads the write versions of tables as one comparable string.
func (s *Store) versions(ctx context.Context, tables []string) (string, error) {
	tables = uniqueSorted(tables)
	cond, args := inArgs(s.d, "tbl", tables)
	rows, err := s.read.QueryContext(ctx, "SELECT tbl, CAST(SUM(v) AS BIGINT) FROM stratum_versions WHERE "+cond+" GROUP BY tbl ORDER BY tbl", args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var tbl string
		var v int64
		if err := rows.Scan(&tbl, &v); err != nil {
			return "", err
		}
		b.WriteString(tbl + "=" + strconv.FormatInt(v, 10) + ";")
	}
	return b.String(), rows.Err()
}

func (c *countCache) get(key, versions string) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e.n, ok && e.versions == versions
}

func (c *countCache) put(key, versions string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= countCacheSize {
		c.entries = map[string]cachedCount{} // crude but bounded
	}
	c.entries[key] = cachedCount{versions: versions, n: n}
}

func uniqueSorted(in []string) []string {
	in = slices.Clone(in) // callers' slices share backing arrays (append)
	sort.Strings(in)
	out := in[:0]
	for i, s := range in {
		if i == 0 || s != in[i-1] {
			out = append(out, s)
		}
	}
	return out
}
