package store

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/engine"
)

// ListBatch reads several lists in one statement: a populate's relations
// of one level (an article's author, category and tags) cost one round
// trip instead of one each. Each list is its own subquery, tagged with its
// position; their rows come back in the order of their lists, each list's
// rows in its own order (each subquery's ORDER BY, kept by UNION ALL's
// append of the branches on both databases).
func (s *Store) ListBatch(ctx context.Context, items []engine.BatchItem, limit int) ([][]engine.Row, error) {
	out := make([][]engine.Row, len(items))
	if len(items) == 0 {
		return out, nil
	}
	c := &compiler{d: s.d}
	// The large column may be json in one table and jsonb in another
	// (an older table, see ensureLargeColumn): UNION needs one type.
	large, noExtra := "t0.large", "NULL"
	if s.d.Name() == "postgres" {
		large, noExtra = "t0.large::text", "NULL::jsonb"
	}
	cols := strings.Replace(rowCols, "t0.large", large, 1)
	var b strings.Builder
	for i, it := range items {
		if it.Type.System {
			return nil, errBatchSystem
		}
		extra := ", " + noExtra // a list that needs no extra does not read it
		if it.Query.WithExtra {
			extra = ", t0.extra"
		}
		stmt, err := s.listSQL(c, it.Type, it.Query, cols+extra)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		n := strconv.Itoa(i)
		b.WriteString("SELECT " + n + " AS q, s" + n + ".* FROM (" + stmt + ") s" + n)
	}
	if limit >= 0 {
		b.WriteString(" LIMIT " + strconv.Itoa(limit))
	}
	err := s.readRows(ctx, s.read, b.String(), c.args, rowShape{tag: true, extra: true}, func() {
		for i := range out {
			out[i] = out[i][:0]
		}
	}, func(q int, r engine.Row, _ int64) error {
		if q < 0 || q >= len(out) {
			return errBatchTag
		}
		out[q] = append(out[q], r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

var (
	errBatchSystem = errors.New("store: a batch reads content types only")
	errBatchTag    = errors.New("store: a batch row of no list")
)
