package store

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/query"
)

// The users collection (/api/users) accepts the content API's query model
// (filters, sort, pagination) over up_users. Its fields are typed columns,
// not a schema's attributes: they are resolved here against fixed tables,
// then compiled by the documents' compiler (compare), so both speak the
// same operators. Every value is a bound parameter.

type colKind int

const (
	kString colKind = iota
	kInt
	kBool
	kTime
)

type userColumn struct {
	sql  string
	kind colKind
}

var userColumns = map[string]userColumn{
	"id": {"id", kInt}, "documentId": {"document_id", kString}, "username": {"username", kString},
	"email": {"email", kString}, "provider": {"provider", kString}, "confirmed": {"confirmed", kBool},
	"blocked": {"blocked", kBool}, "createdAt": {"created_at", kTime}, "updatedAt": {"updated_at", kTime},
	"publishedAt": {"published_at", kTime},
}

var roleColumns = map[string]userColumn{
	"id": {"id", kInt}, "documentId": {"document_id", kString}, "name": {"name", kString},
	"description": {"description", kString}, "type": {"type", kString}, "createdAt": {"created_at", kTime},
	"updatedAt": {"updated_at", kTime},
}

// FindUsers lists users: filters, sort and pagination of q; populate
// (role) is the caller's to check, withRole reads the roles in the same
// query.
func (o *authOps) FindUsers(ctx context.Context, q *query.Query, withRole bool) ([]auth.UserWithRole, error) {
	c := &compiler{d: o.d}
	where, order, err := c.usersWhereOrder(q)
	if err != nil {
		return nil, err
	}
	cols := "t0." + strings.ReplaceAll(userCols, ", ", ", t0.")
	from := "up_users t0" + strings.Join(c.joins, "")
	if withRole {
		cols += ", r.id, r." + strings.ReplaceAll(strings.TrimPrefix(roleCols, "id, "), ", ", ", r.")
		from += " LEFT JOIN up_roles r ON r.id = t0.role_id"
	}
	sqlText := "SELECT " + cols + " FROM " + from + " WHERE " + where + " ORDER BY " + order
	limit, offset := userPage(q)
	switch {
	case limit >= 0:
		sqlText += " LIMIT " + strconv.Itoa(limit)
	case offset > 0 && o.d.Name() == "sqlite":
		sqlText += " LIMIT -1" // SQLite takes OFFSET only after a LIMIT
	}
	if offset > 0 {
		sqlText += " OFFSET " + strconv.Itoa(offset)
	}
	rows, err := o.q.QueryContext(ctx, sqlText, c.args...)
	return all(rows, err, func(row scanner) (*auth.UserWithRole, error) {
		u := &auth.UserWithRole{}
		dest := userDest(&u.User)
		var r struct {
			id                   *int64
			doc, name, desc, typ *string
			createdAt, updatedAt *time.Time
			data, extra          []byte
		}
		if withRole {
			dest = append(dest, &r.id, &r.doc, &r.name, &r.desc, &r.typ, &r.createdAt, &r.updatedAt, &r.data, &r.extra)
		}
		if err := row.Scan(dest...); err != nil {
			return nil, err
		}
		if r.id != nil {
			u.Role = &auth.Role{ID: *r.id, DocumentID: *r.doc, Name: *r.name, Description: *r.desc, Type: *r.typ,
				CreatedAt: *r.createdAt, UpdatedAt: *r.updatedAt, Data: r.data, Extra: r.extra}
		}
		return u, nil
	})
}

// CountUsers counts the users the filter selects.
func (o *authOps) CountUsers(ctx context.Context, f query.Filter) (int64, error) {
	c := &compiler{d: o.d}
	where, _, err := c.usersWhereOrder(&query.Query{Filter: f})
	if err != nil {
		return 0, err
	}
	return o.count(ctx, "SELECT COUNT(*) FROM up_users t0 WHERE "+where, c.args...)
}

// usersWhereOrder compiles the filter and the sort of a users query on
// alias t0.
func (c *compiler) usersWhereOrder(q *query.Query) (string, string, error) {
	where := "1=1"
	if q != nil && q.Filter != nil {
		w, err := c.userFilter(q.Filter)
		if err != nil {
			return "", "", err
		}
		where = w
	}
	var order []string
	if q != nil {
		for _, s := range q.Sort {
			if len(s.Steps) > 0 { // an extension attribute, resolved by the engine
				e := c.sortExpr(s.Steps, "t0", "", engine.VersionPublished)
				if s.Desc {
					order = append(order, e+" DESC NULLS FIRST")
				} else {
					order = append(order, e+" ASC NULLS LAST")
				}
				continue
			}
			name := strings.Join(s.Path, ".")
			col, ok := userColumns[name]
			if len(s.Path) != 1 || !ok {
				return "", "", errs.InvalidKey(name, name, "query", "sort")
			}
			dir := " ASC"
			if s.Desc {
				dir = " DESC"
			}
			order = append(order, "t0."+col.sql+dir)
		}
	}
	return where, strings.Join(append(order, "t0.id ASC"), ", "), nil
}

// userPage is LIMIT (< 0: none) and OFFSET of a users query.
func userPage(q *query.Query) (limit, offset int) {
	if q == nil {
		return -1, 0
	}
	p := q.Page
	switch {
	case p.OffsetMode:
		limit = -1
		if p.Limit > 0 {
			limit = p.Limit
		}
		return limit, max(p.Start, 0)
	case p.Page > 0 || p.PageSize > 0:
		page, size := max(p.Page, 1), p.PageSize
		if size <= 0 {
			size = 25
		}
		return size, (page - 1) * size
	}
	return -1, 0
}

func (c *compiler) userFilter(f query.Filter) (string, error) {
	list := func(parts []query.Filter, sep string) (string, error) {
		out := make([]string, len(parts))
		for i, p := range parts {
			s, err := c.userFilter(p)
			if err != nil {
				return "", err
			}
			out[i] = s
		}
		return "(" + strings.Join(out, sep) + ")", nil
	}
	switch x := f.(type) {
	case query.And:
		return list(x, " AND ")
	case query.Or:
		return list(x, " OR ")
	case query.Not:
		inner, err := c.userFilter(x.Filter)
		if err != nil {
			return "", err
		}
		return "NOT (" + inner + ")", nil
	case *query.Cond:
		return c.userCond(x)
	}
	return "", errs.Errorf(errs.KindValidation, "Invalid filters")
}

// userCond resolves a condition's path against up_users, or up_roles
// through role (matched by a subquery, so a user without a role matches
// no condition on the role's fields).
func (c *compiler) userCond(cd *query.Cond) (string, error) {
	if len(cd.Steps) > 0 { // an extension attribute, resolved by the engine
		return c.cond(cd, cd.Steps, "t0", "", engine.VersionPublished)
	}
	name := strings.Join(cd.Path, ".")
	invalid := errs.InvalidKey(cd.Path[len(cd.Path)-1], name, "query", "filters")
	switch {
	case len(cd.Path) == 1 && cd.Path[0] == "role":
		if cd.Op != query.OpNull && cd.Op != query.OpNotNull {
			return "", invalid
		}
		return c.columnCond(cd, "t0.role_id", userColumn{"role_id", kInt}, name)
	case len(cd.Path) == 1:
		col, ok := userColumns[cd.Path[0]]
		if !ok {
			return "", invalid
		}
		return c.columnCond(cd, "t0."+col.sql, col, name)
	case len(cd.Path) == 2 && cd.Path[0] == "role":
		col, ok := roleColumns[cd.Path[1]]
		if !ok {
			return "", invalid
		}
		ra := c.alias()
		inner, err := c.columnCond(cd, ra+"."+col.sql, col, name)
		if err != nil {
			return "", err
		}
		return "t0.role_id IN (SELECT " + ra + ".id FROM up_roles " + ra + " WHERE " + inner + ")", nil
	}
	return "", invalid
}

// columnCond checks and coerces a condition's value for a typed column,
// then compiles it with compare.
func (c *compiler) columnCond(cd *query.Cond, expr string, col userColumn, name string) (string, error) {
	val := func(v any) (any, error) { return coerceColumnValue(col, name, v) }
	list := func() ([]any, error) {
		var items []any
		switch v := cd.Value.(type) {
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
	text := func() error {
		if _, ok := cd.Value.(string); !ok || col.kind != kString {
			return errs.Errorf(errs.KindValidation, "Invalid value for %s %s: expected a string", name, cd.Op)
		}
		return nil
	}
	r := &query.Cond{Path: cd.Path, Op: cd.Op, Value: cd.Value}
	switch cd.Op {
	case query.OpEq, query.OpNe:
		if cd.Value == nil { // compared with null
			r.Op, r.Bool = query.OpNull, cd.Op == query.OpEq
			break
		}
		if _, ok := cd.Value.([]any); ok && cd.Op == query.OpEq { // filters[x][0]=a&filters[x][1]=b
			vals, err := list()
			if err != nil {
				return "", err
			}
			r.Op, r.Values = query.OpIn, vals
			break
		}
		fallthrough
	case query.OpLt, query.OpLte, query.OpGt, query.OpGte:
		v, err := val(cd.Value)
		if err != nil {
			return "", err
		}
		r.Value = v
	case query.OpContains, query.OpNotContains, query.OpStartsWith, query.OpEndsWith:
		if err := text(); err != nil {
			return "", err
		}
	case query.OpEqi, query.OpNei, query.OpContainsi, query.OpNotContainsi, query.OpStartsWithi, query.OpEndsWithi:
		if err := text(); err != nil {
			return "", err
		}
		// Lower-cased here too: SQLite's LOWER folds only ASCII, and emails
		// are stored lower-cased by Go.
		r.Value = strings.ToLower(cd.Value.(string))
	case query.OpIn, query.OpNotIn:
		vals, err := list()
		if err != nil {
			return "", err
		}
		r.Values = vals
	case query.OpNull, query.OpNotNull:
		r.Bool = truthy(cd.Value)
	case query.OpBetween:
		vals, err := list()
		if err != nil {
			return "", err
		}
		if len(vals) != 2 {
			return "", errs.Errorf(errs.KindValidation, "Invalid value for %s $between: expected two values", name)
		}
		r.Values = vals
	default:
		return "", errs.InvalidKey(string(cd.Op), name, "query", "filters")
	}
	return c.compare(r, "column", expr, "")
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

func coerceColumnValue(col userColumn, name string, v any) (any, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		s = x
	// GraphQL's typed values (REST's are all strings).
	case bool:
		s = strconv.FormatBool(x)
	case json.Number:
		s = x.String()
	case int:
		s = strconv.Itoa(x)
	case int64:
		s = strconv.FormatInt(x, 10)
	default:
		return nil, errs.Errorf(errs.KindValidation, "Invalid value for %s: expected a single value", name)
	}
	bad := func(want string) error {
		return errs.Errorf(errs.KindValidation, "Invalid value %q for %s: expected %s", s, name, want)
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
