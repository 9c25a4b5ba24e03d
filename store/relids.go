package store

import (
	"context"
	"database/sql"
	"strconv"
)

// maxResolvedIDs bounds the document ids a relation filter is resolved to
// before the page is read; a filter that matches more related documents
// keeps its subquery. (A variable for the tests of that path.)
var maxResolvedIDs = 256

// idResolver runs the subquery of a relation filter (the documents of the
// related type that match, `SELECT document_id FROM authors WHERE name =
// ...`) before the page, so the page names their ids as values: `author =
// ?`. SQLite's planner never uses the relation's index for `IN (subquery)`:
// it scans the page's order and reads each row's relations, about a
// quarter of the table for one author's articles. With values it reads that
// author's rows through the index, in the page's order. PostgreSQL plans
// the subquery as a join on the same index, and there the second round
// trip cost more than it saved (bench/README, session 8): it keeps the
// subquery. One resolver serves one request: the page and its count
// resolve each subquery once.
type idResolver struct {
	s    *Store
	ctx  context.Context
	memo map[string][]string // key: subquery and values; nil: too many ids
}

// resolver returns the request's resolver, nil where subqueries stay.
func (s *Store) resolver(ctx context.Context) *idResolver {
	if s.d.Name() != "sqlite" {
		return nil
	}
	return &idResolver{s: s, ctx: ctx}
}

// ids returns the distinct values q (one text column) reads, or ok false
// when there are more than maxResolvedIDs.
func (r *idResolver) ids(q string, args []any) ([]string, bool, error) {
	key := stmtKey(q, args)
	if ids, seen := r.memo[key]; seen {
		return ids, ids != nil, nil
	}
	if r.memo == nil {
		r.memo = map[string][]string{}
	}
	r.s.statements.Add(1)
	var ids []string
	err := sqlRead(r.ctx, r.s.read, q+" LIMIT "+strconv.Itoa(maxResolvedIDs+1), args, func() { ids = ids[:0] }, func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if len(ids) > maxResolvedIDs {
		ids = nil
	} else if ids == nil {
		ids = []string{}
	}
	r.memo[key] = ids
	return ids, ids != nil, nil
}
