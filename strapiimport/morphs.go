package strapiimport

import (
	"strings"

	"github.com/stratum-cms/stratum/models"
)

// How Strapi 5 keeps polymorphic relations, and how they become Stratum's:
//   - morphToOne: two columns of the owner's own row, target_id and
//     target_type (Strapi names them so whatever the attribute's name);
//   - morphToMany: a join table `<table>_<attr>_mph` with the owner's row
//     id (`<singular>_id`), the target's row id (`<attr>_id`) and type
//     (`<attr>_type`, a uid), a `field` and the `order` of the targets.
// Stratum keeps items {"__type": uid, "documentId": ...} in the document's
// row, in order; a target's row id becomes its documentId, so a draft's
// and a published row's references are the same document.

// morphRef is one target of a polymorphic relation, as Strapi stores it.
type morphRef struct {
	uid string
	id  int64
}

// loadMorph reads the join table of a morphToMany attribute: owner row id
// -> its targets, in order. ok is false when the table is missing.
func (im *importer) loadMorph(label, table string, a *models.Attribute) (map[int64][]morphRef, bool, error) {
	mt := table + "_" + snake(a.Name) + "_mph"
	idCol, typeCol := snake(a.Name)+"_id", snake(a.Name)+"_type"
	if !im.src.Has(mt, "id", idCol, typeCol) {
		im.rep.skip("%s.%s: no join table %s with columns %s, %s in the Strapi database", label, a.Name, mt, idCol, typeCol)
		return nil, false, nil
	}
	ownerCol := ""
	for _, c := range im.src.Columns(mt) {
		if c != "id" && c != idCol && strings.HasSuffix(c, "_id") {
			ownerCol = c
		}
	}
	if ownerCol == "" {
		im.rep.skip("%s.%s: join table %s has no column for the owner's id", label, a.Name, mt)
		return nil, false, nil
	}
	order := []string{ownerCol}
	if im.src.Has(mt, "order") {
		order = append(order, "order")
	}
	m := map[int64][]morphRef{}
	err := im.src.Rows(im.ctx, mt, []string{ownerCol, idCol, typeCol}, append(order, "id"), func(r map[string]any) error {
		o, ok1 := toInt(r[ownerCol])
		t, ok2 := toInt(r[idCol])
		if ok1 && ok2 {
			m[o] = append(m[o], morphRef{uid: str(r[typeCol]), id: t})
		}
		return nil
	})
	return m, err == nil, err
}

// morphValue is the stored value of a polymorphic attribute of one row:
// an item or nil (morphToOne), a list of items (morphToMany). Targets whose
// type is not in the project's schema, or whose row is gone, are left out
// and named in the warnings.
func (im *importer) morphValue(label string, a *models.Attribute, od *ownerData, id int64, r map[string]any) (any, bool, error) {
	var refs []morphRef
	if a.Relation == models.MorphToOne {
		tid, ok := toInt(r["target_id"])
		if _, has := r["target_type"]; !has {
			if !od.warned[a.Name] {
				od.warned[a.Name] = true
				im.rep.skip("%s.%s: no columns target_id, target_type in the Strapi database", label, a.Name)
			}
			return nil, false, nil
		}
		if uid := str(r["target_type"]); ok && uid != "" {
			refs = []morphRef{{uid: uid, id: tid}}
		}
	} else {
		m, ok := od.morphs[a.Name]
		if !ok {
			return nil, false, nil
		}
		refs = m[id]
	}
	items := []any{}
	seen := map[[2]string]bool{}
	for _, ref := range refs {
		target := im.o.Schema.Type(ref.uid)
		if target == nil {
			im.rep.warn("%s row %d: %s: %s %d is not a content type of the project: left out", label, id, a.Name, ref.uid, ref.id)
			continue
		}
		ids, err := im.loadIDs(target.Table())
		if err != nil {
			return nil, false, err
		}
		doc := ids[ref.id]
		if doc == "" {
			im.rep.warn("%s row %d: %s: %s row %d not found: left out", label, id, a.Name, ref.uid, ref.id)
			continue
		}
		if k := [2]string{ref.uid, doc}; !seen[k] {
			seen[k] = true
			items = append(items, map[string]any{"__type": ref.uid, "documentId": doc})
		}
	}
	if a.Relation == models.MorphToOne {
		if len(items) == 0 {
			return nil, true, nil
		}
		return items[0], true, nil
	}
	return items, true, nil
}

// preloadMorphs reads the documentIds of every type a polymorphic relation
// points at, before the owner's rows stream.
func (im *importer) preloadMorphs(label string, od *ownerData, attrs []*models.Attribute, table string) error {
	uids := map[string]bool{}
	var toOne []string
	for _, a := range attrs {
		if a.Relation == models.MorphToOne && a.IsMorph() {
			toOne = append(toOne, a.Name)
		}
	}
	if len(toOne) > 1 {
		im.rep.warn("%s: %s are morphToOne relations, which Strapi keeps in the same two columns (target_id, target_type): each gets their value",
			label, strings.Join(toOne, ", "))
	}
	for _, a := range attrs {
		if !a.IsMorph() {
			continue
		}
		if a.Relation == models.MorphToOne {
			if !im.src.Has(table, "target_type") {
				continue
			}
			err := im.src.Rows(im.ctx, table, []string{"target_type"}, nil, func(r map[string]any) error {
				if s := str(r["target_type"]); s != "" {
					uids[s] = true
				}
				return nil
			})
			if err != nil {
				return err
			}
			continue
		}
		for _, refs := range od.morphs[a.Name] {
			for _, ref := range refs {
				uids[ref.uid] = true
			}
		}
	}
	for uid := range uids {
		if t := im.o.Schema.Type(uid); t != nil {
			if _, err := im.loadIDs(t.Table()); err != nil {
				return err
			}
		}
	}
	return nil
}
