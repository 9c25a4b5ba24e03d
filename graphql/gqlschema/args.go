package gqlschema

import (
	"encoding/json"
	"strconv"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/query"
)

func intArg(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		return int(x), true
	case json.Number:
		n, err := strconv.Atoi(string(x))
		return n, err == nil
	}
	return 0, false
}

// bodyValue is an input value as a REST body holds it (numbers as
// json.Number), so the engine checks it the same way.
func bodyValue(v any) any {
	switch x := v.(type) {
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = bodyValue(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = bodyValue(c)
		}
		return out
	}
	return v
}

// pagination reads PaginationArg into the engine's model, with Strapi's
// rules, clamped to amountLimit.
func (s *Builder) pagination(v any) (query.Pagination, error) {
	var p query.Pagination
	m, _ := v.(map[string]any)
	page, hasPage := intArg(m["page"])
	size, hasSize := intArg(m["pageSize"])
	start, hasStart := intArg(m["start"])
	limit, hasLimit := intArg(m["limit"])
	if (hasPage || hasSize) && (hasStart || hasLimit) {
		return p, errs.Errorf(errs.KindPagination, "Cannot use both page & offset pagination in the same query")
	}
	amount := s.cfg.amountLimit()
	if hasStart || hasLimit {
		p.OffsetMode, p.Start = true, max(start, 0)
		if hasLimit {
			if limit == -1 || limit > amount {
				limit = amount
			}
			p.Limit = max(limit, 1)
		}
		return p, nil
	}
	p.Page = page
	if hasSize {
		p.PageSize = min(max(size, 1), amount)
	} else if s.eng.Config().DefaultLimit > amount {
		p.PageSize = amount
	}
	return p, nil
}

// window applies a pagination argument to a nested list of n items held in
// memory: the default page size and amountLimit hold there too.
func (s *Builder) window(v any, n int) (int, int, error) {
	p, err := s.pagination(v)
	if err != nil {
		return 0, 0, err
	}
	def := min(s.eng.Config().DefaultLimit, s.cfg.amountLimit())
	var start, limit int
	if p.OffsetMode {
		start, limit = p.Start, p.Limit
		if limit == 0 {
			limit = def
		}
	} else {
		limit = p.PageSize
		if limit == 0 {
			limit = def
		}
		start = (max(p.Page, 1) - 1) * limit
	}
	start = min(start, n)
	return start, min(n, start+limit), nil
}

// parseSort reads `sort: ["title:desc", "author.name"]`; each string may
// also be a comma list, as in REST.
func parseSort(v any) ([]query.Sort, error) {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		items = x
	default:
		items = []any{x}
	}
	var out []query.Sort
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			continue
		}
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			field, order, hasOrder := strings.Cut(part, ":")
			so := query.Sort{Path: strings.Split(strings.TrimSpace(field), ".")}
			if hasOrder {
				switch strings.ToLower(strings.TrimSpace(order)) {
				case "asc":
				case "desc":
					so.Desc = true
				default:
					return nil, errs.Errorf(errs.KindValidation, "Invalid order. order can only be one of asc|desc|ASC|DESC")
				}
			}
			out = append(out, so)
		}
	}
	return out, nil
}

// inputData reads the `data` argument from the document itself: graphql-go
// drops explicit nulls from input objects, and `null` clears a field.
func (b *builder) inputData(p gql.ResolveParams) (map[string]any, publication, error) {
	rq := reqFrom(p.Context)
	f := p.Info.FieldASTs[0]
	var argType gql.Input
	if def := p.Info.ParentType.(*gql.Object).Fields()[f.Name.Value]; def != nil {
		for _, a := range def.Args {
			if a.Name() == "data" {
				argType = a.Type
			}
		}
	}
	var v any
	for _, a := range f.Arguments {
		if a.Name != nil && a.Name.Value == "data" {
			v = b.inputValue(rq, a.Value, argType)
		}
	}
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, pubUnset, errs.Errorf(errs.KindValidation, `Missing "data" payload`)
	}
	pub := pubUnset
	if pv, ok := m["publishedAt"]; ok {
		pub = pubPublish
		if pv == nil {
			pub = pubUnpublish
		}
	}
	for _, k := range []string{"createdAt", "updatedAt", "publishedAt"} {
		delete(m, k) // set by the engine; publishedAt says publish or unpublish
	}
	return m, pub, nil
}

// publication is what a write's `publishedAt` asks, as the v4 plugin
// reads it: a date publishes, null unpublishes; absent leaves the status
// argument to decide.
type publication int

const (
	pubUnset publication = iota
	pubPublish
	pubUnpublish
)

func (b *builder) inputValue(rq *request, v ast.Value, t gql.Type) any {
	if vr, ok := v.(*ast.Variable); ok {
		return b.rawValue(rq.vars[vr.Name.Value], t)
	}
	switch tt := t.(type) {
	case *gql.NonNull:
		return b.inputValue(rq, v, tt.OfType)
	case *gql.List:
		lv, ok := v.(*ast.ListValue)
		if !ok {
			return []any{b.inputValue(rq, v, tt.OfType)}
		}
		out := make([]any, 0, len(lv.Values))
		for _, it := range lv.Values {
			out = append(out, b.inputValue(rq, it, tt.OfType))
		}
		return out
	case *gql.InputObject:
		ov, ok := v.(*ast.ObjectValue)
		if !ok {
			return nil
		}
		fields := tt.Fields()
		out := map[string]any{}
		for _, f := range ov.Fields {
			var ft gql.Type
			if fd := fields[f.Name.Value]; fd != nil {
				ft = fd.Type
			}
			out[f.Name.Value] = b.inputValue(rq, f.Value, ft)
		}
		if ov.Loc != nil {
			for _, n := range rq.nulls[ov.Loc.Start] {
				out[n] = nil
			}
		}
		return out
	case *gql.Enum:
		if ev, ok := v.(*ast.EnumValue); ok {
			return enumValue(tt, ev.Value)
		}
		return nil
	case *gql.Scalar:
		if z := b.zoneInputs[tt]; z != nil {
			return z.items(executor.LiteralValue(v, rq.vars))
		}
		switch tt {
		case gql.String, gql.ID, longScalar, dateScalar, timeScalar, localeScalar:
			switch x := v.(type) {
			case *ast.StringValue:
				return x.Value
			case *ast.IntValue:
				return x.Value
			}
			return executor.LiteralValue(v, rq.vars)
		}
	}
	return executor.LiteralValue(v, rq.vars)
}

// rawValue converts a variable's JSON value to the engine's input form.
func (b *builder) rawValue(v any, t gql.Type) any {
	if v == nil {
		return nil
	}
	switch tt := t.(type) {
	case *gql.NonNull:
		return b.rawValue(v, tt.OfType)
	case *gql.List:
		list, ok := v.([]any)
		if !ok {
			return []any{b.rawValue(v, tt.OfType)}
		}
		out := make([]any, len(list))
		for i, it := range list {
			out[i] = b.rawValue(it, tt.OfType)
		}
		return out
	case *gql.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := tt.Fields()
		out := make(map[string]any, len(m))
		for k, x := range m {
			var ft gql.Type
			if fd := fields[k]; fd != nil {
				ft = fd.Type
			}
			out[k] = b.rawValue(x, ft)
		}
		return out
	case *gql.Enum:
		if s, ok := v.(string); ok {
			return enumValue(tt, s)
		}
	case *gql.Scalar:
		if z := b.zoneInputs[tt]; z != nil {
			return z.items(v)
		}
		if n, ok := v.(json.Number); ok && (tt == gql.ID || tt == gql.String || tt == longScalar) {
			return string(n)
		}
	}
	return v
}

func enumValue(e *gql.Enum, name string) any {
	for _, ev := range e.Values() {
		if ev.Name == name {
			return ev.Value
		}
	}
	return name
}

// items turns dynamic-zone input items, which name their component by
// GraphQL type (`__typename: "ComponentSharedQuote"`), into the engine's
// `__component: "shared.quote"` form.
func (z *zoneTypes) items(v any) any {
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil
		}
		list = []any{v}
	}
	out := make([]any, len(list))
	for i, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			out[i] = it
			continue
		}
		c := make(map[string]any, len(m))
		for k, x := range m {
			c[k] = x
		}
		if tn, ok := c["__typename"].(string); ok {
			delete(c, "__typename")
			if uid, ok := z.byName[tn]; ok {
				c["__component"] = uid
			} else {
				c["__component"] = tn
			}
		}
		out[i] = c
	}
	if _, single := v.([]any); !single {
		return out[0]
	}
	return out
}
