package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// Migrate creates, for every content-type, its table and the indexes its
// schema asks for. It only adds: existing data is kept. The system tables
// are the numbered migrations' (MigrateSystem), run by Open.
func (s *Store) Migrate(ctx context.Context, sc *models.Schema) error {
	for _, ct := range sc.Types {
		missing, err := s.indexesMissing(ctx, ct)
		if err != nil {
			return fmt.Errorf("migrate %s (%s): %w", ct.UID, ct.Table(), err)
		}
		for _, stmt := range s.tableDDL(ct) {
			if _, err := s.write.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrate %s (%s): %w", ct.UID, ct.Table(), err)
			}
		}
		if missing {
			if err := s.analyze(ctx, ct.Table()); err != nil {
				return fmt.Errorf("analyze %s (%s): %w", ct.UID, ct.Table(), err)
			}
		}
		if err := s.ensureLargeColumn(ctx, ct.Table()); err != nil {
			return fmt.Errorf("migrate %s (%s): %w", ct.UID, ct.Table(), err)
		}
		if err := s.ensureCounted(ctx, ct.Table()); err != nil {
			return fmt.Errorf("count %s: %w", ct.UID, err)
		}
	}
	if err := s.dropContainmentIndexes(ctx, sc.Types); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, ct := range sc.SystemTypes() {
		for _, stmt := range s.extensionDDL(ct) {
			if _, err := s.write.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("migrate %s (%s): %w", ct.UID, ct.Table(), err)
			}
		}
	}
	return nil
}

// extensionDDL is the unique indexes of a user or role extension's unique
// attributes (the engine checks first; the index settles a race).
func (s *Store) extensionDDL(ct *models.ContentType) []string {
	ext := ct.Extension()
	if ext == nil {
		return nil
	}
	var out []string
	for _, a := range ext.Attributes {
		if a.IsUnique() && a.IsScalar() {
			col := engine.Column(a)
			out = append(out, "CREATE UNIQUE INDEX IF NOT EXISTS "+quote(uniqueIndex(ct.Table(), a, col))+" ON "+
				quote(ct.Table())+" (("+s.d.JSONText(col, a.Name)+"))")
		}
	}
	return out
}

func (s *Store) tableDDL(ct *models.ContentType) []string {
	t := ct.Table()
	q := quote(t)
	stmts := []string{
		s.d.CreateTable(t),
		// At most one draft and one published row per document and locale.
		"CREATE UNIQUE INDEX IF NOT EXISTS " + quote(indexName(t, "doc_uq")) + " ON " + q + " (document_id, locale, (published_at IS NULL))",
		// Default lists walk published (or draft) rows in id order.
		"CREATE INDEX IF NOT EXISTS " + quote(indexName(t, "pub_idx")) + " ON " + q + " (id) WHERE published_at IS NOT NULL",
		"CREATE INDEX IF NOT EXISTS " + quote(indexName(t, "draft_idx")) + " ON " + q + " (id) WHERE published_at IS NULL",
	}
	if ct.Localized {
		stmts = append(stmts,
			"CREATE INDEX IF NOT EXISTS "+quote(indexName(t, "loc_pub_idx"))+" ON "+q+" (locale, id) WHERE published_at IS NOT NULL",
			"CREATE INDEX IF NOT EXISTS "+quote(indexName(t, "loc_draft_idx"))+" ON "+q+" (locale, id) WHERE published_at IS NULL")
	}
	for _, a := range ct.Attributes {
		col := engine.Column(a)
		switch {
		case a.IsUnique() && a.IsScalar():
			// Unique among published rows of a locale: drafts are not checked (Strapi).
			stmts = append(stmts, "CREATE UNIQUE INDEX IF NOT EXISTS "+quote(uniqueIndex(t, a, col))+" ON "+q+
				" (("+s.d.JSONText(col, a.Name)+"), locale) WHERE published_at IS NOT NULL")
		case a.Type == models.TypeRelation && a.IsOwner() && !a.IsToMany():
			// (stored id, id): filters find a target's documents, and a sort
			// on the target's field reads them in id order (store/relsort.go).
			// It replaces the index on the stored id alone (<attr>_rel).
			stmts = append(stmts, "DROP INDEX IF EXISTS "+quote(indexName(t, a.Name+"_rel")),
				"CREATE INDEX IF NOT EXISTS "+quote(indexName(t, a.Name+"_relid"))+" ON "+q+
					" (("+s.d.JSONText(col, a.Name)+"), id)")
		default:
			if name, expr := s.scalarIndex(t, a); name != "" {
				stmts = append(stmts, "CREATE INDEX IF NOT EXISTS "+quote(name)+" ON "+q+" (("+expr+"), id)")
			}
		}
	}
	return stmts
}

// scalarIndex is the expression index of an attribute that filters and
// sorts use often and whose values are small (numbers, dates, times,
// enumerations, strings with a small maxLength): the expression is the one the query compiler emits, so
// the planner can use it. The value class is in the name, so a type change
// replaces the index instead of keeping a stale cast.
func (s *Store) scalarIndex(table string, a *models.Attribute) (string, string) {
	if a.IsUnique() {
		return "", "" // the unique index serves
	}
	e := s.d.JSONText(engine.Column(a), a.Name)
	switch a.Type {
	case models.TypeInteger, models.TypeBigInteger, models.TypeFloat, models.TypeDecimal:
		return indexName(table, a.Name+"_nix"), s.d.Number(e)
	case models.TypeDate, models.TypeTime, models.TypeDateTime, models.TypeTimestamp, models.TypeEnumeration:
		return indexName(table, a.Name+"_tix"), e
	case models.TypeString, models.TypeEmail:
		// Bounded strings as they are (a B-tree entry must stay under
		// ~2.7 KB); the others by their first prefixChars characters.
		if boundedString(a) {
			return indexName(table, a.Name+"_tix"), e
		}
		if prefixSorted(a) {
			return indexName(table, a.Name+"_pix"), s.d.Prefix(e)
		}
	}
	return "", ""
}

// boundedString says whether a string's maxLength keeps every value small
// enough for a B-tree entry as it is (600 characters of UTF-8 always are).
func boundedString(a *models.Attribute) bool { return a.MaxLength != nil && *a.MaxLength <= 600 }

// prefixChars is how much of an unbounded string its index holds: 255
// characters of UTF-8 (at most 1,020 bytes) always fit a B-tree entry.
const prefixChars = 255

// prefixSorted says whether a sort on the attribute goes by its prefix
// first (then the whole value): a string or email without a maxLength
// that bounds it, stored in the JSON document and readable by a query
// (hidden ones are refused in filters and sorts). The (prefix, id) index
// then serves the sort (PostgreSQL reads it in order and sorts each group
// of equal prefixes; SQLite sorts the right part), where the whole value,
// unbounded, cannot be indexed.
func prefixSorted(a *models.Attribute) bool {
	return (a.Type == models.TypeString || a.Type == models.TypeEmail) &&
		!boundedString(a) && !a.IsUnique() && !a.IsHidden() && a.Column == ""
}

// dropContainmentIndexes drops the GIN indexes on the whole data and
// extra columns that versions before 2026-11 made on PostgreSQL: no
// statement of ours can use them (none tests containment on a whole
// column), and every insert paid for each key of its document in both.
// One look at the catalogue for every type comes first, so a usual start
// takes no lock; the drop is CONCURRENTLY (reads and writes go on) and
// gives up after 2 s of waiting for its lock, until the next start.
func (s *Store) dropContainmentIndexes(ctx context.Context, types []*models.ContentType) error {
	if s.d.Name() != "postgres" || len(types) == 0 {
		return nil
	}
	names := make([]string, 0, 2*len(types))
	for _, ct := range types {
		names = append(names, indexName(ct.Table(), "data_gin"), indexName(ct.Table(), "extra_gin"))
	}
	rows, err := s.write.QueryContext(ctx, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1)", names)
	found, err := all(rows, err, func(r scanner) (*string, error) {
		var n string
		return &n, r.Scan(&n)
	})
	if err != nil || len(found) == 0 {
		return err
	}
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET lock_timeout = '2s'"); err != nil {
		return err
	}
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "RESET lock_timeout") }()
	for _, n := range found {
		// Not fatal: the index only costs writes, and the next start tries
		// again (one whose drop failed half-way is left invalid, and found).
		_, _ = conn.ExecContext(ctx, "DROP INDEX CONCURRENTLY IF EXISTS "+quote(n))
	}
	return nil
}

// ensureLargeColumn adds the large column to a table made before it
// existed; the check comes first so the usual start takes no table lock.
//
// On PostgreSQL the column is json, not jsonb: it is read whole and never
// searched by containment, and jsonb's conversion to text on every read
// was 45% of a list query's time in the database (the documents' long
// texts). A table whose large column is still jsonb is converted at start
// when it is small and no other session uses the database; otherwise it
// keeps working as it is until an operator converts it (README, Storage).
func (s *Store) ensureLargeColumn(ctx context.Context, table string) error {
	if s.d.Name() != "postgres" {
		var n int
		q := "SELECT COUNT(*) FROM pragma_table_info(" + s.d.Placeholder(1) + ") WHERE name = 'large'"
		if err := s.write.QueryRowContext(ctx, q, table).Scan(&n); err != nil || n > 0 {
			return err
		}
		_, err := s.write.ExecContext(ctx, "ALTER TABLE "+quote(table)+" ADD COLUMN large TEXT NOT NULL DEFAULT '{}'")
		return err
	}
	var typ string
	err := s.write.QueryRowContext(ctx, "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() "+
		"AND table_name = $1 AND column_name = 'large'", table).Scan(&typ)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = s.write.ExecContext(ctx, "ALTER TABLE "+quote(table)+" ADD COLUMN large JSON NOT NULL DEFAULT '{}'")
		return err
	case err != nil || typ != "jsonb":
		return err
	}
	// The planner's estimate (-1 when the table was never analyzed: not
	// known to be small) and the table's size both have to be small.
	var rows float64
	var size int64
	if err := s.write.QueryRowContext(ctx, "SELECT reltuples, pg_total_relation_size(oid) FROM pg_class WHERE oid = $1::regclass",
		quote(table)).Scan(&rows, &size); err != nil {
		return err
	}
	if rows < 0 || rows > largeConvertRows || size > largeConvertBytes || s.appName == "" {
		return nil
	}
	// Another node's prepared statements on this table would fail once
	// each when their result type changes: only a node alone converts.
	var others int
	if err := s.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "+
		"AND backend_type = 'client backend' AND application_name <> $1", s.appName).Scan(&others); err != nil || others > 0 {
		return err
	}
	// A conversion that waits for a lock or runs long is given up, not
	// fatal: the table works as it is, and the next start tries again.
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range []string{"SET LOCAL lock_timeout = '2s'", "SET LOCAL statement_timeout = '60s'",
		"ALTER TABLE " + quote(table) + " ALTER COLUMN large TYPE json USING large::json"} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return nil
		}
	}
	_ = tx.Commit()
	return nil
}

// largeConvertRows and largeConvertBytes bound a table whose large column
// is converted to json at start: a few seconds of table lock.
const (
	largeConvertRows  = 100_000
	largeConvertBytes = 512 << 20
)

// uniqueIndex names a unique index; the column is part of the name so an
// attribute that moves between data and extra gets a new index.
func uniqueIndex(table string, a *models.Attribute, col string) string {
	if col == "extra" {
		return indexName(table, a.Name+"_xuq")
	}
	return indexName(table, a.Name+"_uq")
}

// indexNames lists the indexes tableDDL makes for a type.
func (s *Store) indexNames(ct *models.ContentType) []string {
	t := ct.Table()
	out := []string{indexName(t, "doc_uq"), indexName(t, "pub_idx"), indexName(t, "draft_idx")}
	if ct.Localized {
		out = append(out, indexName(t, "loc_pub_idx"), indexName(t, "loc_draft_idx"))
	}
	for _, a := range ct.Attributes {
		switch {
		case a.IsUnique() && a.IsScalar():
			out = append(out, uniqueIndex(ct.Table(), a, engine.Column(a)))
		case a.Type == models.TypeRelation && a.IsOwner() && !a.IsToMany():
			out = append(out, indexName(ct.Table(), a.Name+"_relid"))
		default:
			if name, _ := s.scalarIndex(ct.Table(), a); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

// indexName keeps index names within PostgreSQL's 63 bytes.
func indexName(table, suffix string) string {
	n := table + "_" + suffix
	if len(n) <= 63 {
		return n
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	return fmt.Sprintf("%s_%08x", n[:50], h.Sum32())
}
