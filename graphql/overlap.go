package graphql

import (
	"fmt"
	"reflect"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/kinds"
	"github.com/graphql-go/graphql/language/visitor"
)

// graphql-go's OverlappingFieldsCanBeMergedRule compares every pair of
// fields that share a response name, again for every enclosing selection
// set, and prints both arguments with its reflective printer for each
// pair: two fields with a 3 KB filter took a second, a few kilobytes more
// took minutes. overlapRule checks the same thing ("field selection
// merging" in the spec) in time linear in the fields selected: the fields
// of one response name are compared with one representative (equality is
// transitive), their sub-selections are merged and checked once, and
// arguments are compared by a canonical text built once per field.

// validationRules are the spec's rules with overlapRule in place of
// graphql-go's own.
func validationRules() []gql.ValidationRuleFn {
	slow := reflect.ValueOf(gql.OverlappingFieldsCanBeMergedRule).Pointer()
	rules := make([]gql.ValidationRuleFn, 0, len(gql.SpecifiedRules))
	for _, r := range gql.SpecifiedRules {
		if reflect.ValueOf(r).Pointer() == slow {
			r = overlapRule
		}
		rules = append(rules, r)
	}
	return rules
}

func overlapRule(ctx *gql.ValidationContext) *gql.ValidationRuleInstance {
	return &gql.ValidationRuleInstance{VisitorOpts: &visitor.VisitorOptions{
		KindFuncMap: map[string]visitor.NamedVisitFuncs{
			kinds.OperationDefinition: {Kind: func(p visitor.VisitFuncParams) (string, any) {
				op, ok := p.Node.(*ast.OperationDefinition)
				if !ok {
					return visitor.ActionNoChange, nil
				}
				schema := ctx.Schema()
				var root gql.Type = schema.QueryType()
				switch op.Operation {
				case ast.OperationTypeMutation:
					root = schema.MutationType()
				case ast.OperationTypeSubscription:
					root = schema.SubscriptionType()
				}
				if root == nil || reflect.ValueOf(root).IsNil() {
					return visitor.ActionSkip, nil
				}
				m := &merger{ctx: ctx, schema: schema, args: map[*ast.Field]string{}}
				m.check([]selection{{root, op.SelectionSet}})
				return visitor.ActionSkip, nil
			}},
		},
	}}
}

type selection struct {
	parent gql.Type
	set    *ast.SelectionSet
}

type fieldAt struct {
	parent gql.Type
	field  *ast.Field
	typ    gql.Type // nil when the field is unknown (another rule reports it)
}

type merger struct {
	ctx    *gql.ValidationContext
	schema *gql.Schema
	args   map[*ast.Field]string
}

// check verifies that the fields of the merged selection sets can merge,
// then does the same one level down for each response name.
func (m *merger) check(sets []selection) {
	groups := map[string][]fieldAt{}
	var names []string
	for _, s := range sets {
		m.collect(s.parent, s.set, groups, &names, map[string]bool{})
	}
	for _, name := range names {
		group := groups[name]
		if !m.agree(name, group) {
			continue // one report per response name
		}
		var next []selection
		for _, f := range group {
			if f.field.SelectionSet != nil && f.typ != nil {
				next = append(next, selection{named(f.typ), f.field.SelectionSet})
			}
		}
		if len(next) > 0 {
			m.check(next)
		}
	}
}

func (m *merger) collect(t gql.Type, s *ast.SelectionSet, groups map[string][]fieldAt, names *[]string, visiting map[string]bool) {
	if s == nil {
		return
	}
	for _, sel := range s.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			if x.Name == nil {
				continue
			}
			resp := x.Name.Value
			if x.Alias != nil {
				resp = x.Alias.Value
			}
			fa := fieldAt{parent: t, field: x}
			if x.Name.Value == "__typename" {
				fa.typ = gql.NewNonNull(gql.String)
			} else if fields := fieldsOf(t); fields != nil {
				if d := fields[x.Name.Value]; d != nil {
					fa.typ = d.Type
				}
			}
			if _, seen := groups[resp]; !seen {
				*names = append(*names, resp)
			}
			groups[resp] = append(groups[resp], fa)
		case *ast.InlineFragment:
			it := t
			if x.TypeCondition != nil && x.TypeCondition.Name != nil {
				if nt := m.schema.Type(x.TypeCondition.Name.Value); nt != nil {
					it = nt
				}
			}
			m.collect(it, x.SelectionSet, groups, names, visiting)
		case *ast.FragmentSpread:
			if x.Name == nil || visiting[x.Name.Value] {
				continue // a cycle: NoFragmentCycles reports it
			}
			f := m.ctx.Fragment(x.Name.Value)
			if f == nil {
				continue
			}
			ft := t
			if f.TypeCondition != nil && f.TypeCondition.Name != nil {
				if nt := m.schema.Type(f.TypeCondition.Name.Value); nt != nil {
					ft = nt
				}
			}
			visiting[x.Name.Value] = true
			m.collect(ft, f.SelectionSet, groups, names, visiting)
			delete(visiting, x.Name.Value)
		}
	}
}

// agree reports whether the fields of one response name can merge: the
// same shape of answer always, and the same field and arguments unless
// their parents are different object types (they never apply together).
func (m *merger) agree(name string, group []fieldAt) bool {
	if len(group) < 2 {
		return true
	}
	abstract := false
	for _, f := range group {
		if _, ok := f.parent.(*gql.Object); !ok {
			abstract = true
		}
	}
	first := group[0]
	reps := map[gql.Type]fieldAt{}
	for _, f := range group {
		key := f.parent
		if abstract {
			key = nil
		}
		if rep, ok := reps[key]; !ok {
			reps[key] = f
		} else if rep.field.Name.Value != f.field.Name.Value {
			m.report(name, fmt.Sprintf("%s and %s are different fields", rep.field.Name.Value, f.field.Name.Value), rep.field, f.field)
			return false
		} else if m.argText(rep.field) != m.argText(f.field) {
			m.report(name, "they have differing arguments", rep.field, f.field)
			return false
		}
		if first.typ != nil && f.typ != nil && !sameShape(first.typ, f.typ) {
			m.report(name, fmt.Sprintf("they return conflicting types %v and %v", first.typ, f.typ), first.field, f.field)
			return false
		}
	}
	return true
}

func (m *merger) report(name, reason string, a, b *ast.Field) {
	ruleError(m.ctx, fmt.Sprintf(`Fields "%s" conflict because %s. Use different aliases on the fields to fetch both if this was intentional.`,
		name, reason), a, b)
}

// argText is a field's arguments as one canonical text, made once.
func (m *merger) argText(f *ast.Field) string {
	if s, ok := m.args[f]; ok {
		return s
	}
	var b strings.Builder
	for _, a := range f.Arguments {
		if a.Name != nil {
			b.WriteString(a.Name.Value)
		}
		b.WriteByte(':')
		writeValue(&b, a.Value)
		b.WriteByte(',')
	}
	m.args[f] = b.String()
	return m.args[f]
}

func writeValue(b *strings.Builder, v ast.Value) {
	switch x := v.(type) {
	case *ast.Variable:
		b.WriteByte('$')
		if x.Name != nil {
			b.WriteString(x.Name.Value)
		}
	case *ast.StringValue:
		fmt.Fprintf(b, "%q", x.Value)
	case *ast.IntValue:
		b.WriteString(x.Value)
	case *ast.FloatValue:
		b.WriteString(x.Value)
	case *ast.BooleanValue:
		fmt.Fprint(b, x.Value)
	case *ast.EnumValue:
		b.WriteString(x.Value)
	case *ast.ListValue:
		b.WriteByte('[')
		for _, it := range x.Values {
			writeValue(b, it)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case *ast.ObjectValue:
		b.WriteByte('{')
		for _, of := range x.Fields {
			if of.Name != nil {
				b.WriteString(of.Name.Value)
			}
			b.WriteByte(':')
			writeValue(b, of.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// sameShape: the same list and non-null wrapping, and for leaves the same
// type; objects are compared through their merged sub-selections.
func sameShape(a, b gql.Type) bool {
	for {
		na, aok := a.(*gql.NonNull)
		nb, bok := b.(*gql.NonNull)
		if aok != bok {
			return false
		}
		if aok {
			a, b = na.OfType, nb.OfType
		}
		la, aok := a.(*gql.List)
		lb, bok := b.(*gql.List)
		if aok != bok {
			return false
		}
		if !aok {
			break
		}
		a, b = la.OfType, lb.OfType
	}
	if isLeaf(a) || isLeaf(b) {
		return a.Name() == b.Name()
	}
	return true
}

func isLeaf(t gql.Type) bool {
	switch t.(type) {
	case *gql.Scalar, *gql.Enum:
		return true
	}
	return false
}

func named(t gql.Type) gql.Type {
	for {
		switch x := t.(type) {
		case *gql.NonNull:
			t = x.OfType
		case *gql.List:
			t = x.OfType
		default:
			return t
		}
	}
}
