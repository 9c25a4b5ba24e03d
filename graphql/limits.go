package graphql

import (
	"fmt"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/kinds"
	"github.com/graphql-go/graphql/language/visitor"
)

// Limits refuse a document before it runs: the body size (handler.go),
// the number of field selections and aliases once fragments are expanded
// (a few fragments can otherwise ask for millions of fields), the depth
// (depthLimit), and introspection where it is off. Page sizes and nested
// lists are clamped to amountLimit (args.go).

// shape counts the fields and aliases of a document with fragments
// expanded; a fragment is counted once and multiplied by its uses.
type shape struct{ fields, aliases int }

func (a shape) add(b shape, times int) shape {
	const ceiling = 1 << 40 // keep products from overflowing
	return shape{min(a.fields+b.fields*times, ceiling), min(a.aliases+b.aliases*times, ceiling)}
}

func documentShape(doc *ast.Document) shape {
	frags := map[string]*ast.FragmentDefinition{}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			frags[f.Name.Value] = f
		}
	}
	memo := map[string]shape{}
	busy := map[string]bool{}
	var ofSet func(s *ast.SelectionSet) shape
	ofFrag := func(name string) shape {
		if v, ok := memo[name]; ok {
			return v
		}
		f := frags[name]
		if f == nil || busy[name] { // unknown or cyclic: validation reports it
			return shape{}
		}
		busy[name] = true
		v := ofSet(f.SelectionSet)
		busy[name] = false
		memo[name] = v
		return v
	}
	ofSet = func(s *ast.SelectionSet) shape {
		var out shape
		if s == nil {
			return out
		}
		for _, sel := range s.Selections {
			switch x := sel.(type) {
			case *ast.Field:
				out.fields++
				if x.Alias != nil {
					out.aliases++
				}
				out = out.add(ofSet(x.SelectionSet), 1)
			case *ast.InlineFragment:
				out = out.add(ofSet(x.SelectionSet), 1)
			case *ast.FragmentSpread:
				out = out.add(ofFrag(x.Name.Value), 1)
			}
		}
		return out
	}
	var total shape
	for _, d := range doc.Definitions {
		if op, ok := d.(*ast.OperationDefinition); ok {
			total = total.add(ofSet(op.SelectionSet), 1)
		}
	}
	return total
}

// checkShape refuses documents with too many fields or aliases.
func (s *Server) checkShape(doc *ast.Document) *gqlError {
	sh := documentShape(doc)
	if max := s.cfg.maxFields(); sh.fields > max {
		e := requestError(codeValidation, fmt.Sprintf("The query selects %d fields once its fragments are expanded; the limit is %d", sh.fields, max), nil)
		return &e
	}
	if max := s.cfg.maxAliases(); sh.aliases > max {
		e := requestError(codeValidation, fmt.Sprintf("The query uses %d aliases; the limit is %d", sh.aliases, max), nil)
		return &e
	}
	return nil
}

func ruleError(ctx *gql.ValidationContext, msg string, nodes ...ast.Node) {
	ctx.ReportError(gqlerrors.NewError(msg, nodes, "", nil, []int{}, nil))
}

// depthRule is graphql-depth-limit's rule (which Strapi uses) as a
// graphql-go validation rule: a field (a leaf too) below max levels of
// selections fails the operation; what is under an introspection field is
// not counted.
func depthRule(max int) gql.ValidationRuleFn {
	return func(ctx *gql.ValidationContext) *gql.ValidationRuleInstance {
		var depth func(s *ast.SelectionSet, sofar int, seen map[string]bool) (int, ast.Node)
		depth = func(s *ast.SelectionSet, sofar int, seen map[string]bool) (int, ast.Node) {
			if s == nil {
				return 0, nil
			}
			deepest := 0
			for _, sel := range s.Selections {
				switch x := sel.(type) {
				case *ast.Field:
					// As graphql-depth-limit: every field is checked where it
					// stands, leaves included, before introspection fields
					// and leaves are left out of the depth below.
					if sofar > max {
						return sofar, x
					}
					if x.SelectionSet == nil || (x.Name != nil && strings.HasPrefix(x.Name.Value, "__")) {
						continue
					}
					d, bad := depth(x.SelectionSet, sofar+1, seen)
					if bad != nil {
						return d, bad
					}
					deepest = maxInt(deepest, 1+d)
				case *ast.InlineFragment:
					d, bad := depth(x.SelectionSet, sofar, seen)
					if bad != nil {
						return d, bad
					}
					deepest = maxInt(deepest, d)
				case *ast.FragmentSpread:
					name := x.Name.Value
					f := ctx.Fragment(name)
					if f == nil || seen[name] {
						continue
					}
					seen[name] = true
					d, bad := depth(f.SelectionSet, sofar, seen)
					delete(seen, name)
					if bad != nil {
						return d, bad
					}
					deepest = maxInt(deepest, d)
				}
			}
			return deepest, nil
		}
		return &gql.ValidationRuleInstance{VisitorOpts: &visitor.VisitorOptions{
			KindFuncMap: map[string]visitor.NamedVisitFuncs{
				kinds.OperationDefinition: {Kind: func(p visitor.VisitFuncParams) (string, any) {
					op, ok := p.Node.(*ast.OperationDefinition)
					if !ok {
						return visitor.ActionNoChange, nil
					}
					if _, bad := depth(op.SelectionSet, 0, map[string]bool{}); bad != nil {
						name := ""
						if op.Name != nil {
							name = op.Name.Value
						}
						ruleError(ctx, fmt.Sprintf("'%s' exceeds maximum operation depth of %d", name, max), bad)
					}
					return visitor.ActionSkip, nil
				}},
			},
		}}
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// noIntrospectionRule refuses __schema and __type, as Apollo does in
// production; __typename stays allowed.
func noIntrospectionRule(ctx *gql.ValidationContext) *gql.ValidationRuleInstance {
	return &gql.ValidationRuleInstance{VisitorOpts: &visitor.VisitorOptions{
		KindFuncMap: map[string]visitor.NamedVisitFuncs{
			kinds.Field: {Kind: func(p visitor.VisitFuncParams) (string, any) {
				if f, ok := p.Node.(*ast.Field); ok && f.Name != nil && (f.Name.Value == "__schema" || f.Name.Value == "__type") {
					ruleError(ctx, "GraphQL introspection is not allowed, but the query contained __schema or __type. "+
						"To enable introspection, set apolloServer.introspection to true in the graphql plugin config", f)
				}
				return visitor.ActionNoChange, nil
			}},
		},
	}}
}
