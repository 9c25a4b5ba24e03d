package gqlschema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// opByName maps the operators of <Scalar>FilterInput to the engine's.
var opByName = func() map[string]query.Op {
	m := map[string]query.Op{}
	for _, o := range filterOps {
		m[o.name] = o.op
	}
	return m
}()

// filter turns a <Type>FiltersInput value into the engine's filter tree.
// uid names a content-type or a component.
func (b *builder) filter(uid string, v any) (query.Filter, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, nil
	}
	return b.filterNode(nil, uid, m)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func with(path []string, name string) []string {
	return append(append(make([]string, 0, len(path)+1), path...), name)
}

// logical reads the and/or/not of a filters input, node reading each
// object under it.
func logical(k string, v any, node func(map[string]any) (query.Filter, error)) (query.Filter, error) {
	if k == "not" {
		im, _ := v.(map[string]any)
		if len(im) == 0 {
			return nil, nil
		}
		x, err := node(im)
		if err != nil || x == nil {
			return nil, err
		}
		return query.Not{Filter: x}, nil
	}
	list, _ := v.([]any)
	var sub []query.Filter
	for _, it := range list {
		im, _ := it.(map[string]any)
		if len(im) == 0 {
			continue
		}
		x, err := node(im)
		if err != nil {
			return nil, err
		}
		if x != nil {
			sub = append(sub, x)
		}
	}
	return combine(sub, k == "or"), nil
}

func combine(parts []query.Filter, or bool) query.Filter {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	if or {
		return query.Or(parts)
	}
	return query.And(parts)
}

func (b *builder) filterNode(path []string, uid string, m map[string]any) (query.Filter, error) {
	ct := b.ms.Type(uid)
	var comp *models.Component
	if ct == nil {
		comp = b.ms.Component(uid)
	}
	attr := func(name string) *models.Attribute {
		if ct != nil {
			return ct.Attr(name)
		}
		if comp != nil {
			return comp.Attr(name)
		}
		return nil
	}
	var parts []query.Filter
	for _, k := range sortedKeys(m) {
		v := m[k]
		var f query.Filter
		var err error
		switch k {
		case "and", "or", "not":
			f, err = logical(k, v, func(im map[string]any) (query.Filter, error) { return b.filterNode(path, uid, im) })
		case "id":
			if ct == nil {
				return nil, errs.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
			}
			f, err = scalarOps(with(path, "documentId"), v)
		case "createdAt", "updatedAt", "publishedAt", "locale":
			if ct == nil {
				return nil, errs.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
			}
			f, err = scalarOps(with(path, k), v)
		default:
			a := attr(k)
			if a == nil || a.IsHidden() {
				return nil, errs.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
			}
			im, _ := v.(map[string]any)
			switch a.Type {
			case models.TypeRelation:
				if len(im) > 0 {
					f, err = b.filterNode(with(path, k), a.Target, im)
				}
			case models.TypeComponent:
				if len(im) > 0 {
					f, err = b.filterNode(with(path, k), a.Component, im)
				}
			default:
				f, err = scalarOps(with(path, k), v)
			}
		}
		if err != nil {
			return nil, err
		}
		if f != nil {
			parts = append(parts, f)
		}
	}
	return combine(parts, false), nil
}

// scalarOps turns a <Scalar>FilterInput on one field into conditions.
func scalarOps(path []string, v any) (query.Filter, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return &query.Cond{Path: path, Op: query.OpEq, Value: v}, nil
	}
	var parts []query.Filter
	for _, k := range sortedKeys(m) {
		val := m[k]
		switch k {
		case "and", "or":
			list, _ := val.([]any)
			var sub []query.Filter
			for _, x := range list {
				sub = append(sub, &query.Cond{Path: path, Op: query.OpEq, Value: x})
			}
			if f := combine(sub, k == "or"); f != nil {
				parts = append(parts, f)
			}
		case "not":
			f, err := scalarOps(path, val)
			if err != nil {
				return nil, err
			}
			if f != nil {
				parts = append(parts, query.Not{Filter: f})
			}
		case "null":
			parts = append(parts, &query.Cond{Path: path, Op: query.OpNull, Value: val})
		case "notNull":
			parts = append(parts, &query.Cond{Path: path, Op: query.OpNotNull, Value: val})
		default:
			op, ok := opByName[k]
			if !ok {
				return nil, errs.InvalidKey(k, strings.Join(path, ".")+"."+k, "query", "filters")
			}
			if op == query.OpIn || op == query.OpNotIn || op == query.OpBetween {
				if _, isList := val.([]any); !isList {
					val = []any{val}
				}
			}
			parts = append(parts, &query.Cond{Path: path, Op: op, Value: val})
		}
	}
	return combine(parts, false), nil
}

// itemsKey identifies the lists of one repeatable component field at one
// level: the same field node has the same arguments for every parent.
type itemsKey struct {
	field  *ast.Field
	status query.Status
}

// itemBatch collects the lists of a field whose filters or sort the
// engine applies in one query when the first of them is resolved.
type itemBatch struct {
	comp   *models.Component
	filter query.Filter
	sorts  []query.Sort
	status query.Status
	lists  [][]json.RawMessage
	done   bool
	kept   [][]int
	err    error
}

// componentList applies the filters, sort and pagination arguments of a
// repeatable component field to its items. Filters and sorts go through
// the engine's query compiler, as for documents, with every list of the
// field at this level in one query; pagination is a window over the result.
func (b *builder) componentList(p gql.ResolveParams, c *models.Component, items []json.RawMessage) (any, error) {
	window := func(kept []int) (any, error) {
		list := make([]*compValue, 0, len(kept))
		for _, i := range kept {
			if cv := b.decodeComponent(c, items[i]); cv != nil {
				list = append(list, cv)
			}
		}
		start, end, err := b.srv.window(p.Args["pagination"], len(list))
		if err != nil {
			return nil, err
		}
		return list[start:end], nil
	}
	filters, _ := p.Args["filters"].(map[string]any)
	sorts, err := parseSort(p.Args["sort"])
	if err != nil {
		return nil, err
	}
	if len(filters) == 0 && len(sorts) == 0 {
		all := make([]int, len(items))
		for i := range all {
			all[i] = i
		}
		return window(all)
	}
	rq := reqFrom(p.Context)
	if rq == nil {
		return nil, fmt.Errorf("no request in the context")
	}
	st := query.Published
	if e, ok := p.Source.(*entity); ok {
		st = e.status
	}
	key := itemsKey{field: p.Info.FieldASTs[0], status: st}
	bt := rq.items[key]
	if bt == nil {
		f, err := b.filter(c.UID, filters)
		if err != nil {
			return nil, err
		}
		bt = &itemBatch{comp: c, filter: f, sorts: sorts, status: st}
		if rq.items == nil {
			rq.items = map[itemsKey]*itemBatch{}
		}
		rq.items[key] = bt
	}
	idx := len(bt.lists)
	bt.lists = append(bt.lists, items)
	ctx := p.Context
	return func() (any, error) {
		if !bt.done {
			bt.done = true
			bt.kept, bt.err = b.srv.eng.FilterItems(ctx, access(ctx), b.ms, bt.comp, bt.lists, bt.filter, bt.sorts, bt.status)
		}
		if bt.err != nil {
			return nil, bt.err
		}
		return window(bt.kept[idx])
	}, nil
}
