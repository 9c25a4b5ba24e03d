package store

import (
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/query"
)

// relationIn compiles a condition through an owner to-one relation as
//
//	(<stored id> IS NOT NULL AND <stored id> IN (SELECT document_id FROM target WHERE ...))
//
// instead of an EXISTS per row: the subquery does not depend on the row,
// so SQLite runs it once into a list (it runs a correlated EXISTS for every
// row it scans, about twice the time of the page), and both databases can
// read the rows through the <attr>_rel expression index. The IS NOT NULL
// keeps a missing relation false, not NULL, so NOT (...) still holds for it
// as NOT EXISTS did. ok is false for the other relations, which
// relationCond compiles.
func (c *compiler) relationIn(cd *query.Cond, steps []query.Step, src string, v engine.Version) (string, bool, error) {
	a, target := steps[0].Attr, steps[1].Type
	// A system type's relation is an id column, and a system target (users)
	// has typed columns and no versions: relationCond joins those.
	if !a.IsOwner() || a.IsToMany() || a.IsMorph() || a.Column != "" || target.System {
		return "", false, nil
	}
	tv := engine.VersionPublished
	if target.HasDraftAndPublish() && v == engine.VersionDraft {
		tv = engine.VersionDraft
	}
	id := c.d.JSONText(src, a.Name)
	ta := c.alias()
	table := quote(target.Table()) + " " + ta
	related := "SELECT 1 FROM " + table + " WHERE " + ta + ".document_id = " + id + " AND " + versionCond(ta, tv)
	if in, ok, err := c.resolvedIn(cd, steps, id, ta, table, tv); ok || err != nil {
		return orNone(cd, in, related), true, err
	}
	inner, err := c.cond(cd, steps[1:], ta, "", tv)
	if err != nil {
		return "", true, err
	}
	c.tables = append(c.tables, target.Table())
	in := "(" + id + " IS NOT NULL AND " + id + " IN (SELECT " + ta + ".document_id FROM " + table +
		" WHERE " + versionCond(ta, tv) + " AND " + inner + "))"
	return orNone(cd, in, related), true, nil
}

// resolvedIn is relationIn's condition with the related documents read
// first and bound as values (relids.go); ok is false without a resolver or
// when they are too many.
func (c *compiler) resolvedIn(cd *query.Cond, steps []query.Step, id, ta, table string, tv engine.Version) (string, bool, error) {
	if c.resolve == nil {
		return "", false, nil
	}
	// Its own values: the subquery is a statement of its own.
	sub := &compiler{d: c.d, aliasN: c.aliasN, resolve: c.resolve}
	inner, err := sub.cond(cd, steps[1:], ta, "", tv)
	if err != nil {
		return "", true, err
	}
	c.aliasN = sub.aliasN
	ids, ok, err := c.resolve.ids("SELECT DISTINCT "+ta+".document_id FROM "+table+" WHERE "+versionCond(ta, tv)+" AND "+inner, sub.args)
	if err != nil || !ok {
		return "", err != nil, err
	}
	// The page's count is cached under the versions of the tables it
	// read, the related ones too: a renamed author changes the ids.
	c.tables = append(append(c.tables, steps[1].Type.Table()), sub.tables...)
	c.uncached = c.uncached || sub.uncached
	switch len(ids) {
	case 0:
		return "(1 = 0)", true, nil
	case 1: // IS NOT NULL as in relationIn: NOT (...) holds for a missing relation
		return "(" + id + " IS NOT NULL AND " + id + " = " + c.bind(ids[0]) + ")", true, nil
	}
	ph := make([]string, len(ids))
	for i, v := range ids {
		ph[i] = c.bind(v)
	}
	return "(" + id + " IS NOT NULL AND " + id + " IN (" + strings.Join(ph, ", ") + "))", true, nil
}
