package store

import (
	"context"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// ListCounted reads a page and its total in one statement when it can. An
// unfiltered page's total from the counters is a column of every row (an
// uncorrelated subquery, computed once), which saves the list with count
// its second round trip; a filtered page's comes from the count cache
// (listFilteredCounted). counted is false when the total could not come
// this way (a sort through a relation, a system type, an empty page); the
// caller then counts as usual.
func (s *Store) ListCounted(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) ([]engine.Row, int64, bool, error) {
	c := &compiler{d: s.d}
	_, relSorted := relSortOf(q)
	total, ok := counterSQL(c, ct, q)
	if !ok && !relSorted && !ct.System {
		return s.listFilteredCounted(ctx, ct, q)
	}
	if !ok || relSorted {
		rows, err := s.List(ctx, ct, q)
		return rows, 0, false, err
	}
	// The total's values are bound first: its text comes first (SQLite's
	// placeholders are positional).
	rows, n, err := s.listWithColumn(ctx, c, ct, q, total)
	if err != nil || len(rows) == 0 {
		return rows, 0, false, err
	}
	return rows, n, true, nil
}

// listFilteredCounted reads a filtered page with, as a column of the same
// statement, a token of the write versions of the tables its COUNT reads:
// the sum of their versions, which every commit to one of them raises. A
// total cached under that token is exact, and the page costs one round
// trip; otherwise the COUNT runs and its total is kept under the token.
func (s *Store) listFilteredCounted(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) ([]engine.Row, int64, bool, error) {
	r := s.resolver(ctx)
	cc, countSQL, key, err := s.countStatement(r, ct, q)
	if err != nil {
		return nil, 0, false, err
	}
	if cc.uncached { // a system table (users) has no versions
		rows, err := s.List(ctx, ct, q)
		return rows, 0, false, err
	}
	c := &compiler{d: s.d, resolve: r}
	tables := uniqueSorted(append(cc.tables, ct.Table()))
	in := make([]string, len(tables))
	for i, tbl := range tables { // bound first: the column comes first
		in[i] = c.bind(tbl)
	}
	token := "SELECT CAST(COALESCE(SUM(v), 0) AS BIGINT) FROM stratum_versions WHERE tbl IN (" + strings.Join(in, ", ") + ")"
	rows, sum, err := s.listWithColumn(ctx, c, ct, q, token)
	if err != nil {
		return nil, 0, false, err
	}
	if len(rows) == 0 { // no row carried the token: count as Count does, on the same ids
		n, err := s.countCached(ctx, ct, cc, countSQL, key)
		return rows, n, err == nil, err
	}
	// The tables belong to the token: two filters may compile to one
	// statement (relation ids resolved) over different tables, whose sums
	// may meet.
	versions := "sum=" + strconv.FormatInt(sum, 10) + ";" + strings.Join(tables, ",")
	if n, ok := s.counts.get(key, versions); ok {
		return rows, n, true, nil
	}
	n, err := s.countNow(ctx, cc, countSQL)
	if err != nil {
		return nil, 0, false, err
	}
	s.counts.put(key, versions, n)
	return rows, n, true, nil
}

// listWithColumn reads a page whose rows end with column, an integer
// subquery the same on every row (a total, a version token); its values
// are bound on c already.
func (s *Store) listWithColumn(ctx context.Context, c *compiler, ct *models.ContentType, q *engine.ListQuery, column string) ([]engine.Row, int64, error) {
	stmt, err := s.listSQL(c, ct, q, docCols(q)+", ("+column+")")
	if err != nil {
		return nil, 0, err
	}
	var n int64
	var rows []engine.Row
	if q.Limit > 0 {
		rows = make([]engine.Row, 0, min(q.Limit, 100))
	}
	err = s.readRows(ctx, s.read, stmt, c.args, rowShape{extra: q.WithExtra, total: true}, func() { rows = rows[:0] },
		func(_ int, r engine.Row, v int64) error {
			rows, n = append(rows, r), v
			return nil
		})
	return rows, n, err
}
