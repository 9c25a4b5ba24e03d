// Package executor runs GraphQL operations: a fast executor for queries
// over generated resolvers (graphql-go's executor runs the rest), and the
// encoder that writes an answer's fields in the order the query selected
// them. It knows graphql-go's types and nothing of Stratum's schema: what
// it needs of the resolvers' values and of argument coercion it asks
// through Hooks.
package executor

import (
	"encoding/json"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/location"
)

// Operation is one operation of a validated document, with what executing
// and encoding it read.
type Operation struct {
	Schema *gql.Schema
	// Op is nil when the document has no operation of the requested name.
	Op        *ast.OperationDefinition
	Fragments map[string]*ast.FragmentDefinition
	// Vars are the request's variables as sent (numbers as json.Number,
	// nulls kept): graphql-go's coerced values drop explicit nulls.
	Vars   map[string]any
	opVars map[string]any
}

// NewOperation picks the operation named name (any one when name is empty,
// as graphql-go does: the last) and the document's fragments.
func NewOperation(schema *gql.Schema, doc *ast.Document, name string, vars map[string]any) *Operation {
	op := &Operation{Schema: schema, Fragments: map[string]*ast.FragmentDefinition{}, Vars: vars}
	for _, d := range doc.Definitions {
		switch x := d.(type) {
		case *ast.FragmentDefinition:
			op.Fragments[x.Name.Value] = x
		case *ast.OperationDefinition:
			if name == "" || (x.Name != nil && x.Name.Value == name) {
				op.Op = x
			}
		}
	}
	return op
}

// Root is the operation's root type (nil for an unknown operation or a
// subscription).
func (op *Operation) Root() gql.Type {
	if op.Op == nil {
		return nil
	}
	switch op.Op.Operation {
	case ast.OperationTypeMutation:
		return op.Schema.MutationType()
	case ast.OperationTypeQuery:
		return op.Schema.QueryType()
	}
	return nil
}

// Hooks is what the fast executor asks of the schema it runs.
type Hooks interface {
	// Custom tells that a field has a resolver the fast executor may not
	// run (a customisation): the operation goes to graphql-go.
	Custom(t *gql.Object, field string) bool
	// LiteralValue and VariableValue coerce an argument written in the
	// document, or given as a variable, to what the resolvers read.
	LiteralValue(v ast.Value, t gql.Type) any
	VariableValue(raw any, t gql.Type) any
	// Nil tells whether a resolved value is a typed nil, for the value
	// types the resolvers return (known false: ask reflection).
	Nil(v any) (isNil, known bool)
	// Items returns a new slice of a resolved list's items for the list
	// types the resolvers return ([]any is handled), nil when not one.
	Items(v any) []any
	// FormatError turns an execution error into the answer's entry.
	FormatError(gqlerrors.FormattedError) Error
}

// Error is one entry of `errors` in Apollo Server 3's format, which Strapi
// clients read: extensions.code and extensions.error.
type Error struct {
	Message    string                    `json:"message"`
	Locations  []location.SourceLocation `json:"locations,omitempty"`
	Path       []any                     `json:"path,omitempty"`
	Extensions map[string]any            `json:"extensions,omitempty"`
}

// LiteralValue is a document value as JSON would decode it (numbers as
// json.Number), variables read from vars.
func LiteralValue(v ast.Value, vars map[string]any) any {
	switch x := v.(type) {
	case *ast.StringValue:
		return x.Value
	case *ast.IntValue:
		return json.Number(x.Value)
	case *ast.FloatValue:
		return json.Number(x.Value)
	case *ast.BooleanValue:
		return x.Value
	case *ast.EnumValue:
		return x.Value
	case *ast.ListValue:
		out := make([]any, 0, len(x.Values))
		for _, it := range x.Values {
			out = append(out, LiteralValue(it, vars))
		}
		return out
	case *ast.ObjectValue:
		out := make(map[string]any, len(x.Fields))
		for _, f := range x.Fields {
			out[f.Name.Value] = LiteralValue(f.Value, vars)
		}
		return out
	case *ast.Variable:
		if vars != nil {
			return vars[x.Name.Value]
		}
	}
	return nil
}

// FieldSets are the selection sets of a field selected (and merged) once
// or more.
func FieldSets(fields []*ast.Field) []*ast.SelectionSet {
	out := make([]*ast.SelectionSet, 0, len(fields))
	for _, f := range fields {
		if f.SelectionSet != nil {
			out = append(out, f.SelectionSet)
		}
	}
	return out
}
