package strapiimport

import (
	"fmt"
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
//     order): Stratum keeps the file ids;
//   - polymorphic relations in the owner's row or `<table>_<attr>_mph`
//     (morphs.go): Stratum keeps {__type, documentId} items, in order.

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
	im.prog.Start(ct.UID, int(total))
	rows := make([]*engine.Row, 0, im.o.Batch)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := im.dst.Import(im.ctx, func(tx *store.ImportTx) error { return tx.PutRows(ct, rows) })
		if err != nil {
			// One statement per row, to name the row that fails.
			err = im.dst.Import(im.ctx, func(tx *store.ImportTx) error {
				for _, r := range rows {
					if err := tx.PutRow(ct, r); err != nil {
						return fmt.Errorf("%s row %d (documentId %s, locale %q): %w", ct.UID, r.ID, r.DocumentID, r.Locale, err)
					}
				}
				return nil
			})
		}
		im.rep.Counts[ct.UID] += len(rows)
		im.prog.Add(len(rows))
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
	im.prog.Finish()
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
		case a.IsMorph():
			v, ok, err := im.morphValue(label, a, od, id, r)
			if err != nil {
				return nil, err
			}
			if ok {
				m[a.Name] = v
			}
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
