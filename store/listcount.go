package store

import (
	"context"
	"database/sql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// ListCounted reads an unfiltered page and its total in one statement: the
// total from the counters is a column of every row (an uncorrelated
// subquery, computed once), which saves the list with count its second
// round trip. counted is false when the total could not come this way (a
// filter, a sort through a relation, a system type, or an empty page);
// the caller then counts as usual.
func (s *Store) ListCounted(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) ([]engine.Row, int64, bool, error) {
	c := &compiler{d: s.d}
	_, relSorted := relSortOf(q)
	total, ok := counterSQL(c, ct, q)
	if !ok || relSorted {
		rows, err := s.List(ctx, ct, q)
		return rows, 0, false, err
	}
	cols := rowCols
	if q.WithExtra {
		cols += ", t0.extra"
	}
	// The total's values are bound first: its text comes first (SQLite's
	// placeholders are positional).
	stmt, err := s.listSQL(c, ct, q, cols+", ("+total+")")
	if err != nil {
		return nil, 0, false, err
	}
	var n int64
	rows, err := s.queryRows(ctx, s.read, stmt, c.args, func(sc scanner) (engine.Row, error) {
		return s.scan(withTotal{rows: sc.(*sql.Rows), n: &n}, q.WithExtra)
	})
	if err != nil || len(rows) == 0 {
		return rows, 0, false, err
	}
	return rows, n, true, nil
}

// withTotal scans a row of ListCounted: a row's columns, then the total.
type withTotal struct {
	rows *sql.Rows
	n    *int64
}

func (w withTotal) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.n)...) }
