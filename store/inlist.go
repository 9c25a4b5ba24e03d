package store

import "encoding/json"

// inList is the condition that expr is one of vals, the whole list bound
// as ONE value through bind: an array on PostgreSQL (expr = ANY(…)), a
// JSON array read by json_each on SQLite. A list as long as a body or a
// page's stored relations make it (a 1 MiB body names ~38,000 ids) never
// passes a statement's limit on bound values (SQLite 32,766, PostgreSQL
// 65,535), and the statement's text does not change with the list's
// length (one cached plan).
func inList[T string | int64](d Dialect, expr string, vals []T, bind func(any) string) string {
	if d.Name() == "postgres" {
		return expr + " = ANY(" + bind(vals) + ")"
	}
	b, _ := json.Marshal(vals)
	return expr + " IN (SELECT value FROM json_each(" + bind(string(b)) + "))"
}

// inArgs is inList for a statement whose only bound value is the list.
func inArgs[T string | int64](d Dialect, expr string, vals []T) (string, []any) {
	var args []any
	cond := inList(d, expr, vals, func(v any) string {
		args = append(args, v)
		return d.Placeholder(len(args))
	})
	return cond, args
}
