package graphql

import (
	"fmt"
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	each(t, options{cfg: Config{AmountLimit: 3, DepthLimit: 5, MaxFields: 300, MaxAliases: 10, MaxBodySize: 4096}}, func(t *testing.T, e *env) {
		e.blog()

		// amountLimit clamps every page and nested list.
		d := e.ok(`{ articles(pagination: {pageSize: 50}) { data { id } meta { pagination { pageSize } } } }`, nil)
		eq(t, "page clamped", len(list(d, "articles", "data")), 3)
		eq(t, "meta shows the clamp", str(d, "articles", "meta", "pagination", "pageSize"), "3")
		d = e.ok(`{ articles(pagination: {limit: -1}) { data { id } } }`, nil)
		eq(t, "limit -1 clamped", len(list(d, "articles", "data")), 3)
		d = e.ok(`{ articles(sort: "views") { data { id } } }`, nil)
		eq(t, "default page within the limit", len(list(d, "articles", "data")), 3)
		d = e.ok(`{ articles(filters: {title: {eq: "Alpha"}}) { data { attributes { quotes(pagination: {limit: 100}) { id } } } } }`, nil)
		eq(t, "nested list clamped", len(list(d, "articles", "data", 0, "attributes", "quotes")), 3)

		// depthLimit rejects deeper queries before they run.
		ok := `query Ok { articles { data { attributes { category { data { id } } } } } }`
		e.ok(ok, nil)
		deep := `query Deep { articles { data { attributes { category { data { attributes { articles { data { id } } } } } } } } }`
		r := e.q(deep, nil)
		eq(t, "depth status", r.Status, 400)
		eq(t, "depth code", r.errCode(), "GRAPHQL_VALIDATION_FAILED")
		eq(t, "depth message", r.errMessage(), "'Deep' exceeds maximum operation depth of 5")
		// Leaves count, as in graphql-depth-limit: a leaf at depth 6 is too deep.
		leaf := `query Leaf { articles { data { attributes { category { data { attributes { name } } } } } } }`
		eq(t, "leaf too deep", e.q(leaf, nil).errMessage(), "'Leaf' exceeds maximum operation depth of 5")
		e.ok(`query Five { articles { data { attributes { category { data { id } } } } } }`, nil)
		frag := `query F { articles { ...A } } fragment A on ArticleEntityResponseCollection { data { attributes { category { data { attributes { articles { data { id } } } } } } } }`
		eq(t, "depth through fragments", e.q(frag, nil).errCode(), "GRAPHQL_VALIDATION_FAILED")
		e.ok(`{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }`, nil) // introspection is not counted

		// Aliases and fields, counted with fragments expanded.
		var b strings.Builder
		b.WriteString("{")
		for i := 0; i < 11; i++ {
			fmt.Fprintf(&b, " a%d: __typename", i)
		}
		b.WriteString(" }")
		r = e.q(b.String(), nil)
		eq(t, "aliases", r.Status, 400)
		eq(t, "aliases message", r.errMessage(), "The query uses 11 aliases; the limit is 10")
		bomb := `{ articles { data { ...F3 } } } fragment F3 on ArticleEntity { ...F2 ...F2 ...F2 ...F2 ...F2 ...F2 ...F2 ...F2 }
			fragment F2 on ArticleEntity { ...F1 ...F1 ...F1 ...F1 ...F1 ...F1 ...F1 ...F1 } fragment F1 on ArticleEntity { id id id id id id id id }`
		r = e.q(bomb, nil)
		eq(t, "fragment bomb", r.Status, 400)
		if !strings.Contains(r.errMessage(), "514 fields") {
			t.Errorf("fragment bomb message: %s", r.Body)
		}

		// Oversized bodies and batched arrays are refused before parsing.
		r = e.post(map[string]any{"query": "{ __typename }", "pad": strings.Repeat("x", 5000)})
		eq(t, "body too large", r.Status, 413)
		eq(t, "body too large code", r.errCode(), "PAYLOAD_TOO_LARGE")
		r = e.post("[" + strings.TrimSuffix(strings.Repeat(`{"query": "{ __typename }"},`, 11), ",") + "]")
		eq(t, "batch", r.Status, 400)
		eq(t, "batch message", r.errMessage(), "The batch holds 11 operations: the limit is 10")
		r = e.post(`{"query": "{ articles { "}`)
		eq(t, "syntax", r.errCode(), "GRAPHQL_PARSE_FAILED")
		r = e.q(`{ articles(filters: `+strings.Repeat(`{and: [`, 100)+`{}`+strings.Repeat(`]}`, 100)+`) { data { id } } }`, nil)
		eq(t, "nesting", r.Status, 400)
		eq(t, "nesting message", r.errMessage(), "Syntax Error: the document nests brackets more than 128 levels deep")
		r = e.post(`not json`)
		eq(t, "bad JSON", r.Status, 400)
	})
}

// TestCost: an operation's estimated cost (each field once per time it is
// resolved: list sizes multiply along a path, aliases add up) is checked
// before it runs, from the document alone.
func TestCost(t *testing.T) {
	nested := func(alias, p string) string {
		return alias + `articles(pagination: ` + p + `) { data { attributes { tags(pagination: ` + p + `) { data { attributes {
			articles(pagination: ` + p + `) { data { id } } } } } } } }`
	}
	each(t, options{}, func(t *testing.T, e *env) {
		e.blog()
		cases := []struct {
			name, query string
			vars        map[string]any
			refused     bool
		}{
			{"three nested lists of 100", `{ ` + nested("", "{limit: 100}") + ` }`, nil, true},
			{"three nested lists of 25 (cost 33,001)", `{ ` + nested("", "{limit: 25}") + ` }`, nil, false},
			{"aliases add up", `{ ` + nested("a: ", "{limit: 25}") + nested(" b: ", "{limit: 25}") + nested(" c: ", "{limit: 25}") +
				nested(" d: ", "{limit: 25}") + ` }`, nil, true},
			{"a variable counts as amountLimit", `query($p: PaginationArg) { ` + nested("", "$p") + ` }`, map[string]any{"p": map[string]any{"limit": 1}}, true},
			{"limit -1 counts as amountLimit", `{ ` + nested("", "{limit: -1}") + ` }`, nil, true},
			{"through a fragment", `{ articles(pagination: {limit: 100}) { data { ...A } } } fragment A on ArticleEntity { attributes {
				tags(pagination: {limit: 100}) { data { attributes { articles(pagination: {limit: 100}) { data { id } } } } } } }`, nil, true},
		}
		for _, c := range cases {
			r := e.q(c.query, c.vars)
			refused := r.Status == 400 && strings.Contains(r.errMessage(), "estimated cost")
			if refused != c.refused {
				t.Errorf("%s: refused %v, want %v: %d %.300s", c.name, refused, c.refused, r.Status, r.Body)
			}
		}
	})
	small := start(t, dbSQLite(t), options{cfg: Config{MaxCost: 50}})
	small.blog()
	if r := small.q(`{ articles { data { id } } }`, nil); r.Status != 400 || r.errMessage() != "The query's estimated cost is 51 "+
		"(each field once for every time it is resolved; list sizes multiply along a path and aliases add up); the limit is 50" {
		t.Errorf("maxCost 50: %d %s", r.Status, r.Body)
	}
	small.ok(`{ articles(pagination: {limit: 10}) { data { id } } }`, nil)
	off := start(t, dbSQLite(t), options{cfg: Config{MaxCost: -1}})
	off.blog()
	off.ok(`{ `+nested("", "{limit: 100}")+` }`, nil)
}
