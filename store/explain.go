package store

import (
	"context"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// Explain returns the database's plan for the list query, for tests and
// diagnosis of index use: on PostgreSQL with sequential scans off, so the
// plan says whether an index can serve the query, whatever the table size.
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
	var db querier = s.read
	if s.d.Name() == "postgres" {
		// On small tables the planner prefers a sequential scan; what is
		// asked here is whether an index can serve the query. SET LOCAL
		// holds for this transaction's connection only.
		tx, err := s.read.BeginTx(ctx, nil)
		if err != nil {
			return "", err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
			return "", err
		}
		db = tx
	}
	rows, err := db.QueryContext(ctx, prefix+sql, c.args...)
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
