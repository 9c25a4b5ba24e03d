package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// compiler turns the engine's resolved query model into SQL text with bound
// arguments. Names in the text come from the schema; values go to args.
type compiler struct {
	d      Dialect
	args   []any
	aliasN int
	// tables lists the other tables the query reads (relation joins).
	tables []string
	// joins are LEFT JOINs that sorts on to-one relations add to FROM.
	joins []string
	// uncached is set when the query reads a system table (users), whose
	// writes (by auth) do not bump the table versions a cached count needs.
	uncached bool
	// resolve, when set, turns relation filters into document ids before
	// the statement is built (relids.go).
	resolve *idResolver
}

// from is the FROM clause of a query on alias t0, with the sorts' joins.
func (c *compiler) from(ct *models.ContentType) string {
	return quote(ct.Table()) + " t0" + strings.Join(c.joins, "")
}

func (c *compiler) bind(v any) string {
	c.args = append(c.args, v)
	return c.d.Placeholder(len(c.args))
}

func (c *compiler) alias() string {
	c.aliasN++
	return "t" + strconv.Itoa(c.aliasN)
}

// versionCond restricts rows of alias to a publication version.
func versionCond(alias string, v engine.Version) string {
	switch v {
	case engine.VersionPublished:
		return alias + ".published_at IS NOT NULL"
	case engine.VersionDraft:
		return alias + ".published_at IS NULL"
	}
	return "1=1"
}

// rowsOf restricts the rows of a type under alias to a version; a system
// type's rows have none.
func rowsOf(alias string, ct *models.ContentType, v engine.Version) string {
	if ct.System {
		return "1=1"
	}
	return versionCond(alias, v)
}

// where builds the WHERE clause of a list query on alias t0.
func (c *compiler) where(ct *models.ContentType, q *engine.ListQuery) (string, error) {
	conds := []string{rowsOf("t0", ct, q.Version)}
	if q.Locale != query.AllLocales && !ct.System {
		conds = append(conds, "t0.locale = "+c.bind(q.Locale))
	}
	if q.DocumentIDs != nil {
		if len(q.DocumentIDs) == 0 {
			conds = append(conds, "1=0")
		} else {
			conds = append(conds, inList(c.d, "t0.document_id", q.DocumentIDs, c.bind))
		}
	}
	if q.RefAttr != nil && q.RefAttr.IsMorph() {
		conds = append(conds, c.morphCond(q.RefAttr, q.RefType, q.RefIDs))
	} else if q.RefAttr != nil {
		conds = append(conds, c.refCond(q.RefAttr, q.RefIDs))
	}
	if q.Filter != nil {
		f, err := c.filter(q.Filter, "t0", "", q.Version)
		if err != nil {
			return "", err
		}
		conds = append(conds, f)
	}
	return strings.Join(conds, " AND "), nil
}

// morphCond matches rows whose polymorphic relation a holds an item of
// type uid with one of the document ids.
func (c *compiler) morphCond(a *models.Attribute, uid string, ids []string) string {
	if len(ids) == 0 {
		return "1=0"
	}
	el := c.alias()
	typ := c.bind(uid)
	return "EXISTS (SELECT 1 FROM " + c.d.ItemElements(c.d.JSONValue("t0."+engine.Column(a), a.Name), el) + " WHERE " +
		c.d.ArrayObjectText(el, "__type") + " = " + typ + " AND " + inList(c.d, c.d.ArrayObjectText(el, "documentId"), ids, c.bind) + ")"
}

// refCond matches rows whose relation attribute a holds one of ids.
func (c *compiler) refCond(a *models.Attribute, ids []string) string {
	if len(ids) == 0 {
		return "1=0"
	}
	src := "t0." + engine.Column(a)
	if !a.IsToMany() {
		return inList(c.d, c.d.JSONText(src, a.Name), ids, c.bind)
	}
	el := c.alias()
	return "EXISTS (SELECT 1 FROM " + c.d.ArrayElements(c.d.JSONValue(src, a.Name), el) + " WHERE " + inList(c.d, c.d.ArrayText(el), ids, c.bind) + ")"
}

// filter compiles a filter tree on the row alias; base, when set, is the
// JSON value (a component item) its paths start in.
func (c *compiler) filter(f query.Filter, alias, base string, v engine.Version) (string, error) {
	switch f := f.(type) {
	case query.And:
		return c.join(f, " AND ", "1=1", alias, base, v)
	case query.Or:
		return c.join(f, " OR ", "1=0", alias, base, v)
	case query.Not:
		inner, err := c.filter(f.Filter, alias, base, v)
		if err != nil {
			return "", err
		}
		return "NOT (" + inner + ")", nil
	case *query.Cond:
		return c.cond(f, f.Steps, alias, base, v)
	}
	return "", fmt.Errorf("unknown filter node %T", f)
}

func (c *compiler) join(fs []query.Filter, sep, empty, alias, base string, v engine.Version) (string, error) {
	if len(fs) == 0 {
		return empty, nil
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		s, err := c.filter(f, alias, base, v)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return "(" + strings.Join(parts, sep) + ")", nil
}

// cond compiles a condition whose remaining path is steps. alias is the row
// the first step belongs to; base, when set, is a JSON expression (a
// component value) that the first step's attribute lives in.
func (c *compiler) cond(cd *query.Cond, steps []query.Step, alias, base string, v engine.Version) (string, error) {
	st := steps[0]
	if st.Attr == nil { // system field
		if st.Type != nil && st.Type.System { // a typed column, written by auth
			return c.compare(cd, "column", alias+"."+systemColumn(st.System), "")
		}
		return c.compare(cd, "system", alias+"."+systemColumn(st.System), st.System)
	}
	a := st.Attr
	if a.Column != "" && a.Type != models.TypeRelation {
		return c.compare(cd, "column", alias+"."+quote(a.Column), "")
	}
	src := base
	if src == "" {
		src = alias + "." + engine.Column(a)
	}
	switch a.Type {
	case models.TypeRelation:
		return c.relationCond(cd, steps, alias, src, v)
	case models.TypeComponent:
		if a.Repeatable {
			el := c.alias()
			inner, err := c.cond(cd, steps[1:], alias, el+".value", v)
			if err != nil {
				return "", err
			}
			items := "SELECT 1 FROM " + c.d.ArrayElements(c.d.JSONValue(src, a.Name), el)
			return orNone(cd, "EXISTS ("+items+" WHERE "+inner+")", items), nil
		}
		return c.cond(cd, steps[1:], alias, c.d.JSONValue(src, a.Name), v)
	}
	if s, ok := cd.Value.(string); ok && cd.Op == query.OpEq && base == "" && prefixSorted(a) {
		// A string too long to index whole: its (prefix, id) index finds
		// the rows whose first characters match, the whole value decides.
		e := c.d.JSONText(src, a.Name)
		return "(" + c.d.Prefix(e) + " = " + c.d.Prefix(c.bind(s)) + " AND " + e + " = " + c.bind(s) + ")", nil
	}
	return c.compare(cd, string(a.Type), c.d.JSONText(src, a.Name), "")
}

// relationCond compiles a condition through a relation as an EXISTS over
// the target table, joined on the stored document ids.
func (c *compiler) relationCond(cd *query.Cond, steps []query.Step, alias, src string, v engine.Version) (string, error) {
	if s, ok, err := c.relationIn(cd, steps, src, v); ok {
		return s, err
	}
	a := steps[0].Attr
	target := steps[1].Type
	ta := c.alias()
	var join string
	if a.Column != "" { // a system type's to-one relation: an id column
		join = ta + ".id = " + alias + "." + quote(a.Column)
	} else if a.IsOwner() {
		if a.IsToMany() {
			el := c.alias()
			join = ta + ".document_id IN (SELECT " + c.d.ArrayText(el) + " FROM " + c.d.ArrayElements(c.d.JSONValue(src, a.Name), el) + ")"
		} else {
			join = ta + ".document_id = " + c.d.JSONText(src, a.Name)
		}
	} else {
		// Inverse side: the target row holds our document id.
		other := target.Attr(a.MappedBy)
		osrc := ta + "." + engine.Column(other)
		if other.IsToMany() {
			el := c.alias()
			join = alias + ".document_id IN (SELECT " + c.d.ArrayText(el) + " FROM " + c.d.ArrayElements(c.d.JSONValue(osrc, other.Name), el) + ")"
		} else {
			join = c.d.JSONText(osrc, other.Name) + " = " + alias + ".document_id"
		}
	}
	// Rows of types without draft & publish are all published.
	tv := engine.VersionPublished
	if target.HasDraftAndPublish() && v == engine.VersionDraft {
		tv = engine.VersionDraft
	}
	inner, err := c.cond(cd, steps[1:], ta, "", tv)
	if err != nil {
		return "", err
	}
	c.tables = append(c.tables, target.Table())
	c.uncached = c.uncached || target.System
	related := "SELECT 1 FROM " + quote(target.Table()) + " " + ta + " WHERE " + join + " AND " + rowsOf(ta, target, tv)
	return orNone(cd, "EXISTS ("+related+" AND "+inner+")", related), nil
}

// orNone makes a null test through a relation or a repeatable component
// also hold when there is nothing to test, as Strapi's LEFT JOINs do:
// `filters[author][$null]=true` lists the documents without an author.
// others is the subquery of the related rows or items.
func orNone(cd *query.Cond, exists, others string) string {
	if (cd.Op == query.OpNull && cd.Bool) || (cd.Op == query.OpNotNull && !cd.Bool) {
		return "(" + exists + " OR NOT EXISTS (" + others + "))"
	}
	return exists
}

func systemColumn(f string) string {
	switch f {
	case "documentId":
		return "document_id"
	case "createdAt":
		return "created_at"
	case "updatedAt":
		return "updated_at"
	case "publishedAt":
		return "published_at"
	}
	return f // id, locale
}

// compare applies the operator to expr. kind is the attribute type, or
// "system" with the system field's name, or "column" for a typed column of
// an auth table: no casts, and values bound as they are, as those rows
// were written (times as time.Time).
func (c *compiler) compare(cd *query.Cond, kind, expr, system string) (string, error) {
	num := false
	switch kind {
	case "integer", "biginteger", "float", "decimal":
		num = true
	case "boolean":
		expr = c.d.Bool(expr)
	}
	if system == "id" {
		num = true
	}
	cmp := expr
	if num && system == "" {
		cmp = c.d.Number(expr)
	}
	// PostgreSQL keeps times of day without the fraction's trailing zeros,
	// as Strapi reads them back ("08:30:00"), and rows written before that
	// with them: compared as times, both forms are the same.
	_, pg := c.d.(postgresDialect)
	pgTime := pg && kind == "time"
	if pgTime {
		cmp = "(" + expr + ")::time"
	}
	val := func(x any) string {
		if kind == "column" {
			return c.bind(x)
		}
		if pgTime {
			return c.bind(x) + "::time"
		}
		if t, ok := x.(time.Time); ok {
			if system != "" {
				return c.bind(c.d.Time(t))
			}
			return c.bind(t.UTC().Format(TimeLayout))
		}
		if num && system == "" {
			if _, ok := c.d.(postgresDialect); ok {
				return c.bind(x) + "::numeric"
			}
		}
		return c.bind(x)
	}
	like := func(pattern string, insensitive, negate bool) string {
		e, p := expr, c.bind(pattern)
		if _, ok := c.d.(postgresDialect); ok {
			e = "(" + expr + ")::text"
		}
		if insensitive {
			e, p = "LOWER("+e+")", "LOWER("+p+")"
		}
		s := e + " LIKE " + p + " ESCAPE '\\'"
		if negate {
			return "(" + expr + " IS NULL OR NOT (" + s + "))"
		}
		return s
	}
	str := func() string { return fmt.Sprint(cd.Value) }
	switch cd.Op {
	case query.OpEq:
		return cmp + " = " + val(cd.Value), nil
	case query.OpNe:
		return cmp + " <> " + val(cd.Value), nil
	case query.OpEqi:
		return "LOWER(" + textOf(c.d, expr) + ") = LOWER(" + c.bind(str()) + ")", nil
	case query.OpNei:
		return "LOWER(" + textOf(c.d, expr) + ") <> LOWER(" + c.bind(str()) + ")", nil
	case query.OpLt:
		return cmp + " < " + val(cd.Value), nil
	case query.OpLte:
		return cmp + " <= " + val(cd.Value), nil
	case query.OpGt:
		return cmp + " > " + val(cd.Value), nil
	case query.OpGte:
		return cmp + " >= " + val(cd.Value), nil
	case query.OpIn, query.OpNotIn:
		if len(cd.Values) == 0 {
			if cd.Op == query.OpIn {
				return "1=0", nil
			}
			return "1=1", nil
		}
		ph := make([]string, len(cd.Values))
		for i, x := range cd.Values {
			ph[i] = val(x)
		}
		op := " IN ("
		if cd.Op == query.OpNotIn {
			op = " NOT IN ("
		}
		return cmp + op + strings.Join(ph, ", ") + ")", nil
	case query.OpBetween:
		return cmp + " BETWEEN " + val(cd.Values[0]) + " AND " + val(cd.Values[1]), nil
	case query.OpNull:
		if cd.Bool {
			return expr + " IS NULL", nil
		}
		return expr + " IS NOT NULL", nil
	case query.OpNotNull:
		if cd.Bool {
			return expr + " IS NOT NULL", nil
		}
		return expr + " IS NULL", nil
	case query.OpContains:
		return like("%"+escapeLike(str())+"%", false, false), nil
	case query.OpNotContains:
		return like("%"+escapeLike(str())+"%", false, true), nil
	case query.OpContainsi:
		return like("%"+escapeLike(str())+"%", true, false), nil
	case query.OpNotContainsi:
		return like("%"+escapeLike(str())+"%", true, true), nil
	case query.OpStartsWith:
		return like(escapeLike(str())+"%", false, false), nil
	case query.OpStartsWithi:
		return like(escapeLike(str())+"%", true, false), nil
	case query.OpEndsWith:
		return like("%"+escapeLike(str()), false, false), nil
	case query.OpEndsWithi:
		return like("%"+escapeLike(str()), true, false), nil
	}
	return "", fmt.Errorf("unknown operator %s", cd.Op)
}

func textOf(d Dialect, expr string) string {
	if _, ok := d.(postgresDialect); ok {
		return "(" + expr + ")::text"
	}
	return expr
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// orderBy builds the ORDER BY list; id breaks ties so pages are stable.
func (c *compiler) orderBy(sorts []query.Sort, v engine.Version) string {
	parts := make([]string, 0, len(sorts)+1)
	for _, s := range sorts {
		e := c.sortExpr(s.Steps, "t0", "", v)
		dir := " ASC NULLS LAST"
		if s.Desc {
			dir = " DESC NULLS FIRST"
		}
		if len(s.Steps) == 1 && s.Steps[0].Attr != nil && prefixSorted(s.Steps[0].Attr) {
			// The same order (for values up to prefixChars long the
			// prefix is the value), by the prefix index first.
			parts = append(parts, c.d.Prefix(e)+dir)
		}
		parts = append(parts, e+dir)
	}
	// id breaks ties in the direction of the last key, so an index on
	// (key, id) serves the order scanned forward or backward.
	tie := "t0.id ASC"
	if len(sorts) > 0 && sorts[len(sorts)-1].Desc {
		tie = "t0.id DESC"
	}
	return strings.Join(append(parts, tie), ", ")
}

func (c *compiler) sortExpr(steps []query.Step, alias, base string, v engine.Version) string {
	st := steps[0]
	if st.Attr == nil {
		return alias + "." + systemColumn(st.System)
	}
	a := st.Attr
	if a.Column != "" && a.Type != models.TypeRelation {
		return alias + "." + quote(a.Column)
	}
	src := base
	if src == "" {
		src = alias + "." + engine.Column(a)
	}
	switch a.Type {
	case models.TypeComponent:
		return c.sortExpr(steps[1:], alias, c.d.JSONValue(src, a.Name), v)
	case models.TypeRelation:
		target := steps[1].Type
		ta := c.alias()
		join := ta + ".document_id = " + c.d.JSONText(src, a.Name)
		if a.Column != "" {
			join = ta + ".id = " + alias + "." + quote(a.Column)
		} else if !a.IsOwner() {
			other := target.Attr(a.MappedBy)
			join = c.d.JSONText(ta+"."+engine.Column(other), other.Name) + " = " + alias + ".document_id"
		}
		tv := engine.VersionPublished
		if target.HasDraftAndPublish() && v == engine.VersionDraft {
			tv = engine.VersionDraft
		}
		if a.IsOwner() && !target.Localized {
			// At most one row of the target matches (one per document and
			// version), so a join keeps one row per document and lets the
			// planner hash-join instead of running a subquery per row.
			c.joins = append(c.joins, " LEFT JOIN "+quote(target.Table())+" "+ta+" ON "+join+" AND "+rowsOf(ta, target, tv))
			return c.sortExpr(steps[1:], ta, "", tv)
		}
		return "(SELECT " + c.sortExpr(steps[1:], ta, "", tv) + " FROM " + quote(target.Table()) + " " + ta +
			" WHERE " + join + " AND " + rowsOf(ta, target, tv) + " ORDER BY " + ta + ".id LIMIT 1)"
	}
	e := c.d.JSONText(src, a.Name)
	if a.IsNumeric() {
		return c.d.Number(e)
	}
	return e
}
