package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/stratum-cms/stratum/engine"
)

// FilterItems runs the filter and sort of an item query over the bound
// lists: the items are compiled as component values, exactly as filters
// on a component inside a document row are.
func (s *Store) FilterItems(ctx context.Context, q *engine.ItemQuery) ([]engine.ItemRef, error) {
	c := &compiler{d: s.d}
	from, list, item := s.d.ListItems(c.bind(string(q.Lists)), "l0", "i0")
	where := "1=1"
	if q.Filter != nil {
		var err error
		if where, err = c.filter(q.Filter, "i0", "i0.value", q.Version); err != nil {
			return nil, err
		}
	}
	order := []string{list}
	for _, so := range q.Sort {
		e := c.sortExpr(so.Steps, "i0", "i0.value", q.Version)
		if so.Desc {
			order = append(order, e+" DESC NULLS FIRST")
		} else {
			order = append(order, e+" ASC NULLS LAST")
		}
	}
	order = append(order, item)
	s.statements.Add(1)
	var rows *sql.Rows
	err := again(ctx, func() (err error) {
		rows, err = s.read.QueryContext(ctx, "SELECT "+list+", "+item+" FROM "+from+" WHERE "+where+
			" ORDER BY "+strings.Join(order, ", "), c.args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.ItemRef
	for rows.Next() {
		var r engine.ItemRef
		if err := rows.Scan(&r.List, &r.Index); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
