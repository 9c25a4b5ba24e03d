package graphql

import (
	"strings"
	"testing"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/parser"
)

// TestOverlapRuleAgrees: overlapRule gives graphql-go's verdict on field
// merging, on documents that merge and documents that conflict.
func TestOverlapRuleAgrees(t *testing.T) {
	e := start(t, dbSQLite(t), options{})
	b, err := e.Srv.current()
	if err != nil {
		t.Fatal(err)
	}
	docs := []struct {
		name, doc string
		valid     bool
	}{
		{"same field twice", `{ articles { data { id id attributes { title title } } } }`, true},
		{"alias of two fields", `{ articles { data { x: id x: __typename } } }`, false},
		{"differing arguments", `{ articles(sort: "title") { data { id } } articles(sort: "views") { data { id } } }`, false},
		{"same arguments", `{ articles(sort: "title") { data { id } } articles(sort: "title") { meta { pagination { total } } } }`, true},
		{"nested conflict", `{ a: articles { data { id } } a: articles { data { id: __typename } } }`, false},
		{"same variable", `query($s: [String]) { a: articles(sort: $s) { data { id } } a: articles(sort: $s) { data { id } } }`, true},
		{"different variables", `query($s: [String], $t: [String]) { a: articles(sort: $s) { data { id } } a: articles(sort: $t) { data { id } } }`, false},
		{"object arguments", `{ a: articles(filters: {title: {eq: "x"}}) { data { id } } a: articles(filters: {title: {eq: "y"}}) { data { id } } }`, false},
		{"union members may differ", `{ articles { data { attributes { blocks { ... on ComponentSharedQuote { t: title }
			... on ComponentSharedRichText { t: body } } } } } }`, true},
		{"union members, conflicting shapes", `{ articles { data { attributes { blocks { ... on ComponentSharedQuote { x: title }
			... on ComponentSharedSeo { x: shareImage { data { id } } } } } } } }`, false},
		{"fragment against a field", `{ articles { data { id ...F } } } fragment F on ArticleEntity { id: __typename }`, false},
		{"fragment agreeing", `{ articles { data { id ...F } } } fragment F on ArticleEntity { id attributes { title } }`, true},
		{"list against single", `{ articles { data { attributes { x: tags { data { id } } x: author { data { id } } } } } }`, false},
	}
	only := func(rule gql.ValidationRuleFn, src string) bool {
		doc, err := parser.Parse(parser.ParseParams{Source: src})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return gql.ValidateDocument(&b.Schema, doc, []gql.ValidationRuleFn{rule}).IsValid
	}
	for _, d := range docs {
		ours, theirs := only(overlapRule, d.doc), only(gql.OverlappingFieldsCanBeMergedRule, d.doc)
		if ours != d.valid || theirs != d.valid {
			t.Errorf("%s: ours %v, graphql-go %v, want %v", d.name, ours, theirs, d.valid)
		}
	}
	// Through the endpoint, a conflict is a validation failure.
	r := e.q(`{ articles { data { x: id x: __typename } } }`, nil)
	if r.Status != 400 || r.errCode() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(r.errMessage(), `Fields "x" conflict because id and __typename are different fields`) {
		t.Errorf("conflict: %d %s", r.Status, r.Body)
	}
}

// TestOverlapCheckIsLinear: fields with large arguments repeated under one
// name used to cost graphql-go's rule minutes of CPU per request (a pair
// with a 60 KB filter never finished); they are checked in one pass now
// (12 of them: 700 KB, within the body limit).
// The test would hang, not fail, on a regression.
func TestOverlapCheckIsLinear(t *testing.T) {
	e := start(t, dbSQLite(t), options{cfg: Config{MaxCost: -1}})
	big := `tags(filters: {or: [` + strings.Repeat(`{name: {eq: "bbbbbbbbbb"}}, `, 2000) + `]}) { __typename }`
	for _, n := range []int{2, 12} {
		q := `{ articles(pagination: {limit: 1}) { data { attributes { ` + strings.Repeat(big+" ", n) + `} } } }`
		r := e.q(q, nil)
		if r.Status != 200 && r.Status != 400 {
			t.Fatalf("n=%d: %d %.200s", n, r.Status, r.Body)
		}
	}
}
