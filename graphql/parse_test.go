package graphql

import "testing"

// TestNullOnlyArguments: `f(a: null)` reads as `f`, whose only argument was
// null (graphql-go has no null literal and refuses an empty `()`).
func TestNullOnlyArguments(t *testing.T) {
	e := start(t, dbSQLite(t), options{})
	e.blog()
	for _, q := range []string{
		`{ articles(pagination: null) { data { id } } }`,
		`{ articles(pagination: null, sort: null) { data { attributes { tags(filters: null) { data { id } } } } } }`,
		`query($p: PaginationArg = null) { articles(pagination: $p) { data { id } } }`,
	} {
		d := e.ok(q, nil)
		if len(list(d, "articles", "data")) == 0 {
			t.Errorf("%s: no articles", q)
		}
	}
}
