package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// scope is where a filter or sort path starts: a content-type's rows, or
// the items of a component (a repeatable component's list in GraphQL).
type scope struct {
	ct   *models.ContentType
	comp *models.Component
}

// systemFields are the fields every document row has.
var systemFields = map[string]bool{"id": true, "documentId": true, "createdAt": true, "updatedAt": true, "publishedAt": true}

func isSystem(ct *models.ContentType, name string) bool {
	return systemFields[name] || (name == "locale" && ct.Localized)
}

// resolvePath turns attribute names into steps, from ct through relations
// and components, ending on a scalar or a system field. Going through a
// relation needs the reader's find permission on its target, or the
// filter or sort would tell what the reader may not read.
func resolvePath(s *models.Schema, acc Access, in scope, path []string, param string) ([]query.Step, error) {
	var steps []query.Step
	ct, comp := in.ct, in.comp
	for i, name := range path {
		full := strings.Join(path[:i+1], ".")
		last := i == len(path)-1
		if comp == nil && isSystem(ct, name) {
			if !last {
				return nil, errs.InvalidKey(path[i+1], full+"."+path[i+1], "query", param)
			}
			return append(steps, query.Step{Type: ct, System: name}), nil
		}
		var a *models.Attribute
		if comp != nil {
			a = comp.Attr(name)
		} else {
			a = ct.Attr(name)
		}
		if a == nil || a.IsHidden() {
			return nil, errs.InvalidKey(name, full, "query", param)
		}
		step := query.Step{Type: ct, Component: comp, Attr: a}
		if comp != nil {
			step.Type = nil
		}
		steps = append(steps, step)
		switch a.Type {
		case models.TypeRelation:
			target := s.Type(a.Target)
			if target == nil { // morph relations have no single target
				return nil, errs.InvalidKey(name, full, "query", param)
			}
			if !acc.Can(target.Action("find")) {
				return nil, errs.InvalidKey(name, full, "query", param)
			}
			ct, comp = target, nil
			if last { // a bare relation compares the target's id
				return append(steps, query.Step{Type: ct, System: "id"}), nil
			}
		case models.TypeComponent:
			if last {
				return nil, errs.InvalidKey(name, full, "query", param)
			}
			comp = s.Component(a.Component)
		case models.TypeDynamicZone, models.TypeMedia:
			return nil, &errs.Error{Kind: errs.KindValidation, Message: fmt.Sprintf("Cannot %s on %s field %q", verb(param), a.Type, full),
				Details: map[string]any{"key": name, "path": full, "source": "query", "param": param}}
		default:
			if !last {
				return nil, errs.InvalidKey(path[i+1], full+"."+path[i+1], "query", param)
			}
		}
	}
	return steps, nil
}

func verb(param string) string {
	if param == "sort" {
		return "sort"
	}
	return "filter"
}

// resolveFilter validates a filter tree against ct and coerces its values.
func resolveFilter(s *models.Schema, acc Access, ct scope, f query.Filter) (query.Filter, error) {
	switch f := f.(type) {
	case nil:
		return nil, nil
	case query.And:
		return resolveList(s, acc, ct, f, func(fs []query.Filter) query.Filter { return query.And(fs) })
	case query.Or:
		return resolveList(s, acc, ct, f, func(fs []query.Filter) query.Filter { return query.Or(fs) })
	case query.Not:
		inner, err := resolveFilter(s, acc, ct, f.Filter)
		if err != nil {
			return nil, err
		}
		return query.Not{Filter: inner}, nil
	case *query.Cond:
		return resolveCond(s, acc, ct, f)
	}
	return nil, errs.Errorf(errs.KindValidation, "invalid filter")
}

func resolveList(s *models.Schema, acc Access, ct scope, fs []query.Filter, mk func([]query.Filter) query.Filter) (query.Filter, error) {
	out := make([]query.Filter, 0, len(fs))
	for _, f := range fs {
		r, err := resolveFilter(s, acc, ct, f)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return mk(out), nil
}

func resolveCond(s *models.Schema, acc Access, ct scope, c *query.Cond) (query.Filter, error) {
	if !query.Operators[c.Op] {
		return nil, errs.InvalidKey(string(c.Op), strings.Join(c.Path, ".")+"."+string(c.Op), "query", "filters")
	}
	steps, err := resolvePath(s, acc, ct, c.Path, "filters")
	if err != nil {
		return nil, err
	}
	last := steps[len(steps)-1]
	field := strings.Join(c.Path, ".")
	out := &query.Cond{Path: c.Path, Op: c.Op, Steps: steps}
	if c.Value == nil && (c.Op == query.OpEq || c.Op == query.OpNe) { // `filters[x][$eq]` with no value compares with null
		out.Op, out.Bool = query.OpNull, c.Op == query.OpEq
		return out, nil
	}
	switch c.Op {
	case query.OpNull, query.OpNotNull:
		out.Bool = truthy(c.Value)
		return out, nil
	case query.OpIn, query.OpNotIn, query.OpBetween:
		vals := asList(c.Value)
		if c.Op == query.OpBetween && len(vals) != 2 {
			return nil, errs.Errorf(errs.KindValidation, "$between on %q needs an array of two values", field)
		}
		for _, v := range vals {
			cv, err := coerce(last, c.Op, v, field)
			if err != nil {
				return nil, err
			}
			out.Values = append(out.Values, cv)
		}
		return out, nil
	}
	if list, ok := c.Value.([]any); ok { // an array on a single-value operator ORs its elements
		or := make(query.Or, 0, len(list))
		for _, v := range list {
			cv, err := coerce(last, c.Op, v, field)
			if err != nil {
				return nil, err
			}
			or = append(or, &query.Cond{Path: c.Path, Op: c.Op, Steps: steps, Value: cv})
		}
		return or, nil
	}
	out.Value, err = coerce(last, c.Op, c.Value, field)
	return out, err
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// truthy follows Strapi's boolean parsing for $null/$notNull, but treats an
// absent value as false.
func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		if b, ok := parseBool(x); ok {
			return b
		}
		return x != ""
	case nil:
		return false
	}
	return true
}

// stringOps compare text and take the value as it is.
var stringOps = map[query.Op]bool{query.OpContains: true, query.OpNotContains: true, query.OpContainsi: true, query.OpNotContainsi: true,
	query.OpStartsWith: true, query.OpStartsWithi: true, query.OpEndsWith: true, query.OpEndsWithi: true, query.OpEqi: true, query.OpNei: true}

func coerce(st query.Step, op query.Op, v any, field string) (any, error) {
	s, ok := scalarString(v)
	if !ok {
		return nil, errs.Errorf(errs.KindValidation, "Invalid value for %q: expected a single value", field)
	}
	if badText(s) {
		return nil, BadTextError("filter value")
	}
	if stringOps[op] {
		return s, nil
	}
	bad := func(what string) error {
		return &errs.Error{Kind: errs.KindValidation, Message: fmt.Sprintf("Invalid %s %q for filter on %q", what, s, field),
			Details: map[string]any{"key": field, "value": s, "param": "filters"}}
	}
	kind := ""
	if st.Attr != nil {
		kind = string(st.Attr.Type)
	} else {
		kind = st.System
	}
	switch kind {
	case "id":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, bad("id")
		}
		return n, nil
	case "integer", "float", "decimal":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, bad("number")
		}
		return f, nil
	case "biginteger":
		if !bigIntRe.MatchString(strings.TrimSpace(s)) {
			return nil, bad("integer")
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, bad("integer")
		}
		return n, nil
	case "boolean":
		b, ok := parseBool(s)
		if !ok {
			return nil, bad("boolean")
		}
		return b, nil
	case "date":
		if len(s) > 10 {
			s = s[:10]
		}
		d, err := ParseDate(s)
		if err != nil {
			return nil, bad("date")
		}
		return d, nil
	case "time":
		t, err := ParseTimeOfDay(s)
		if err != nil {
			return nil, bad("time")
		}
		return t, nil
	case "datetime", "timestamp", "createdAt", "updatedAt", "publishedAt":
		t, err := ParseDateTime(s)
		if err != nil {
			return nil, bad("date-time")
		}
		return t, nil
	}
	return s, nil
}

func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case nil:
		return "", true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return string(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

// resolveSort validates sort paths; the last step must be a scalar.
func resolveSort(s *models.Schema, acc Access, ct scope, sorts []query.Sort) ([]query.Sort, error) {
	out := make([]query.Sort, 0, len(sorts))
	for _, so := range sorts {
		steps, err := resolvePath(s, acc, ct, so.Path, "sort")
		if err != nil {
			return nil, err
		}
		for _, st := range steps {
			if st.Attr != nil && (st.Attr.IsToMany() || (st.Attr.Type == models.TypeComponent && st.Attr.Repeatable)) {
				return nil, errs.InvalidKey(st.Attr.Name, strings.Join(so.Path, "."), "query", "sort")
			}
		}
		out = append(out, query.Sort{Path: so.Path, Desc: so.Desc, Steps: steps})
	}
	return out, nil
}

// PageMeta is meta.pagination of a list.
type PageMeta struct {
	OffsetMode bool
	Page       int
	PageSize   int
	PageCount  int
	Start      int
	Limit      int
	Total      int64
	WithCount  bool
}

// resolvePage applies defaults, clamping and Strapi's rules.
func (e *Engine) resolvePage(p query.Pagination) (start, limit int, meta PageMeta, err error) {
	meta.WithCount = e.cfg.WithCount
	if p.WithCount != nil {
		meta.WithCount = *p.WithCount
	}
	clamp := func(l int) int {
		if l == -1 && e.cfg.MaxLimit > 0 {
			return e.cfg.MaxLimit
		}
		if l == -1 {
			return -1
		}
		if l < 1 {
			l = 1
		}
		if e.cfg.MaxLimit > 0 && l > e.cfg.MaxLimit {
			l = e.cfg.MaxLimit
		}
		return l
	}
	if p.OffsetMode {
		limit = e.cfg.DefaultLimit
		if p.Limit != 0 {
			limit = p.Limit
		}
		limit = clamp(limit)
		start = max(p.Start, 0)
		meta.OffsetMode, meta.Start, meta.Limit = true, start, limit
		return start, limit, meta, nil
	}
	limit = e.cfg.DefaultLimit
	if p.PageSize != 0 {
		limit = p.PageSize
	}
	limit = clamp(limit)
	page := max(p.Page, 1)
	if limit > 0 {
		start = (page - 1) * limit
	}
	meta.Page, meta.PageSize = page, limit
	return start, limit, meta, nil
}

// resolveFields checks a fields selection: scalar, visible attributes.
func resolveFields(ct *models.ContentType, fields []string) ([]string, error) {
	if fields == nil {
		return nil, nil
	}
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if f == "*" {
			return nil, nil
		}
		if systemFields[f] || (f == "locale" && ct.Localized) {
			out = append(out, f)
			continue
		}
		a := ct.Attr(f)
		if a == nil || !a.IsScalar() || a.IsHidden() {
			return nil, errs.InvalidKey(f, f, "query", "fields")
		}
		out = append(out, f)
	}
	return out, nil
}

// ResolveFilter validates a filter against a type and coerces its values
// for a trusted caller (tools and tests); requests resolve theirs with the
// reader's permissions in Find.
func (e *Engine) ResolveFilter(c Collection, f query.Filter) (query.Filter, error) {
	return resolveFilter(c.Schema, AllowAll{}, scope{ct: c.Type}, f)
}

// ResolveSort validates sort paths against a type for a trusted caller.
func (e *Engine) ResolveSort(c Collection, s []query.Sort) ([]query.Sort, error) {
	return resolveSort(c.Schema, AllowAll{}, scope{ct: c.Type}, s)
}
