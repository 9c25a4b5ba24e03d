package store

import (
	"context"

	"github.com/stratum-cms/stratum/models"
)

// PostgreSQL keeps statistics on an expression index's expression only
// once the table is analyzed, and autovacuum analyzes a table only after
// enough of its rows change. Without them the planner guesses 0.5% of the
// rows for any value: at start-up after a new expression index (the
// relation's (stored id, id) index replacing the older one), a filter
// through a relation on 10,000 articles went from 0.5 ms to 145 ms (a
// bitmap scan of every match, then a sort). So Migrate analyzes a table
// whose indexes it has just created.

// indexesMissing says whether some index tableDDL makes for ct does not
// exist yet (always false on SQLite, where the planner needs no
// statistics for these plans).
func (s *Store) indexesMissing(ctx context.Context, ct *models.ContentType) (bool, error) {
	if s.d.Name() != "postgres" {
		return false, nil
	}
	names := s.indexNames(ct)
	var n int
	err := s.write.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname = ANY($2)",
		ct.Table(), names).Scan(&n)
	return n < len(names), err
}

// analyze refreshes a table's planner statistics (PostgreSQL).
func (s *Store) analyze(ctx context.Context, table string) error {
	_, err := s.write.ExecContext(ctx, "ANALYZE "+quote(table))
	return err
}
