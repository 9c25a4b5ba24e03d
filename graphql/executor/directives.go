package executor

import (
	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// What both executors (and the ordering of graphql-go's answers) decide
// the same way about a selection: whether @skip/@include keep it, and
// whether a fragment's type condition applies to an object type.

// skipInclude picks the @skip and the @include that count: graphql-go
// accepts a directive repeated on one selection (the spec's validation
// refuses it) and reads the last one.
func skipInclude(dirs []*ast.Directive) (skip, include *ast.Directive) {
	for _, d := range dirs {
		if d == nil || d.Name == nil {
			continue
		}
		switch d.Name.Value {
		case "skip":
			skip = d
		case "include":
			include = d
		}
	}
	return skip, include
}

// PassesDirectives evaluates @skip and @include; cond reads an `if`
// argument's value (ok false: it has none and does not decide).
func PassesDirectives(dirs []*ast.Directive, cond func(ast.Value) (value, ok bool)) bool {
	skip, include := skipInclude(dirs)
	for _, d := range []*ast.Directive{skip, include} {
		if d == nil {
			continue
		}
		for _, a := range d.Arguments {
			if a.Name.Value != "if" {
				continue
			}
			if c, ok := cond(a.Value); ok && ((d == skip && c) || (d == include && !c)) {
				return false
			}
		}
	}
	return true
}

// TypeApplies reports whether a fragment with type condition cond applies
// to objects of type t: the same type, a union holding it, or an
// interface it implements.
func TypeApplies(schema *gql.Schema, cond *ast.Named, t *gql.Object) bool {
	if cond == nil || t == nil || cond.Name.Value == t.Name() {
		return true
	}
	if schema != nil {
		if u, ok := schema.Type(cond.Name.Value).(*gql.Union); ok {
			for _, o := range u.Types() {
				if o.Name() == t.Name() {
					return true
				}
			}
			return false
		}
	}
	for _, i := range t.Interfaces() {
		if i.Name() == cond.Name.Value {
			return true
		}
	}
	return false
}
