package auth

import (
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
)

// The users collection accepts the content API's query model (filters,
// sort, pagination, fields, populate=role) over its own table. Field
// names are resolved against a fixed table; every value is a bound
// parameter.

type colKind int

const (
	kString colKind = iota
	kInt
	kBool
	kTime
)

type column struct {
	sql  string
	kind colKind
}

var userColumns = map[string]column{
	"id": {"id", kInt}, "documentId": {"document_id", kString}, "username": {"username", kString},
	"email": {"email", kString}, "provider": {"provider", kString}, "confirmed": {"confirmed", kBool},
	"blocked": {"blocked", kBool}, "createdAt": {"created_at", kTime}, "updatedAt": {"updated_at", kTime},
	"publishedAt": {"published_at", kTime},
}

var roleColumns = map[string]column{
	"id": {"id", kInt}, "documentId": {"document_id", kString}, "name": {"name", kString},
	"description": {"description", kString}, "type": {"type", kString}, "createdAt": {"created_at", kTime},
	"updatedAt": {"updated_at", kTime},
}

type userQuery struct {
	where        string
	args         []any
	order        []string
	limit        int // < 0: none
	offset       int
	fields       []string // nil: all
	populateRole bool
}

func compileUserQuery(q *engine.Query, list bool) (*userQuery, error) {
	uq := &userQuery{limit: -1}
	if q == nil {
		return uq, nil
	}
	for k := range q.Populate {
		if k != "role" && k != "*" {
			return nil, engine.InvalidKey(k, k, "query", "populate")
		}
		uq.populateRole = true
	}
	if q.Fields != nil {
		for _, f := range q.Fields {
			if _, ok := userColumns[f]; !ok {
				return nil, engine.InvalidKey(f, f, "query", "fields")
			}
		}
		uq.fields = q.Fields
	}
	if !list {
		return uq, nil
	}
	if q.Filter != nil {
		var b strings.Builder
		if err := compileUserFilter(&b, &uq.args, q.Filter); err != nil {
			return nil, err
		}
		uq.where = b.String()
	}
	for _, s := range q.Sort {
		name := strings.Join(s.Path, ".")
		c, ok := userColumns[name]
		if len(s.Path) != 1 || !ok {
			return nil, engine.InvalidKey(name, name, "query", "sort")
		}
		dir := " ASC"
		if s.Desc {
			dir = " DESC"
		}
		uq.order = append(uq.order, c.sql+dir)
	}
	uq.order = append(uq.order, "id ASC")
	p := q.Page
	switch {
	case p.OffsetMode:
		uq.offset = max(p.Start, 0)
		if p.Limit > 0 {
			uq.limit = p.Limit
		}
	case p.Page > 0 || p.PageSize > 0:
		page, size := max(p.Page, 1), p.PageSize
		if size <= 0 {
			size = 25
		}
		uq.offset, uq.limit = (page-1)*size, size
	}
	return uq, nil
}

func compileUserFilter(b *strings.Builder, args *[]any, f engine.Filter) error {
	switch x := f.(type) {
	case engine.And:
		return compileUserList(b, args, x, " AND ")
	case engine.Or:
		return compileUserList(b, args, x, " OR ")
	case engine.Not:
		b.WriteString("NOT (")
		if err := compileUserFilter(b, args, x.Filter); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	case *engine.Cond:
		return compileUserCond(b, args, x)
	}
	return engine.Errorf(engine.KindValidation, "Invalid filters")
}

func compileUserList(b *strings.Builder, args *[]any, parts []engine.Filter, sep string) error {
	b.WriteByte('(')
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		if err := compileUserFilter(b, args, p); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	return nil
}

func compileUserCond(b *strings.Builder, args *[]any, c *engine.Cond) error {
	name := strings.Join(c.Path, ".")
	invalid := engine.InvalidKey(c.Path[len(c.Path)-1], name, "query", "filters")
	switch {
	case len(c.Path) == 1 && c.Path[0] == "role":
		if c.Op != engine.OpNull && c.Op != engine.OpNotNull {
			return invalid
		}
		return compileCond(b, args, column{"role_id", kInt}, name, c)
	case len(c.Path) == 1:
		col, ok := userColumns[c.Path[0]]
		if !ok {
			return invalid
		}
		return compileCond(b, args, col, name, c)
	case len(c.Path) == 2 && c.Path[0] == "role":
		col, ok := roleColumns[c.Path[1]]
		if !ok {
			return invalid
		}
		b.WriteString("role_id IN (SELECT id FROM up_roles WHERE ")
		if err := compileCond(b, args, col, name, c); err != nil {
			return err
		}
		b.WriteByte(')')
		return nil
	}
	return invalid
}

func compileCond(b *strings.Builder, args *[]any, col column, name string, c *engine.Cond) error {
	val := func(v any) (any, error) { return coerceUserValue(col, name, v) }
	list := func() ([]any, error) {
		var items []any
		switch v := c.Value.(type) {
		case []any:
			items = v
		case nil:
		default:
			items = []any{v}
		}
		out := make([]any, 0, len(items))
		for _, it := range items {
			x, err := val(it)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	in := func(not bool) error {
		vals, err := list()
		if err != nil {
			return err
		}
		if len(vals) == 0 {
			if not {
				b.WriteString("1=1")
			} else {
				b.WriteString("1=0")
			}
			return nil
		}
		b.WriteString(col.sql)
		if not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, v := range vals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('?')
			*args = append(*args, v)
		}
		b.WriteByte(')')
		return nil
	}
	cmp := func(op string) error {
		if _, ok := c.Value.([]any); ok && c.Op == engine.OpEq {
			return in(false) // filters[x][0]=a&filters[x][1]=b
		}
		v, err := val(c.Value)
		if err != nil {
			return err
		}
		b.WriteString(col.sql + " " + op + " ?")
		*args = append(*args, v)
		return nil
	}
	like := func(prefix, suffix string, insensitive, not bool) error {
		s, ok := c.Value.(string)
		if !ok || col.kind != kString {
			return engine.Errorf(engine.KindValidation, "Invalid value for %s %s: expected a string", name, c.Op)
		}
		pat := prefix + escapeLike(s) + suffix
		expr := col.sql
		if insensitive {
			expr, pat = "LOWER("+col.sql+")", strings.ToLower(pat)
		}
		if not {
			b.WriteString("NOT ")
		}
		b.WriteString(expr + ` LIKE ? ESCAPE '\'`)
		*args = append(*args, pat)
		return nil
	}
	switch c.Op {
	case engine.OpEq:
		if c.Value == nil {
			b.WriteString(col.sql + " IS NULL")
			return nil
		}
		return cmp("=")
	case engine.OpNe:
		if c.Value == nil {
			b.WriteString(col.sql + " IS NOT NULL")
			return nil
		}
		return cmp("<>")
	case engine.OpEqi, engine.OpNei:
		s, ok := c.Value.(string)
		if !ok || col.kind != kString {
			return engine.Errorf(engine.KindValidation, "Invalid value for %s %s: expected a string", name, c.Op)
		}
		op := " = "
		if c.Op == engine.OpNei {
			op = " <> "
		}
		b.WriteString("LOWER(" + col.sql + ")" + op + "?")
		*args = append(*args, strings.ToLower(s))
		return nil
	case engine.OpLt:
		return cmp("<")
	case engine.OpLte:
		return cmp("<=")
	case engine.OpGt:
		return cmp(">")
	case engine.OpGte:
		return cmp(">=")
	case engine.OpIn:
		return in(false)
	case engine.OpNotIn:
		return in(true)
	case engine.OpNull, engine.OpNotNull:
		isNull := truthy(c.Value) == (c.Op == engine.OpNull)
		if isNull {
			b.WriteString(col.sql + " IS NULL")
		} else {
			b.WriteString(col.sql + " IS NOT NULL")
		}
		return nil
	case engine.OpBetween:
		vals, err := list()
		if err != nil {
			return err
		}
		if len(vals) != 2 {
			return engine.Errorf(engine.KindValidation, "Invalid value for %s $between: expected two values", name)
		}
		b.WriteString(col.sql + " BETWEEN ? AND ?")
		*args = append(*args, vals[0], vals[1])
		return nil
	case engine.OpContains:
		return like("%", "%", false, false)
	case engine.OpNotContains:
		return like("%", "%", false, true)
	case engine.OpContainsi:
		return like("%", "%", true, false)
	case engine.OpNotContainsi:
		return like("%", "%", true, true)
	case engine.OpStartsWith:
		return like("", "%", false, false)
	case engine.OpStartsWithi:
		return like("", "%", true, false)
	case engine.OpEndsWith:
		return like("%", "", false, false)
	case engine.OpEndsWithi:
		return like("%", "", true, false)
	}
	return engine.InvalidKey(string(c.Op), name, "query", "filters")
}

func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// truthy reads $null's operand: boolean-like strings by their meaning,
// anything else by JavaScript truthiness.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		switch strings.ToLower(x) {
		case "false", "f", "0", "":
			return false
		}
		return true
	}
	return true
}

func coerceUserValue(col column, name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		if v == nil {
			return nil, nil
		}
		return nil, engine.Errorf(engine.KindValidation, "Invalid value for %s: expected a single value", name)
	}
	bad := func(want string) error {
		return engine.Errorf(engine.KindValidation, "Invalid value %q for %s: expected %s", s, name, want)
	}
	switch col.kind {
	case kInt:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, bad("an integer")
		}
		return n, nil
	case kBool:
		switch strings.ToLower(s) {
		case "true", "t", "1":
			return true, nil
		case "false", "f", "0":
			return false, nil
		}
		return nil, bad("a boolean")
	case kTime:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), nil
			}
		}
		if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.UnixMilli(ms).UTC(), nil
		}
		return nil, bad("a timestamp or an ISO date")
	}
	return s, nil
}
