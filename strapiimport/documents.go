package strapiimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/store"
)

// How Strapi 5 keeps documents, and how they become Stratum rows:
//   - one row per version (draft, published) and locale in the type's table,
//     the attributes in snake_case columns; Stratum keeps the same rows with
//     the same ids, the attributes as JSON;
//   - relations in join tables `<table>_<attr>_lnk` (owner id, target id,
//     order), between rows: Stratum keeps the target's documentId, in order;
//   - components and dynamic zones in `<table>_cmps` (entity id, component
//     row id, type, field, order) and one table per component: Stratum keeps
//     them inline, with their ids;
//   - media in `files_related_mph` (file, related row, its type, field,
//     order): Stratum keeps the file ids.

// ownerData is what a type's or a component's rows point at.
type ownerData struct {
	rels map[string]map[int64][]int64 // attribute -> owner row id -> target row ids, in order
	cmps map[int64][]cmpRef           // owner row id -> its components
	// media: field -> owner row id -> file ids, in order
	media map[string]map[int64][]int64
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

func (im *importer) documents() error {
	if err := im.loadMedia(); err != nil {
		return err
	}
	for _, ct := range im.o.Schema.Types {
		if err := im.importType(ct); err != nil {
			return err
		}
	}
	return nil
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
	od := &ownerData{rels: map[string]map[int64][]int64{}, cmps: map[int64][]cmpRef{}}
	for _, a := range attrs {
		if a.Type != models.TypeRelation || !a.IsOwner() {
			continue
		}
		if a.IsMorph() {
			im.rep.skip("%s.%s: polymorphic relations are not imported", label, a.Name)
			continue
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
		tcol := snake(target.Info.SingularName) + "_id"
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
		if oc := strings.TrimSuffix(tcol, "_id") + "_ord"; im.src.Has(lt, oc) {
			order = append(order, oc)
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

// importType writes every row of a content type.
func (im *importer) importType(ct *models.ContentType) error {
	t := ct.Table()
	if !im.src.Has(t, "id", "document_id") {
		im.rep.skip("%s: no table %s with documents in the Strapi database", ct.UID, t)
		return nil
	}
	od, err := im.loadOwner(ct.UID, t, ct.Attributes)
	if err != nil {
		return err
	}
	// What rows point at is read first: no query runs while the rows
	// stream.
	if err := im.preload(ct.Attributes); err != nil {
		return err
	}
	total, err := im.src.Count(im.ctx, t)
	if err != nil {
		return err
	}
	// Rows are written as they are read, a batch per transaction, so a
	// large table is never held in memory.
	im.prog.start(ct.UID, int(total))
	rows := make([]*engine.Row, 0, im.o.Batch)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := im.dst.Import(im.ctx, func(tx *store.ImportTx) error {
			for _, r := range rows {
				if err := tx.PutRow(ct, r); err != nil {
					return fmt.Errorf("%s row %d (documentId %s, locale %q): %w", ct.UID, r.ID, r.DocumentID, r.Locale, err)
				}
			}
			return nil
		})
		im.rep.Counts[ct.UID] += len(rows)
		im.prog.add(len(rows))
		rows = rows[:0]
		return err
	}
	im.rep.Counts[ct.UID] += 0 // listed even when empty
	err = im.src.Rows(im.ctx, t, nil, []string{"id"}, func(r map[string]any) error {
		row, err := im.row(ct, od, r)
		if err != nil || row == nil {
			return err
		}
		rows = append(rows, row)
		if len(rows) >= im.o.Batch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	im.prog.finish()
	return err
}

// row builds the Stratum row of one Strapi row.
func (im *importer) row(ct *models.ContentType, od *ownerData, r map[string]any) (*engine.Row, error) {
	id, ok := toInt(r["id"])
	if !ok {
		return nil, nil
	}
	row := &engine.Row{ID: id, DocumentID: str(r["document_id"])}
	if row.DocumentID == "" {
		im.rep.warn("%s row %d has no document_id: skipped", ct.UID, id)
		return nil, nil
	}
	if ct.Localized {
		row.Locale = str(r["locale"])
		if row.Locale == "" {
			row.Locale = im.defLoc
		}
	}
	now := time.Now().UTC()
	row.CreatedAt, row.UpdatedAt = now, now
	if t, ok := toTime(r["created_at"]); ok {
		row.CreatedAt = t
	}
	if t, ok := toTime(r["updated_at"]); ok {
		row.UpdatedAt = t
	} else {
		row.UpdatedAt = row.CreatedAt
	}
	row.PublishedAt = timePtr(r["published_at"])
	if row.PublishedAt == nil && !ct.HasDraftAndPublish() {
		p := row.UpdatedAt // Strapi without draft & publish publishes every row
		row.PublishedAt = &p
	}
	m, err := im.values(ct.UID, ct.Table(), ct.Attributes, od, id, r)
	if err != nil {
		return nil, err
	}
	row.Data, row.Extra, err = engine.EncodeColumns(ct, m)
	return row, err
}

// values reads the attributes of one row of a type or component.
func (im *importer) values(label, table string, attrs []*models.Attribute, od *ownerData, id int64, r map[string]any) (map[string]any, error) {
	m := map[string]any{}
	for _, a := range attrs {
		switch {
		case a.IsScalar():
			col := snake(a.Name)
			v, has := r[col]
			if !has {
				if v, has = r[a.Name]; !has {
					im.rep.warn("%s.%s: no column %s in %s: left empty", label, a.Name, col, table)
					continue
				}
			}
			bv := bodyValue(a, v)
			sv, err := engine.StoredScalar(a, bv)
			if err != nil {
				im.rep.warn("%s row %d: %s: kept as read", label, id, err)
				sv = bv
			}
			m[a.Name] = sv
		case a.Type == models.TypeRelation:
			rel, ok := od.rels[a.Name]
			if !ok {
				continue
			}
			target := im.o.Schema.Type(a.Target)
			ids, err := im.loadIDs(target.Table())
			if err != nil {
				return nil, err
			}
			var docs []string
			seen := map[string]bool{}
			for _, tid := range rel[id] {
				if d := ids[tid]; d != "" && !seen[d] {
					seen[d] = true
					docs = append(docs, d)
				}
			}
			if a.IsToMany() {
				if docs == nil {
					docs = []string{}
				}
				m[a.Name] = docs
			} else if len(docs) > 0 {
				m[a.Name] = docs[0]
			} else {
				m[a.Name] = nil
			}
		case a.Type == models.TypeMedia:
			files := im.media[strings.TrimPrefix(label, "component ")][id][a.Name]
			if a.Multiple {
				out := make([]any, 0, len(files))
				for _, f := range files {
					out = append(out, f)
				}
				m[a.Name] = out
			} else if len(files) > 0 {
				m[a.Name] = files[0]
			} else {
				m[a.Name] = nil
			}
		case a.Type == models.TypeComponent || a.Type == models.TypeDynamicZone:
			var items []any
			for _, ref := range od.cmps[id] {
				if ref.field != a.Name {
					continue
				}
				cd, err := im.component(ref.uid)
				if err != nil {
					return nil, err
				}
				cr, ok := cd.rows[ref.id]
				if cd.c == nil || !ok {
					im.rep.warn("%s row %d: %s: component %s %d not found", label, id, a.Name, ref.uid, ref.id)
					continue
				}
				item, err := im.values("component "+ref.uid, cd.c.CollectionName, cd.c.Attributes, cd.od, ref.id, cr)
				if err != nil {
					return nil, err
				}
				item["id"] = ref.id
				if a.Type == models.TypeDynamicZone {
					item["__component"] = ref.uid
				}
				items = append(items, item)
			}
			switch {
			case a.Type == models.TypeComponent && !a.Repeatable:
				if len(items) > 0 {
					m[a.Name] = items[0]
				} else {
					m[a.Name] = nil
				}
			default:
				if items == nil {
					items = []any{}
				}
				m[a.Name] = items
			}
		}
	}
	return m, nil
}

// bodyValue turns a column's value into the JSON form the document
// service's checks take.
func bodyValue(a *models.Attribute, v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		switch a.Type {
		case models.TypeDate:
			return x.Format("2006-01-02")
		case models.TypeTime:
			return x.Format("15:04:05.000")
		}
		return x.UTC().Format(time.RFC3339Nano)
	case bool:
		return x
	case int64:
		if a.Type == models.TypeBoolean {
			return x != 0
		}
		if a.Type == models.TypeDate || a.Type == models.TypeDateTime || a.Type == models.TypeTimestamp {
			t := time.UnixMilli(x).UTC()
			if a.Type == models.TypeDate {
				return t.Format("2006-01-02")
			}
			return t.Format(time.RFC3339Nano)
		}
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64))
	case string:
		switch a.Type {
		case models.TypeJSON, models.TypeBlocks:
			dec := json.NewDecoder(bytes.NewReader([]byte(x)))
			dec.UseNumber()
			var out any
			if dec.Decode(&out) == nil {
				return out
			}
			return x
		case models.TypeInteger, models.TypeBigInteger, models.TypeFloat, models.TypeDecimal:
			return json.Number(strings.TrimSpace(x))
		case models.TypeDate:
			if t, ok := toTime(x); ok && len(x) > 10 {
				return t.Format("2006-01-02")
			}
		case models.TypeDateTime, models.TypeTimestamp:
			if t, ok := toTime(x); ok {
				return t.Format(time.RFC3339Nano)
			}
		}
		return x
	}
	return v
}
