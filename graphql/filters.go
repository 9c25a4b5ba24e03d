package graphql

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// opByName maps the operators of <Scalar>FilterInput to the engine's.
var opByName = func() map[string]engine.Op {
	m := map[string]engine.Op{}
	for _, o := range filterOps {
		m[o.name] = o.op
	}
	return m
}()

// filter turns a <Type>FiltersInput value into the engine's filter tree.
// uid names a content-type or a component.
func (b *builder) filter(uid string, v any) (engine.Filter, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, nil
	}
	return b.filterNode(nil, uid, m)
}

func sortedKeys(m map[string]any) []string {
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

func combine(parts []engine.Filter, or bool) engine.Filter {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	if or {
		return engine.Or(parts)
	}
	return engine.And(parts)
}

func (b *builder) filterNode(path []string, uid string, m map[string]any) (engine.Filter, error) {
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
	var parts []engine.Filter
	for _, k := range sortedKeys(m) {
		v := m[k]
		var f engine.Filter
		var err error
		switch k {
		case "and", "or":
			list, _ := v.([]any)
			var sub []engine.Filter
			for _, it := range list {
				im, _ := it.(map[string]any)
				if len(im) == 0 {
					continue
				}
				x, err := b.filterNode(path, uid, im)
				if err != nil {
					return nil, err
				}
				if x != nil {
					sub = append(sub, x)
				}
			}
			f = combine(sub, k == "or")
		case "not":
			im, _ := v.(map[string]any)
			if len(im) > 0 {
				x, err := b.filterNode(path, uid, im)
				if err != nil {
					return nil, err
				}
				if x != nil {
					f = engine.Not{Filter: x}
				}
			}
		case "id":
			if ct == nil {
				return nil, engine.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
			}
			f, err = scalarOps(with(path, "documentId"), v)
		case "createdAt", "updatedAt", "publishedAt", "locale":
			if ct == nil {
				return nil, engine.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
			}
			f, err = scalarOps(with(path, k), v)
		default:
			a := attr(k)
			if a == nil || a.IsHidden() {
				return nil, engine.InvalidKey(k, strings.Join(with(path, k), "."), "query", "filters")
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
func scalarOps(path []string, v any) (engine.Filter, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return &engine.Cond{Path: path, Op: engine.OpEq, Value: v}, nil
	}
	var parts []engine.Filter
	for _, k := range sortedKeys(m) {
		val := m[k]
		switch k {
		case "and", "or":
			list, _ := val.([]any)
			var sub []engine.Filter
			for _, x := range list {
				sub = append(sub, &engine.Cond{Path: path, Op: engine.OpEq, Value: x})
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
				parts = append(parts, engine.Not{Filter: f})
			}
		case "null":
			parts = append(parts, &engine.Cond{Path: path, Op: engine.OpNull, Value: val})
		case "notNull":
			parts = append(parts, &engine.Cond{Path: path, Op: engine.OpNotNull, Value: val})
		default:
			op, ok := opByName[k]
			if !ok {
				return nil, engine.InvalidKey(k, strings.Join(path, ".")+"."+k, "query", "filters")
			}
			if op == engine.OpIn || op == engine.OpNotIn || op == engine.OpBetween {
				if _, isList := val.([]any); !isList {
					val = []any{val}
				}
			}
			parts = append(parts, &engine.Cond{Path: path, Op: op, Value: val})
		}
	}
	return combine(parts, false), nil
}

// componentList applies the filters, sort and pagination arguments of a
// repeatable component field to its items, in memory: they are stored
// inline in the document.
func (b *builder) componentList(p gql.ResolveParams, c *models.Component, list []*compValue) (any, error) {
	if m, ok := p.Args["filters"].(map[string]any); ok && len(m) > 0 {
		kept := list[:0:0]
		for _, cv := range list {
			if b.matchComponent(c, cv, m) {
				kept = append(kept, cv)
			}
		}
		list = kept
	}
	sorts, err := parseSort(p.Args["sort"])
	if err != nil {
		return nil, err
	}
	if len(sorts) > 0 {
		for _, so := range sorts {
			if len(so.Path) != 1 || c.Attr(so.Path[0]) == nil || !c.Attr(so.Path[0]).IsScalar() {
				return nil, engine.InvalidKey(strings.Join(so.Path, "."), strings.Join(so.Path, "."), "query", "sort")
			}
		}
		sort.SliceStable(list, func(i, j int) bool {
			for _, so := range sorts {
				x, y := decodeAny(list[i].m[so.Path[0]]), decodeAny(list[j].m[so.Path[0]])
				if d := compareValues(x, y); d != 0 {
					return (d < 0) != so.Desc
				}
			}
			return false
		})
	}
	start, end, err := b.srv.window(p.Args["pagination"], len(list))
	if err != nil {
		return nil, err
	}
	return list[start:end], nil
}

func decodeAny(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var v any
	_ = d.Decode(&v)
	return v
}

func (b *builder) matchComponent(c *models.Component, cv *compValue, m map[string]any) bool {
	for k, v := range m {
		switch k {
		case "and":
			list, _ := v.([]any)
			for _, it := range list {
				if im, ok := it.(map[string]any); ok && !b.matchComponent(c, cv, im) {
					return false
				}
			}
			continue
		case "or":
			list, _ := v.([]any)
			matched := len(list) == 0
			for _, it := range list {
				if im, ok := it.(map[string]any); ok && b.matchComponent(c, cv, im) {
					matched = true
				}
			}
			if !matched {
				return false
			}
			continue
		case "not":
			if im, ok := v.(map[string]any); ok && len(im) > 0 && b.matchComponent(c, cv, im) {
				return false
			}
			continue
		}
		a := c.Attr(k)
		if a == nil {
			return false
		}
		im, _ := v.(map[string]any)
		if a.Type == models.TypeComponent {
			nc := b.ms.Component(a.Component)
			raw := cv.m[k]
			if a.Repeatable {
				var items []json.RawMessage
				_ = json.Unmarshal(raw, &items)
				found := false
				for _, it := range items {
					if x := b.decodeComponent(nc, it); x != nil && b.matchComponent(nc, x, im) {
						found = true
					}
				}
				if !found {
					return false
				}
			} else if x := b.decodeComponent(nc, raw); x == nil || !b.matchComponent(nc, x, im) {
				return false
			}
			continue
		}
		if !matchScalar(decodeAny(cv.m[k]), im) {
			return false
		}
	}
	return true
}

func matchScalar(val any, ops map[string]any) bool {
	for op, arg := range ops {
		if !matchOp(val, op, arg) {
			return false
		}
	}
	return true
}

func matchOp(val any, op string, arg any) bool {
	s, as := fmt.Sprint(val), fmt.Sprint(arg)
	switch op {
	case "eq":
		return val != nil && compareValues(val, arg) == 0
	case "ne":
		return val == nil || compareValues(val, arg) != 0
	case "eqi":
		return val != nil && strings.EqualFold(s, as)
	case "nei":
		return val == nil || !strings.EqualFold(s, as)
	case "contains":
		return val != nil && strings.Contains(s, as)
	case "notContains":
		return val == nil || !strings.Contains(s, as)
	case "containsi":
		return val != nil && strings.Contains(strings.ToLower(s), strings.ToLower(as))
	case "notContainsi":
		return val == nil || !strings.Contains(strings.ToLower(s), strings.ToLower(as))
	case "startsWith":
		return val != nil && strings.HasPrefix(s, as)
	case "endsWith":
		return val != nil && strings.HasSuffix(s, as)
	case "gt":
		return val != nil && compareValues(val, arg) > 0
	case "gte":
		return val != nil && compareValues(val, arg) >= 0
	case "lt":
		return val != nil && compareValues(val, arg) < 0
	case "lte":
		return val != nil && compareValues(val, arg) <= 0
	case "null":
		want, _ := arg.(bool)
		return (val == nil) == want
	case "notNull":
		want, _ := arg.(bool)
		return (val != nil) == want
	case "in", "notIn":
		list, _ := arg.([]any)
		found := false
		for _, x := range list {
			found = found || (val != nil && compareValues(val, x) == 0)
		}
		return found == (op == "in")
	case "between":
		list, _ := arg.([]any)
		return len(list) == 2 && val != nil && compareValues(val, list[0]) >= 0 && compareValues(val, list[1]) <= 0
	case "and", "or":
		list, _ := arg.([]any)
		n := 0
		for _, x := range list {
			if val != nil && compareValues(val, x) == 0 {
				n++
			}
		}
		if op == "and" {
			return n == len(list)
		}
		return n > 0 || len(list) == 0
	case "not":
		m, _ := arg.(map[string]any)
		return !matchScalar(val, m)
	}
	return false
}

// compareValues orders two scalar values: numerically when both are
// numbers, as booleans, else as strings (ISO dates order as strings).
func compareValues(a, b any) int {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		}
		return 1
	}
	fa, oka := toFloat(a)
	fb, okb := toFloat(b)
	if oka && okb {
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}
