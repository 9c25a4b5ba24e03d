package graphql

import (
	"fmt"
	"strings"
	"testing"
)

// TestRepeatableComponentArguments: filters and sort on a repeatable
// component field go through the engine's query compiler, with the same
// meaning as on documents (case-sensitive contains, and/or/not, lists),
// on both databases, in one statement per field and level.
func TestRepeatableComponentArguments(t *testing.T) {
	cases := []struct {
		name, args string
		want       string // titles kept, in order
	}{
		{"contains", `filters: {body: {contains: "ir"}}`, "q1,q3"},
		{"contains is case-sensitive", `filters: {body: {contains: "IR"}}`, ""},
		{"containsi", `filters: {body: {containsi: "IR"}}`, "q1,q3"},
		{"startsWith", `filters: {body: {startsWith: "se"}}`, "q2"},
		{"ne", `filters: {title: {ne: "q2"}}`, "q1,q3"},
		{"in, sorted", `filters: {title: {in: ["q3", "q1"]}}, sort: "title:desc"`, "q3,q1"},
		{"or", `filters: {or: [{title: {eq: "q1"}}, {body: {eq: "third"}}]}`, "q1,q3"},
		{"not", `filters: {not: {title: {eq: "q2"}}}`, "q1,q3"},
		{"and", `filters: {and: [{title: {gte: "q2"}}, {body: {endsWith: "d"}}]}`, "q2,q3"},
		{"null", `filters: {title: {null: true}}`, ""},
		{"notNull", `filters: {title: {notNull: true}}`, "q1,q2,q3"},
		{"sort only", `sort: "body"`, "q1,q2,q3"},
		{"sort desc, paged", `sort: "body:desc", pagination: {limit: 2}`, "q3,q2"},
		{"% and _ match themselves", `filters: {body: {contains: "%"}}`, ""},
	}
	each(t, options{}, func(t *testing.T, e *env) {
		e.blog()
		for _, c := range cases {
			d := e.ok(`{ articles(filters: {title: {eq: "Alpha"}}) { data { attributes { quotes(`+c.args+`) { title } } } } }`, nil)
			var got []string
			for _, q := range list(d, "articles", "data", 0, "attributes", "quotes") {
				got = append(got, q.(map[string]any)["title"].(string))
			}
			if strings.Join(got, ",") != c.want {
				t.Errorf("%s: got %v, want %s", c.name, got, c.want)
			}
		}
		for _, bad := range []string{`sort: "nope"`, `sort: "title.x"`, `filters: {nope: {eq: "x"}}`} {
			r := e.q(`{ articles { data { attributes { quotes(`+bad+`) { title } } } } }`, nil)
			if r.Status != 200 && r.Status != 400 || !strings.Contains(string(r.Body), "errors") || strings.Contains(string(r.Body), "INTERNAL") {
				t.Errorf("%s: %d %s", bad, r.Status, r.Body)
			}
		}

		// Every list of the field at one level is filtered in one statement.
		for i := 0; i < 20; i++ {
			e.seed("articles", map[string]any{"title": fmt.Sprintf("Q%02d", i),
				"quotes": []any{map[string]any{"title": "a", "body": "x"}, map[string]any{"title": "b", "body": "y"}}})
		}
		count := func(n int) int64 {
			before := e.Store.Statements()
			d := e.ok(fmt.Sprintf(`{ articles(pagination: {pageSize: %d}, filters: {title: {startsWith: "Q"}}) { data { attributes {
				quotes(filters: {body: {eq: "y"}}) { title } } } } }`, n), nil)
			for _, a := range list(d, "articles", "data") {
				if q := a.(map[string]any)["attributes"].(map[string]any)["quotes"].([]any); len(q) != 1 {
					t.Fatalf("quotes: %v", q)
				}
			}
			return e.Store.Statements() - before
		}
		if small, big := count(2), count(20); small != big {
			t.Errorf("statements: %d for 2 articles, %d for 20", small, big)
		}
	})
}
