package store

import (
	"context"

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
	var rows []engine.Row
	if q.Limit > 0 {
		rows = make([]engine.Row, 0, min(q.Limit, 100))
	}
	err = s.readRows(ctx, s.read, stmt, c.args, rowShape{extra: q.WithExtra, total: true}, func() { rows = rows[:0] },
		func(_ int, r engine.Row, total int64) error {
			rows, n = append(rows, r), total
			return nil
		})
	if err != nil || len(rows) == 0 {
		return rows, 0, false, err
	}
	return rows, n, true, nil
}
