package strapiimport

import (
	"strings"

	"github.com/stratum-cms/stratum/models"
)

// ownerData is what a type's or a component's rows point at.
type ownerData struct {
	rels map[string]map[int64][]int64 // attribute -> owner row id -> target row ids, in order
	cmps map[int64][]cmpRef           // owner row id -> its components
	// morphs: morphToMany attribute -> owner row id -> targets, in order.
	morphs map[string]map[int64][]morphRef
	warned map[string]bool // attributes already named in the report
}

type cmpRef struct {
	field, uid string
	id         int64
}

// compData holds the rows of one component table.
type compData struct {
	c    *models.Component
	rows map[int64]map[string]any
	od   *ownerData
}

// loadMedia reads files_related_mph: related type -> row -> field -> files.
func (im *importer) loadMedia() error {
	im.media = map[string]map[int64]map[string][]int64{}
	t := "files_related_mph"
	if !im.src.Has(t, "file_id", "related_id", "related_type", "field") {
		return nil
	}
	order := []string{"related_type", "related_id", "field"}
	if im.src.Has(t, "order") {
		order = append(order, "order")
	}
	return im.src.Rows(im.ctx, t, []string{"file_id", "related_id", "related_type", "field"}, append(order, "id"), func(r map[string]any) error {
		fid, ok1 := toInt(r["file_id"])
		rid, ok2 := toInt(r["related_id"])
		if !ok1 || !ok2 {
			return nil
		}
		typ := str(r["related_type"])
		if im.media[typ] == nil {
			im.media[typ] = map[int64]map[string][]int64{}
		}
		if im.media[typ][rid] == nil {
			im.media[typ][rid] = map[string][]int64{}
		}
		f := str(r["field"])
		im.media[typ][rid][f] = append(im.media[typ][rid][f], fid)
		return nil
	})
}

// loadOwner reads the join tables of a type's or component's attributes.
func (im *importer) loadOwner(label, table string, attrs []*models.Attribute) (*ownerData, error) {
	od := &ownerData{rels: map[string]map[int64][]int64{}, cmps: map[int64][]cmpRef{},
		morphs: map[string]map[int64][]morphRef{}, warned: map[string]bool{}}
	for _, a := range attrs {
		if a.Type != models.TypeRelation || !a.IsOwner() {
			continue
		}
		if a.Relation == models.MorphToMany {
			m, ok, err := im.loadMorph(label, table, a)
			if err != nil {
				return nil, err
			}
			if ok {
				od.morphs[a.Name] = m
			}
			continue
		}
		if a.IsMorph() {
			continue // morphToOne: columns of the owner's rows
		}
		target := im.o.Schema.Type(a.Target)
		if target == nil {
			im.rep.skip("%s.%s: relation to %s, which is not a content type of the project", label, a.Name, a.Target)
			continue
		}
		lt := table + "_" + snake(a.Name) + "_lnk"
		cols := im.src.Columns(lt)
		if cols == nil {
			im.rep.skip("%s.%s: no join table %s in the Strapi database", label, a.Name, lt)
			continue
		}
		// Strapi names the columns after the singular names: owner_id,
		// target_id (inv_target_id when both are the same type) and the
		// order of the targets, target_ord.
		tcol := snake(target.Info.SingularName) + "_id"
		ocol := snake(target.Info.SingularName) + "_ord"
		var idCols []string
		for _, c := range cols {
			if c != "id" && strings.HasSuffix(c, "_id") {
				idCols = append(idCols, c)
			}
		}
		if im.src.Has(lt, "inv_"+tcol) {
			tcol = "inv_" + tcol // a relation of a type to itself
		}
		scol := ""
		for _, c := range idCols {
			if c != tcol {
				scol = c
			}
		}
		if scol == "" || !im.src.Has(lt, tcol) {
			im.rep.skip("%s.%s: join table %s has no columns for %s", label, a.Name, lt, a.Target)
			continue
		}
		order := []string{scol}
		if im.src.Has(lt, ocol) {
			order = append(order, ocol)
		}
		m := map[int64][]int64{}
		err := im.src.Rows(im.ctx, lt, []string{scol, tcol}, append(order, "id"), func(r map[string]any) error {
			s, ok1 := toInt(r[scol])
			t, ok2 := toInt(r[tcol])
			if ok1 && ok2 {
				m[s] = append(m[s], t)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		od.rels[a.Name] = m
	}
	hasCmp := false
	for _, a := range attrs {
		hasCmp = hasCmp || a.Type == models.TypeComponent || a.Type == models.TypeDynamicZone
	}
	if ct := table + "_cmps"; hasCmp && im.src.Has(ct, "entity_id", "cmp_id", "component_type", "field") {
		order := []string{"entity_id", "field"}
		if im.src.Has(ct, "order") {
			order = append(order, "order")
		}
		err := im.src.Rows(im.ctx, ct, []string{"id", "entity_id", "cmp_id", "component_type", "field"}, append(order, "id"), func(r map[string]any) error {
			e, ok1 := toInt(r["entity_id"])
			c, ok2 := toInt(r["cmp_id"])
			if ok1 && ok2 {
				od.cmps[e] = append(od.cmps[e], cmpRef{field: str(r["field"]), uid: str(r["component_type"]), id: c})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else if hasCmp {
		im.rep.skip("%s: no table %s in the Strapi database: its components are not imported", label, ct)
	}
	if err := im.preloadMorphs(label, od, attrs, table); err != nil {
		return nil, err
	}
	return od, nil
}

// component reads a component's table once.
func (im *importer) component(uid string) (*compData, error) {
	if cd, ok := im.comps[uid]; ok {
		return cd, nil
	}
	c := im.o.Schema.Component(uid)
	cd := &compData{c: c, rows: map[int64]map[string]any{}}
	im.comps[uid] = cd
	if c == nil {
		im.rep.skip("component %s: not in the project's schema", uid)
		return cd, nil
	}
	if !im.src.Has(c.CollectionName, "id") {
		im.rep.skip("component %s: no table %s in the Strapi database", uid, c.CollectionName)
		return cd, nil
	}
	err := im.src.Rows(im.ctx, c.CollectionName, nil, []string{"id"}, func(r map[string]any) error {
		if id, ok := toInt(r["id"]); ok {
			cd.rows[id] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cd.od, err = im.loadOwner("component "+uid, c.CollectionName, c.Attributes)
	return cd, err
}

// preload reads the documentIds of relation targets and the component
// tables that attributes name, recursively.
func (im *importer) preload(attrs []*models.Attribute) error {
	for _, a := range attrs {
		switch a.Type {
		case models.TypeRelation:
			if t := im.o.Schema.Type(a.Target); t != nil && a.IsOwner() && !a.IsMorph() {
				if _, err := im.loadIDs(t.Table()); err != nil {
					return err
				}
			}
		case models.TypeComponent, models.TypeDynamicZone:
			uids := a.Components
			if a.Type == models.TypeComponent {
				uids = []string{a.Component}
			}
			for _, uid := range uids {
				if _, done := im.comps[uid]; done {
					continue
				}
				cd, err := im.component(uid)
				if err != nil {
					return err
				}
				if cd.c != nil {
					if err := im.preload(cd.c.Attributes); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
