package executor

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// graphql-go returns results as Go maps, whose order is lost. The encoder
// writes each object's keys in the order the query selected them, as the
// GraphQL spec asks and as Strapi's (Apollo's) answers come.

// t is the value's type in the schema, nil when unknown (JSON scalars,
// leaves): it tells which fragments apply to an object.
func (op *Operation) Encode(b []byte, v any, sets []*ast.SelectionSet, t gql.Type) []byte {
	if nn, ok := t.(*gql.NonNull); ok {
		t = nn.OfType
	}
	switch x := v.(type) {
	case map[string]any:
		return op.EncodeObject(b, x, sets, t)
	case []any:
		var it gql.Type
		if l, ok := t.(*gql.List); ok {
			it = l.OfType
		}
		b = append(b, '[')
		for i, v := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = op.Encode(b, v, sets, it)
		}
		return append(b, ']')
	case nil:
		return append(b, "null"...)
	case string:
		return AppendString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case json.Number:
		if x == "" {
			return append(b, '0')
		}
		return append(b, x...)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return append(b, "null"...)
		}
		return strconv.AppendFloat(b, x, 'f', -1, 64)
	}
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}

// encodeObject writes m's keys in the order the executor collects the
// selection's fields: fragments whose type condition applies to the
// object's type and fields that @skip or @include leave in, a response key
// placed by its first occurrence.
func (op *Operation) EncodeObject(b []byte, m map[string]any, sets []*ast.SelectionSet, t gql.Type) []byte {
	b = append(b, '{')
	n := 0
	done := make(map[string]bool, len(m))
	var fields []*ast.Field
	var obj *gql.Object
	if len(sets) > 0 {
		obj = op.objectType(t, m, sets)
		fields = op.collectFor(sets, obj)
	}
	for _, f := range fields {
		key := responseKey(f)
		v, ok := m[key]
		if !ok || done[key] {
			continue
		}
		done[key] = true
		var sub []*ast.SelectionSet
		for _, g := range fields {
			if responseKey(g) == key && g.SelectionSet != nil {
				sub = append(sub, g.SelectionSet)
			}
		}
		var ft gql.Type
		if obj != nil {
			if def := obj.Fields()[f.Name.Value]; def != nil {
				ft = def.Type
			}
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = AppendString(b, key)
		b = append(b, ':')
		b = op.Encode(b, v, sub, ft)
	}
	if len(done) < len(m) { // values the selection does not name (JSON scalars)
		rest := make([]string, 0, len(m)-len(done))
		for k := range m {
			if !done[k] {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		for _, k := range rest {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = AppendString(b, k)
			b = append(b, ':')
			b = op.Encode(b, m[k], nil, nil)
		}
	}
	return append(b, '}')
}

func responseKey(f *ast.Field) string {
	if f.Alias != nil {
		return f.Alias.Value
	}
	return f.Name.Value
}

// objectType is the object type of an answer of type t: t itself, or for a
// union the member named by a selected __typename, else the one member
// whose fields, collected, are exactly m's keys. nil when unknown.
func (op *Operation) objectType(t gql.Type, m map[string]any, sets []*ast.SelectionSet) *gql.Object {
	switch x := t.(type) {
	case *gql.Object:
		return x
	case *gql.Union:
		for _, f := range op.collectFor(sets, nil) {
			if f.Name.Value != "__typename" {
				continue
			}
			if name, ok := m[responseKey(f)].(string); ok {
				for _, o := range x.Types() {
					if o.Name() == name {
						return o
					}
				}
			}
		}
		var found *gql.Object
		for _, o := range x.Types() {
			keys := map[string]bool{}
			for _, f := range op.collectFor(sets, o) {
				keys[responseKey(f)] = true
			}
			if len(keys) != len(m) {
				continue
			}
			same := true
			for k := range m {
				same = same && keys[k]
			}
			if same {
				if found != nil {
					return nil
				}
				found = o
			}
		}
		return found
	}
	return nil
}

// collectFor lists the fields of sets the executor collects for an object
// of type t (nil: every fragment applies), through fragments, leaving out
// what @skip and @include leave out, in document order.
func (op *Operation) collectFor(sets []*ast.SelectionSet, t *gql.Object) []*ast.Field {
	var out []*ast.Field
	seen := map[string]bool{}
	var walk func(s *ast.SelectionSet)
	walk = func(s *ast.SelectionSet) {
		if s == nil {
			return
		}
		for _, sel := range s.Selections {
			switch x := sel.(type) {
			case *ast.Field:
				if op.included(x.Directives) {
					out = append(out, x)
				}
			case *ast.InlineFragment:
				if op.included(x.Directives) && op.applies(x.TypeCondition, t) {
					walk(x.SelectionSet)
				}
			case *ast.FragmentSpread:
				fd := op.Fragments[x.Name.Value]
				if fd == nil || seen[x.Name.Value] || !op.included(x.Directives) || !op.applies(fd.TypeCondition, t) {
					continue
				}
				seen[x.Name.Value] = true
				walk(fd.SelectionSet)
			}
		}
	}
	for _, s := range sets {
		walk(s)
	}
	return out
}

// applies tells whether a type condition applies to an object of type t.
func (op *Operation) applies(cond *ast.Named, t *gql.Object) bool {
	return TypeApplies(op.Schema, cond, t)
}

// variables are the request's variables with the defaults of the
// operation's variable definitions, for @skip and @include.
func (op *Operation) variables() map[string]any {
	if op.opVars != nil || op.Op == nil {
		return op.opVars
	}
	out := make(map[string]any, len(op.Vars))
	for k, v := range op.Vars {
		out[k] = v
	}
	for _, vd := range op.Op.VariableDefinitions {
		if name := vd.Variable.Name.Value; out[name] == nil && vd.DefaultValue != nil {
			out[name] = LiteralValue(vd.DefaultValue, nil)
		}
	}
	op.opVars = out
	return out
}

// included evaluates @skip and @include with the operation's variables, as
// graphql-go does.
func (op *Operation) included(dirs []*ast.Directive) bool {
	return PassesDirectives(dirs, func(v ast.Value) (bool, bool) {
		c, ok := LiteralValue(v, op.variables()).(bool)
		return c, ok
	})
}

const hexDigits = "0123456789abcdef"

func AppendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		j, _ := json.Marshal(s)
		return append(b, j...)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
