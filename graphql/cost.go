package graphql

import (
	"fmt"
	"strconv"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
)

// The cost of an operation is estimated before it runs, from the document
// and the schema alone (so a cached document's verdict holds for any
// variables): every field selected counts one for each time it will be
// resolved, so the sizes of the lists above it multiply, and aliases and
// repeated selections add up. A list's size is its pagination argument
// (or its parent's, for the `data` of a collection), clamped to
// amountLimit; a variable counts as amountLimit; no argument counts as the
// default page size.

const costCeiling = int64(1) << 40 // products stay far from overflowing

type coster struct {
	schema    *gql.Schema
	frags     map[string]*ast.FragmentDefinition
	amount    int64
	def       int64
	busyFrags map[string]bool
}

// operationCost is the largest estimated cost of the document's operations.
func (s *Server) operationCost(schema *gql.Schema, doc *ast.Document, defaultLimit int) int64 {
	c := &coster{schema: schema, frags: map[string]*ast.FragmentDefinition{}, amount: int64(s.cfg.amountLimit()),
		busyFrags: map[string]bool{}}
	c.def = min(int64(defaultLimit), c.amount)
	if c.def <= 0 {
		c.def = c.amount
	}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok && f.Name != nil {
			c.frags[f.Name.Value] = f
		}
	}
	var worst int64
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		var root *gql.Object
		switch op.Operation {
		case ast.OperationTypeMutation:
			root = schema.MutationType()
		default:
			root = schema.QueryType()
		}
		worst = max(worst, c.set(root, op.SelectionSet, 1, 0))
	}
	return worst
}

// set is the cost of a selection set on type t, resolved mult times;
// pending is the page size its parent's pagination argument gave (0: none).
func (c *coster) set(t gql.Type, s *ast.SelectionSet, mult, pending int64) int64 {
	if s == nil {
		return 0
	}
	var cost int64
	for _, sel := range s.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			cost += c.field(t, x, mult, pending)
		case *ast.InlineFragment:
			it := t
			if x.TypeCondition != nil {
				if nt := c.schema.Type(x.TypeCondition.Name.Value); nt != nil {
					it = nt
				}
			}
			cost += c.set(it, x.SelectionSet, mult, pending)
		case *ast.FragmentSpread:
			f := c.frags[x.Name.Value]
			if f == nil || c.busyFrags[x.Name.Value] { // validation reports these
				continue
			}
			c.busyFrags[x.Name.Value] = true
			ft := t
			if f.TypeCondition != nil {
				if nt := c.schema.Type(f.TypeCondition.Name.Value); nt != nil {
					ft = nt
				}
			}
			cost += c.set(ft, f.SelectionSet, mult, pending)
			delete(c.busyFrags, x.Name.Value)
		}
		if cost > costCeiling {
			return costCeiling
		}
	}
	return cost
}

func (c *coster) field(parent gql.Type, f *ast.Field, mult, pending int64) int64 {
	var ft gql.Type
	if fields := fieldsOf(parent); fields != nil && f.Name != nil {
		if d := fields[f.Name.Value]; d != nil {
			ft = d.Type
		}
	}
	own, explicit := c.pageSize(f)
	if nn, ok := ft.(*gql.NonNull); ok {
		ft = nn.OfType
	}
	if l, ok := ft.(*gql.List); ok {
		size := own
		switch {
		case explicit:
		case pending > 0:
			size = pending
		default:
			size = c.def
		}
		mult = min(mult*size, costCeiling)
		ft = l.OfType
		if nn, ok := ft.(*gql.NonNull); ok {
			ft = nn.OfType
		}
	}
	next := int64(0)
	if explicit {
		next = own
	}
	return min(mult+c.set(ft, f.SelectionSet, mult, next), costCeiling)
}

// pageSize reads a field's pagination argument: the size it asks for and
// whether it gave one.
func (c *coster) pageSize(f *ast.Field) (int64, bool) {
	for _, a := range f.Arguments {
		if a.Name == nil || a.Name.Value != "pagination" {
			continue
		}
		obj, ok := a.Value.(*ast.ObjectValue)
		if !ok { // a variable: the most it can ask for
			return c.amount, true
		}
		size := c.def
		for _, of := range obj.Fields {
			if of.Name == nil || (of.Name.Value != "pageSize" && of.Name.Value != "limit") {
				continue
			}
			iv, ok := of.Value.(*ast.IntValue)
			if !ok {
				return c.amount, true
			}
			n, err := strconv.ParseInt(iv.Value, 10, 64)
			if err != nil || n < 0 || n > c.amount {
				n = c.amount // -1 means as many as allowed
			}
			size = max(n, 1)
		}
		return size, true
	}
	return 0, false
}

func fieldsOf(t gql.Type) gql.FieldDefinitionMap {
	switch x := t.(type) {
	case *gql.Object:
		return x.Fields()
	case *gql.Interface:
		return x.Fields()
	}
	return nil
}

// checkCost refuses an operation whose estimated cost passes maxCost.
func (s *Server) checkCost(schema *gql.Schema, doc *ast.Document) *gqlError {
	max := s.cfg.maxCost()
	if max <= 0 {
		return nil
	}
	if cost := s.operationCost(schema, doc, s.eng.Config().DefaultLimit); cost > int64(max) {
		e := requestError(codeValidation, fmt.Sprintf("The query's estimated cost is %d (each field once for every time it is resolved; "+
			"list sizes multiply along a path and aliases add up); the limit is %d", cost, max), nil)
		return &e
	}
	return nil
}
