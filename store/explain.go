package store

import (
	"context"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// Explain returns the database's plan for the list query, for tests and
// diagnosis of index use.
func (s *Store) Explain(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) (string, error) {
	c := &compiler{d: s.d}
	where, err := c.where(ct, q)
	if err != nil {
		return "", err
	}
	order := c.orderBy(q.Sort, q.Version)
	sql := "SELECT t0.id FROM " + c.from(ct) + " WHERE " + where + " ORDER BY " + order
	if q.Limit > 0 {
		sql += " LIMIT " + strconv.Itoa(q.Limit)
	}
	prefix := "EXPLAIN "
	if s.d.Name() == "sqlite" {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := s.read.QueryContext(ctx, prefix+sql, c.args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		for _, v := range vals {
			switch x := v.(type) {
			case string:
				b.WriteString(x + " ")
			case []byte:
				b.Write(x)
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), rows.Err()
}
