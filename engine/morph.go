package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// morphItem is one target of a polymorphic relation, as stored.
type morphItem struct {
	Type       string `json:"__type"`
	DocumentID string `json:"documentId"`
}

// morphValue reads a morphToOne/morphToMany body value: items
// {__type, documentId} or {__type, id}, a list of them, or
// {connect, disconnect, set}. Every target must exist.
func (w *writer) morphValue(a *models.Attribute, v any, old any, path []string) any {
	fail := func(err error) any {
		w.errs.Add(path, nil, "%s: %v", a.Name, err)
		return old
	}
	current := morphItems(rawOf(old))
	list := current
	if m, ok := v.(map[string]any); ok && (m["connect"] != nil || m["disconnect"] != nil || m["set"] != nil) {
		if set, ok := m["set"]; ok {
			items, err := w.morphRefs(set)
			if err != nil {
				return fail(err)
			}
			list = items
		}
		if dis, ok := m["disconnect"]; ok {
			drop, err := w.morphRefs(dis)
			if err != nil {
				return fail(err)
			}
			kept := list[:0:0]
			for _, it := range list {
				if !containsItem(drop, it) {
					kept = append(kept, it)
				}
			}
			list = kept
		}
		if con, ok := m["connect"]; ok {
			add, err := w.morphRefs(con)
			if err != nil {
				return fail(err)
			}
			for _, it := range add {
				if !containsItem(list, it) {
					list = append(list, it)
				}
			}
		}
	} else {
		items, err := w.morphRefs(v)
		if err != nil {
			return fail(err)
		}
		list = items
	}
	if a.Relation == models.MorphToOne {
		if len(list) == 0 {
			return nil
		}
		return list[len(list)-1]
	}
	if list == nil {
		list = []morphItem{}
	}
	return list
}

// morphRefs resolves and checks polymorphic references.
func (w *writer) morphRefs(v any) ([]morphItem, error) {
	raw := asList(v)
	out := make([]morphItem, 0, len(raw))
	for _, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("each item needs \"__type\" and \"documentId\" (or \"id\")")
		}
		uid, _ := m["__type"].(string)
		target := w.schema.Type(uid)
		if target == nil {
			return nil, fmt.Errorf("unknown __type %q", uid)
		}
		var docID string
		if d, ok := m["documentId"].(string); ok {
			docID = d
		} else if s, ok := scalarString(m["id"]); ok && s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("invalid id %q", s)
			}
			byRow, err := w.tx.DocumentIDs(target, []int64{n})
			if err != nil {
				return nil, err
			}
			if docID = byRow[n]; docID == "" {
				return nil, fmt.Errorf("Document with id %d not found in %s", n, uid)
			}
		} else {
			return nil, fmt.Errorf("each item needs \"documentId\" or \"id\"")
		}
		found, err := w.tx.Exists(target, []string{docID})
		if err != nil {
			return nil, err
		}
		if !found[docID] {
			return nil, fmt.Errorf("Document with id %q not found in %s", docID, uid)
		}
		out = append(out, morphItem{Type: uid, DocumentID: docID})
	}
	return out, nil
}

func containsItem(list []morphItem, it morphItem) bool {
	for _, x := range list {
		if x == it {
			return true
		}
	}
	return false
}

// morphItems reads a stored polymorphic value: one item or a list.
func morphItems(raw json.RawMessage) []morphItem {
	var one morphItem
	if json.Unmarshal(raw, &one) == nil && one.Type != "" {
		return []morphItem{one}
	}
	var list []morphItem
	_ = json.Unmarshal(raw, &list)
	return list
}

// morph populates a morphToOne/morphToMany relation: one query per target
// type for the whole page; each document carries its __type.
func (p *populator) morph(a *models.Attribute, rows []Row, docs []*Document, extras []rawObject, v Version, locale string) error {
	items := make([][]morphItem, len(rows))
	byType := map[string][]string{}
	for i := range rows {
		items[i] = morphItems(extras[i].get(a.Name))
		for _, it := range items[i] {
			byType[it.Type] = append(byType[it.Type], it.DocumentID)
		}
	}
	found := map[morphItem]*Document{}
	for uid, ids := range byType {
		target := p.schema.Type(uid)
		if target == nil || !p.acc.Can(target.Action("find")) {
			continue
		}
		got, err := p.fetch(target, &query.Populate{}, uniqueStrings(ids), v, locale)
		if err != nil {
			return err
		}
		for id, d := range got {
			d.Type = uid
			found[morphItem{Type: uid, DocumentID: id}] = d
		}
	}
	for i := range rows {
		r := Related{Name: a.Name, IsList: a.Relation == models.MorphToMany}
		list := []*Document{}
		for _, it := range items[i] {
			if d := found[it]; d != nil {
				list = append(list, d)
			}
		}
		if r.IsList {
			r.Many = list
		} else if len(list) > 0 {
			r.One = list[len(list)-1]
		}
		docs[i].Related = append(docs[i].Related, r)
	}
	return nil
}

// morphInverse populates a morphOne/morphMany relation: the target rows
// whose morphBy relation names these documents, in one query.
func (p *populator) morphInverse(ct *models.ContentType, a *models.Attribute, rows []Row, docs []*Document, sub *query.Populate, v Version, locale string) error {
	target := p.schema.Type(a.Target)
	by := target.Attr(a.MorphBy)
	if !p.acc.Can(target.Action("find")) {
		return nil
	}
	tv, tl := p.scope(target, v, locale)
	fields, _ := resolveFields(target, sub.Fields)
	lq := &ListQuery{Version: tv, Locale: tl, Limit: -1, WithExtra: true, RefAttr: by, RefType: ct.UID}
	for i := range rows {
		lq.RefIDs = append(lq.RefIDs, rows[i].DocumentID)
	}
	trows, err := p.e.list(p.ctx, target, lq)
	if err != nil {
		return err
	}
	back := map[string][]*Document{}
	for i := range trows {
		var ex map[string]json.RawMessage
		_ = json.Unmarshal(trows[i].Extra, &ex)
		d := shape(target, &trows[i], fields)
		for _, it := range morphItems(ex[by.Name]) {
			if it.Type == ct.UID {
				back[it.DocumentID] = append(back[it.DocumentID], d)
			}
		}
	}
	for i := range rows {
		list := back[rows[i].DocumentID]
		r := Related{Name: a.Name, IsList: a.Relation == models.MorphMany, Many: list}
		if !r.IsList {
			r.Many = nil
			if len(list) > 0 {
				r.One = list[0]
			}
		} else if r.Many == nil {
			r.Many = []*Document{}
		}
		docs[i].Related = append(docs[i].Related, r)
	}
	return nil
}
