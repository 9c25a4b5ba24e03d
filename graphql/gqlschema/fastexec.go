package gqlschema

import (
	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/graphql/executor"
)

// hooks is what the fast executor asks of this schema's resolvers and
// argument coercion, for one request.
type hooks struct{ rq *request }

func (h hooks) Custom(t *gql.Object, field string) bool { return h.rq.b.custom[t.Name()+"."+field] }

func (h hooks) LiteralValue(v ast.Value, t gql.Type) any { return h.rq.b.inputValue(h.rq, v, t) }

func (h hooks) VariableValue(raw any, t gql.Type) any { return h.rq.b.rawValue(raw, t) }

func (h hooks) FormatError(fe gqlerrors.FormattedError) executor.Error {
	return h.rq.srv.FormatError(fe)
}

// Nil knows the resolvers' value types, so that the executor need not ask
// reflection for every field.
func (hooks) Nil(v any) (bool, bool) {
	switch x := v.(type) {
	case *entity:
		return x == nil, true
	case *entityResponse:
		return x == nil, true
	case *collection:
		return x == nil, true
	case *compValue:
		return x == nil, true
	case *fileValue:
		return x == nil, true
	case *pageInfo:
		return x == nil, true
	}
	return false, false
}

func (hooks) Items(v any) []any {
	switch l := v.(type) {
	case []*entity:
		return itemsOf(l)
	case []*compValue:
		return itemsOf(l)
	}
	return nil
}

func itemsOf[T any](l []T) []any {
	out := make([]any, len(l))
	for i, x := range l {
		out[i] = x
	}
	return out
}
