package store

import (
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
	ta := c.alias()
	inner, err := c.cond(cd, steps[1:], ta, "", tv)
	if err != nil {
		return "", true, err
	}
	c.tables = append(c.tables, target.Table())
	id := c.d.JSONText(src, a.Name)
	table := quote(target.Table()) + " " + ta
	in := "(" + id + " IS NOT NULL AND " + id + " IN (SELECT " + ta + ".document_id FROM " + table +
		" WHERE " + versionCond(ta, tv) + " AND " + inner + "))"
	related := "SELECT 1 FROM " + table + " WHERE " + ta + ".document_id = " + id + " AND " + versionCond(ta, tv)
	return orNone(cd, in, related), true, nil
}
