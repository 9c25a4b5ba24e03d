package rest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/query"
)

// This file turns a parsed query tree into the engine's query model with
// Strapi 5's rules (utils/src/convert-query-params.ts and
// core/src/core-api/service/pagination.ts). Names of attributes are not
// checked here: the engine validates them against the schema.

// maxNameLen bounds an attribute or component name in a query.
const maxNameLen = 100

// parseContentQuery builds the engine query of a content-API read.
// Unknown top-level keys (and _q, publicationFilter, hasPublishedVersion,
// count, ordering, and the top-level page/pageSize/start/limit) are ignored.
func parseContentQuery(tree map[string]any) (*query.Query, error) {
	q := &query.Query{Status: query.Published}
	if v, ok := tree["status"]; ok {
		// The REST service defaults to published; the document service
		// treats anything other than "published" as draft.
		if s, _ := v.(string); s != "published" {
			q.Status = query.Draft
		}
	}
	switch v := tree["locale"].(type) {
	case nil:
	case string:
		q.Locale = v
	default:
		return nil, errs.Errorf(errs.KindValidation, "Invalid locale parameter: expected a string")
	}
	var err error
	if q.Page, err = parsePaginationParam(tree["pagination"]); err != nil {
		return nil, err
	}
	if q.Sort, err = parseSortParam(tree["sort"]); err != nil {
		return nil, err
	}
	if q.Fields, err = parseFieldsParam(tree["fields"]); err != nil {
		return nil, err
	}
	if v := tree["populate"]; v != nil {
		if q.Populate, err = parsePopulateParam(v); err != nil {
			return nil, err
		}
	}
	if v := tree["filters"]; v != nil {
		if q.Filter, err = parseFiltersParam(v); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// ---- helpers ----

// orderedKeys lists a map's keys deterministically, the way JavaScript
// orders an object's own keys where it can: integer-like keys first in
// numeric order; the others (whose insertion order a Go map does not keep)
// in lexical order.
func orderedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ai, aok := qsCanonicalInt(a)
		bi, bok := qsCanonicalInt(b)
		switch {
		case aok && bok:
			return ai - bi
		case aok:
			return -1
		case bok:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

// indexedValues returns the values of a map whose keys are all integers
// (what qs makes of indices above its array limit), in index order.
func indexedValues(m map[string]any) ([]any, bool) {
	keys := orderedKeys(m)
	for _, k := range keys {
		if _, ok := qsCanonicalInt(k); !ok {
			return nil, false
		}
	}
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out, true
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// checkQueryName refuses empty and overlong attribute names.
func checkQueryName(name, path, param string) error {
	if name == "" {
		return &errs.Error{Kind: errs.KindValidation, Message: "Invalid empty key at " + path,
			Details: map[string]any{"key": "", "path": path, "source": "query", "param": param}}
	}
	if len(name) > maxNameLen {
		return errs.InvalidKey(name, path, "query", param)
	}
	return nil
}

// parseBoolParam is Strapi's parseType boolean: case-sensitive.
func parseBoolParam(s string) (value, ok bool) {
	switch s {
	case "true", "t", "1":
		return true, true
	case "false", "f", "0":
		return false, true
	}
	return false, false
}

// ---- pagination ----

// parsePaginationParam reads pagination[page|pageSize|start|limit|withCount].
// A value-less key (`pagination[page]`) counts as absent; an empty value
// counts as 0, as Number("") does in Strapi.
func parsePaginationParam(v any) (query.Pagination, error) {
	var p query.Pagination
	m, ok := v.(map[string]any)
	if !ok {
		return p, nil // Strapi ignores a non-object pagination
	}
	ints := map[string]int{}
	for _, k := range []string{"page", "pageSize", "start", "limit"} {
		raw, ok := m[k]
		if !ok || raw == nil {
			continue
		}
		n, err := parsePaginationInt("pagination["+k+"]", raw)
		if err != nil {
			return p, err
		}
		ints[k] = n
	}
	_, page := ints["page"]
	_, pageSize := ints["pageSize"]
	_, start := ints["start"]
	_, limit := ints["limit"]
	if (page || pageSize) && (start || limit) {
		return p, &errs.Error{Kind: errs.KindPagination, Message: "Cannot use both page & offset pagination in the same query"}
	}
	if start || limit {
		p.OffsetMode = true
		p.Start = ints["start"]
		if limit {
			// 0 would read as "unset"; Strapi raises every limit below 1
			// (except -1, "no limit") to 1.
			p.Limit = ints["limit"]
			if p.Limit == 0 {
				p.Limit = 1
			}
		}
	}
	p.Page = ints["page"]
	if pageSize {
		p.PageSize = max(ints["pageSize"], 1) // Math.max(1, pageSize)
	}
	if raw, ok := m["withCount"]; ok {
		s, _ := raw.(string)
		b, ok := parseBoolParam(s)
		if !ok {
			return p, errs.Errorf(errs.KindValidation, `Invalid withCount parameter. Expected "t","1","true","false","0","f"`)
		}
		p.WithCount = &b
	}
	return p, nil
}

// maxPaginationInt keeps (page-1)*pageSize far from overflowing.
const maxPaginationInt = 1<<31 - 1

// parsePaginationInt parses a decimal integer strictly: no fraction,
// exponent, spaces or sign other than a leading minus.
func parsePaginationInt(name string, v any) (int, error) {
	s, ok := v.(string)
	if !ok {
		return 0, errs.Errorf(errs.KindValidation, "Invalid %s parameter: expected an integer", name)
	}
	if s == "" {
		return 0, nil
	}
	digits := strings.TrimPrefix(s, "-")
	bad := digits == ""
	for i := 0; i < len(digits) && !bad; i++ {
		bad = digits[i] < '0' || digits[i] > '9'
	}
	if bad {
		return 0, errs.Errorf(errs.KindValidation, "Invalid %s parameter %q: expected an integer", name, qsTruncate(s))
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > maxPaginationInt || n < -maxPaginationInt {
		return 0, errs.Errorf(errs.KindValidation, "Invalid %s parameter %q: out of range", name, qsTruncate(s))
	}
	return int(n), nil
}

// ---- sort ----

func invalidOrder() error {
	return errs.Errorf(errs.KindValidation, "Invalid order. order can only be one of asc|desc|ASC|DESC")
}

func invalidSort() error {
	return errs.Errorf(errs.KindValidation,
		"Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects")
}

// parseSortParam accepts a string (comma list, dot paths, `:asc|:desc`),
// an array of strings, an object (`sort[title]=desc`, nested for
// relations), or an array of objects.
func parseSortParam(v any) ([]query.Sort, error) {
	var out []query.Sort
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return appendSortString(out, x)
	case []any:
		var err error
		for _, e := range x {
			switch e := e.(type) {
			case nil: // `sort[]` is [null]: no sort
			case string:
				out, err = appendSortString(out, e)
			case map[string]any:
				out, err = appendSortObject(out, e, nil)
			default:
				err = invalidSort()
			}
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		return appendSortObject(out, x, nil)
	}
	return nil, invalidSort()
}

func appendSortString(out []query.Sort, s string) ([]query.Sort, error) {
	for _, seg := range strings.Split(s, ",") {
		seg = strings.TrimSpace(seg)
		field, order, hasOrder := strings.Cut(seg, ":")
		field = strings.TrimSpace(field)
		if field == "" {
			continue // empty segments and trailing commas are ignored
		}
		if hasOrder {
			order, _, _ = strings.Cut(order, ":") // "a:desc:x" uses "desc"
		} else {
			order = "asc"
		}
		desc, err := sortOrder(strings.TrimSpace(order))
		if err != nil {
			return nil, err
		}
		path := strings.Split(field, ".")
		for _, name := range path {
			if err := checkQueryName(name, field, "sort"); err != nil {
				return nil, err
			}
		}
		out = append(out, query.Sort{Path: path, Desc: desc})
	}
	return out, nil
}

func appendSortObject(out []query.Sort, m map[string]any, prefix []string) ([]query.Sort, error) {
	for _, k := range orderedKeys(m) {
		path := append(slices.Clip(prefix), k)
		if err := checkQueryName(k, strings.Join(path, "."), "sort"); err != nil {
			return nil, err
		}
		var err error
		switch x := m[k].(type) {
		case string:
			order := strings.TrimSpace(x)
			if order == "" {
				continue
			}
			var desc bool
			if desc, err = sortOrder(order); err == nil {
				out = append(out, query.Sort{Path: path, Desc: desc})
			}
		case map[string]any:
			out, err = appendSortObject(out, x, path)
		default:
			err = errs.Errorf(errs.KindValidation, "Invalid sort type expected object or string got object")
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func sortOrder(s string) (desc bool, err error) {
	switch strings.ToLower(s) {
	case "asc":
		return false, nil
	case "desc":
		return true, nil
	}
	return false, invalidOrder()
}

// ---- fields ----

func invalidFields() error {
	return errs.Errorf(errs.KindValidation, "Invalid fields parameter. Expected a string or an array of strings")
}

// parseFieldsParam accepts `title,slug` or an array of strings; `*` is
// passed on as "*" (all fields). Empty entries are dropped.
func parseFieldsParam(v any) ([]string, error) {
	var items []string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		items = []string{x}
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, invalidFields()
			}
			items = append(items, s)
		}
	default:
		return nil, invalidFields()
	}
	out := []string{}
	for _, it := range items {
		for _, f := range strings.Split(it, ",") {
			if f = strings.TrimSpace(f); f != "" && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// ---- populate ----

func invalidPopulate() error {
	return errs.Errorf(errs.KindValidation,
		"Invalid populate parameter. Expected a string, an array of strings, a populate object")
}

func invalidNestedPopulate() error {
	return errs.Errorf(errs.KindValidation, "Invalid nested populate. Expected '*' or an object")
}

// parsePopulateParam reads the top-level populate: `*`, `a,b`, `a.b`, an
// array of those, or an object. `*` at the root is the key "*".
func parsePopulateParam(v any) (map[string]*query.Populate, error) {
	root := &query.Populate{}
	if err := addPopulateValue(root, v, "", true); err != nil {
		return nil, err
	}
	return root.Populate, nil
}

// addPopulateValue adds a populate value (string, array of strings or
// object) to owner.Populate.
func addPopulateValue(owner *query.Populate, v any, path string, root bool) error {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return addPopulateList(owner, x, path, root)
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return invalidPopulate()
			}
			if err := addPopulateList(owner, s, path, root); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		return addPopulateObject(owner, x, path, root)
	}
	return invalidPopulate()
}

// addPopulateList adds a comma list of dot paths.
func addPopulateList(owner *query.Populate, s, path string, root bool) error {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		cur, curPath, isRoot := owner, path, root
		names := strings.Split(item, ".")
		for i, name := range names {
			if name == "*" {
				includePopulate(cur, "*", isRoot)
				break // nothing can follow a wildcard
			}
			p := joinPath(curPath, name)
			if err := checkQueryName(name, p, "populate"); err != nil {
				return err
			}
			includePopulate(cur, name, isRoot)
			if i == len(names)-1 {
				break
			}
			next := cur.Populate[name]
			if next == nil {
				next = &query.Populate{}
				cur.Populate[name] = next
			}
			cur, curPath, isRoot = next, p, false
		}
	}
	return nil
}

// includePopulate populates name in owner unless it already is. The
// wildcard is the key "*" at the root and the All flag below it.
func includePopulate(owner *query.Populate, name string, root bool) {
	if name == "*" && !root {
		owner.All = true
		return
	}
	if owner.Populate == nil {
		owner.Populate = map[string]*query.Populate{}
	}
	if _, ok := owner.Populate[name]; !ok {
		owner.Populate[name] = nil
	}
}

// addPopulateObject reads `populate[a]=true` and `populate[a][...]=...`.
func addPopulateObject(owner *query.Populate, m map[string]any, path string, root bool) error {
	for _, k := range orderedKeys(m) {
		p := joinPath(path, k)
		if err := checkQueryName(k, p, "populate"); err != nil {
			return err
		}
		switch x := m[k].(type) {
		case nil: // `populate[a]` without a value is skipped
		case string:
			if b, ok := parseBoolParam(x); (ok && b) || (!ok && x != "") {
				includePopulate(owner, k, root)
			}
		case map[string]any:
			sub, err := parseNestedPopulate(x, p)
			if err != nil {
				return err
			}
			if k == "*" && !root {
				owner.All = true
				continue
			}
			if owner.Populate == nil {
				owner.Populate = map[string]*query.Populate{}
			}
			owner.Populate[k] = sub
		default:
			return invalidNestedPopulate()
		}
	}
	return nil
}

// parseNestedPopulate reads the object under populate[a].
func parseNestedPopulate(m map[string]any, path string) (*query.Populate, error) {
	p := &query.Populate{}
	pages := map[string]any{}
	for _, k := range orderedKeys(m) {
		v := m[k]
		empty := v == nil || v == ""
		var err error
		switch k {
		case "populate":
			if !empty {
				err = addPopulateValue(p, v, path, false)
			}
		case "fields":
			if !empty {
				p.Fields, err = parseFieldsParam(v)
			}
		case "filters":
			if !empty {
				p.Filter, err = parseFiltersParam(v)
			}
		case "sort":
			p.Sort, err = parseSortParam(v)
		case "on":
			if v != nil {
				p.On, err = parsePopulateOn(v, joinPath(path, "on"))
			}
		case "count":
			str, _ := v.(string)
			b, ok := parseBoolParam(str)
			if !ok && v != nil {
				err = errs.Errorf(errs.KindValidation, "Invalid count parameter at %s: expected true or false", joinPath(path, k))
			}
			p.Count = b
		case "page", "pageSize", "start", "limit":
			pages[k] = v
		default:
			err = errs.InvalidKey(k, joinPath(path, k), "query", "populate")
		}
		if err != nil {
			return nil, err
		}
	}
	if len(pages) > 0 {
		pg, err := parsePaginationParam(pages)
		if err != nil {
			return nil, err
		}
		p.Page = pg
	}
	return p, nil
}

// parsePopulateOn reads the per-component fragments of a dynamic zone:
// populate[zone][on][category.comp][populate]=... .
func parsePopulateOn(v any, path string) (map[string]*query.Populate, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errs.Errorf(errs.KindValidation, "Invalid populate fragment at %s: expected an object", path)
	}
	on := map[string]*query.Populate{}
	for _, uid := range orderedKeys(m) {
		p := joinPath(path, uid)
		if err := checkQueryName(uid, p, "populate"); err != nil {
			return nil, err
		}
		switch x := m[uid].(type) {
		case nil:
		case string:
			// parseType(boolean, forceCast): false/f/0 and "" exclude.
			if b, ok := parseBoolParam(x); (ok && b) || (!ok && x != "") {
				on[uid] = nil
			}
		case map[string]any:
			sub, err := parseNestedPopulate(x, p)
			if err != nil {
				return nil, err
			}
			on[uid] = sub
		default:
			return nil, invalidNestedPopulate()
		}
	}
	return on, nil
}

// ---- filters ----

// parseFiltersParam builds a filter tree from an object or an array.
func parseFiltersParam(v any) (query.Filter, error) {
	switch v.(type) {
	case map[string]any, []any:
	default:
		return nil, errs.Errorf(errs.KindValidation, "The filters parameter must be an object or an array")
	}
	return parseFilterNode(v, nil, "")
}

func filterAnd(parts []query.Filter) query.Filter {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	return query.And(parts)
}

// parseFilterNode reads v found at the attribute path (empty at the root
// and directly inside $and/$or/$not there); disp is the key path for
// error messages.
func parseFilterNode(v any, path []string, disp string) (query.Filter, error) {
	switch x := v.(type) {
	case map[string]any:
		var parts []query.Filter
		for _, k := range orderedKeys(x) {
			val := x[k]
			d := joinPath(disp, k)
			var f query.Filter
			var err error
			switch {
			case k == "$and" || k == "$or":
				f, err = parseFilterList(k, val, path, d)
			case k == "$not":
				var inner query.Filter
				if inner, err = parseFilterNode(val, path, d); inner != nil {
					f = query.Not{Filter: inner}
				}
			case strings.HasPrefix(k, "$"):
				if !query.Operators[query.Op(k)] || len(path) == 0 {
					return nil, errs.InvalidKey(k, d, "query", "filters")
				}
				var value any
				if value, err = filterValue(val, d); err == nil {
					f = &query.Cond{Path: slices.Clone(path), Op: query.Op(k), Value: value}
				}
			default:
				if err = checkQueryName(k, d, "filters"); err == nil {
					f, err = parseFilterNode(val, append(slices.Clip(path), k), d)
				}
			}
			if err != nil {
				return nil, err
			}
			if f != nil {
				parts = append(parts, f)
			}
		}
		return filterAnd(parts), nil
	case []any:
		if len(path) > 0 {
			// filters[title][0]=a&filters[title][1]=b: equal to any of them
			return &query.Cond{Path: slices.Clone(path), Op: query.OpEq, Value: x}, nil
		}
		var parts []query.Filter
		for i, e := range x {
			f, err := parseFilterNode(e, nil, joinPath(disp, strconv.Itoa(i)))
			if err != nil {
				return nil, err
			}
			if f != nil {
				parts = append(parts, f)
			}
		}
		return filterAnd(parts), nil
	}
	// A bare value: `$eq` on the attribute.
	if len(path) == 0 {
		if v == nil {
			return nil, nil
		}
		return nil, errs.Errorf(errs.KindValidation, "Invalid filters value at %s: expected an object or an array", disp)
	}
	return &query.Cond{Path: slices.Clone(path), Op: query.OpEq, Value: v}, nil
}

// parseFilterList reads the operands of $and / $or: an array, or an
// object with integer keys (indices beyond qs's array limit).
func parseFilterList(op string, v any, path []string, disp string) (query.Filter, error) {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		items = x
	case map[string]any:
		var ok bool
		if items, ok = indexedValues(x); !ok {
			return nil, errs.Errorf(errs.KindValidation, "Invalid value for %s at %s: expected an array", op, disp)
		}
	default:
		return nil, errs.Errorf(errs.KindValidation, "Invalid value for %s at %s: expected an array", op, disp)
	}
	var parts []query.Filter
	for i, e := range items {
		f, err := parseFilterNode(e, path, joinPath(disp, strconv.Itoa(i)))
		if err != nil {
			return nil, err
		}
		if f != nil {
			parts = append(parts, f)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	if op == "$or" {
		return query.Or(parts), nil
	}
	return query.And(parts), nil
}

// filterValue is an operator's operand as the engine takes it: a string,
// nil or an array; an object with integer keys is an array.
func filterValue(v any, disp string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	if items, ok := indexedValues(m); ok {
		return items, nil
	}
	return nil, errs.Errorf(errs.KindValidation, "Invalid value for %s: expected a value or an array of values", disp)
}
