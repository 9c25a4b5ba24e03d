package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// checkPopulate refuses populate keys that are not populatable attributes.
func checkPopulate(s *models.Schema, acc Access, ct *models.ContentType, pop map[string]*query.Populate) error {
	for name, p := range pop {
		if name == localizationsField && ct.Localized {
			continue
		}
		a := ct.Attr(name)
		if a == nil || !a.IsPopulatable() || a.IsHidden() {
			return errs.InvalidKey(name, name, "query", "populate")
		}
		if err := checkNestedPopulate(s, acc, a, p, name); err != nil {
			return err
		}
	}
	return nil
}

func checkNestedPopulate(s *models.Schema, acc Access, a *models.Attribute, p *query.Populate, path string) error {
	if p == nil {
		return nil
	}
	switch a.Type {
	case models.TypeRelation:
		target := s.Type(a.Target)
		if target == nil {
			return nil
		}
		if len(p.On) > 0 {
			return errs.Errorf(errs.KindValidation, "Using fragments is not permitted to populate %q", path)
		}
		if _, err := resolveFields(target, p.Fields); err != nil {
			return err
		}
		if _, err := resolveFilter(s, acc, scope{ct: target}, p.Filter); err != nil {
			return err
		}
		if _, err := resolveSort(s, acc, scope{ct: target}, p.Sort); err != nil {
			return err
		}
		return checkPopulate(s, acc, target, p.Populate)
	case models.TypeComponent:
		if len(p.On) > 0 {
			return errs.Errorf(errs.KindValidation, "Using fragments is not permitted to populate %q", path)
		}
		if err := checkComponentFields(s.Component(a.Component), p.Fields, path); err != nil {
			return err
		}
		return checkComponentPopulate(s, acc, s.Component(a.Component), p.Populate, path)
	case models.TypeDynamicZone:
		if len(p.Fields) > 0 || p.Filter != nil || len(p.Sort) > 0 {
			return errs.Errorf(errs.KindValidation, "Invalid nested populate for %s (%s): only on, populate and count are allowed", path, a.Name)
		}
		for uid, sub := range p.On {
			found := false
			for _, c := range a.Components {
				found = found || c == uid
			}
			if !found {
				return errs.InvalidKey(uid, path+".on."+uid, "query", "populate")
			}
			if sub != nil {
				if err := checkComponentFields(s.Component(uid), sub.Fields, path+".on."+uid); err != nil {
					return err
				}
				if err := checkComponentPopulate(s, acc, s.Component(uid), sub.Populate, path+".on."+uid); err != nil {
					return err
				}
			}
		}
	case models.TypeMedia:
		if _, _, err := mediaQuery(s, acc, p); err != nil {
			return err
		}
		return checkFileFields(p.Fields, path)
	}
	return nil
}

func checkComponentPopulate(s *models.Schema, acc Access, c *models.Component, pop map[string]*query.Populate, path string) error {
	for name, p := range pop {
		a := c.Attr(name)
		if a == nil || !a.IsPopulatable() || a.IsHidden() {
			return errs.InvalidKey(name, path+"."+name, "query", "populate")
		}
		if err := checkNestedPopulate(s, acc, a, p, path+"."+name); err != nil {
			return err
		}
	}
	return nil
}

// checkComponentFields allows only visible scalar attributes of a component.
func checkComponentFields(c *models.Component, fields []string, path string) error {
	for _, f := range fields {
		if f == "*" || f == "id" {
			continue
		}
		if a := c.Attr(f); a == nil || !a.IsScalar() || a.IsHidden() {
			return errs.InvalidKey(f, path+".fields."+f, "query", "populate")
		}
	}
	return nil
}

// expand turns `*` into every populatable attribute, one level deep.
func expand(attrs []*models.Attribute, pop map[string]*query.Populate, all bool) map[string]*query.Populate {
	if !all {
		return pop
	}
	out := map[string]*query.Populate{}
	for _, a := range attrs {
		if a.IsPopulatable() && !a.IsHidden() {
			out[a.Name] = &query.Populate{}
		}
	}
	for k, v := range pop {
		out[k] = v
	}
	return out
}

// populator fills Related of a page of documents: one query per relation
// per level for the whole page, never one per document.
type populator struct {
	e      *Engine
	ctx    context.Context
	acc    Access
	schema *models.Schema
	// inComponents holds the documents of relations inside components,
	// fetched for the whole page before the components are rendered.
	inComponents map[*models.Attribute]map[string]*Document
	// files holds the media files of the page, fetched in one call.
	files map[int64]json.RawMessage
	// mediaOrder holds, per media attribute populated with filters or a
	// sort, the files that matched and their order (filterMedia).
	mediaOrder map[*models.Attribute]mediaOrder
	// spare holds member lists of component items already rendered, for
	// the next items (a page has hundreds of them).
	spare []rawObject
}

// scratch splits a component item into a reused member list; give it
// back with release once nothing refers to it.
func (p *populator) scratch(raw []byte) rawObject {
	var buf rawObject
	if n := len(p.spare); n > 0 {
		buf, p.spare = p.spare[n-1], p.spare[:n-1]
	} else {
		buf = make(rawObject, 0, 16)
	}
	m := parseObjectInto(buf, raw)
	if m == nil {
		p.release(buf)
	}
	return m
}

func (p *populator) release(m rawObject) {
	if m != nil {
		p.spare = append(p.spare, m[:0])
	}
}

func (p *populator) run(ct *models.ContentType, rows []Row, docs []*Document, pop map[string]*query.Populate, v Version, locale string) error {
	extras := make([]rawObject, len(rows))
	for i := range rows {
		extras[i] = parseObject(rows[i].Extra)
	}
	if sub, ok := pop[localizationsField]; ok && ct.Localized {
		if sub == nil {
			sub = &query.Populate{}
		}
		if err := p.localizations(ct, rows, docs, sub, v); err != nil {
			return err
		}
	}
	pre, err := p.prefetch(ct, rows, extras, pop, v, locale)
	if err != nil {
		return err
	}
	for _, a := range ct.Attributes {
		sub, ok := pop[a.Name]
		if !ok {
			continue
		}
		if sub == nil {
			sub = &query.Populate{}
		}
		switch a.Type {
		case models.TypeComponent, models.TypeDynamicZone, models.TypeMedia:
			if err := p.componentRelations(a, extras, sub, v, locale); err != nil {
				return err
			}
			if a.Type == models.TypeMedia {
				var ids []int64
				for i := range extras {
					ids = append(ids, rawFileIDs(extras[i].get(a.Name))...)
				}
				if err := p.loadFiles(ids); err != nil {
					return err
				}
				if err := p.filterMedia(a, ids, sub); err != nil {
					return err
				}
			}
			for i := range rows {
				docs[i].Related = append(docs[i].Related, Related{Name: a.Name, Raw: p.inline(a, extras[i].get(a.Name), sub),
					Media: a.Type == models.TypeMedia})
			}
		case models.TypeRelation:
			if err := p.relation(ct, a, rows, docs, extras, sub, v, locale, pre); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *populator) relation(ct *models.ContentType, a *models.Attribute, rows []Row, docs []*Document,
	extras []rawObject, sub *query.Populate, v Version, locale string, pre map[*models.Attribute]prefetched) error {
	if a.IsMorph() {
		return p.morph(a, rows, docs, extras, v, locale)
	}
	if a.IsMorphInverse() {
		return p.morphInverse(ct, a, rows, docs, sub, v, locale)
	}
	got, planned := pre[a]
	if !planned {
		rp, err := p.relationPlan(a, rows, extras, sub, v, locale)
		if rp == nil || err != nil {
			return err
		}
		got.plan = rp
	}
	if !got.read {
		trows, err := p.e.list(p.ctx, got.plan.target, got.plan.lq)
		if err != nil {
			return err
		}
		got.rows = trows
	}
	return p.relationFinish(got.plan, rows, docs, sub, got.rows)
}

// relPlan is the read of one relation's targets for a page of rows.
type relPlan struct {
	a, other *models.Attribute
	target   *models.ContentType
	lq       *ListQuery
	ids      [][]string // the target documents of each source row, in stored order
	sorts    []query.Sort
	fields   []string
	nested   map[string]*query.Populate
	tv       Version
	tl       string
}

// relationPlan is the read a relation needs, nil when the reader may not
// see its targets.
func (p *populator) relationPlan(a *models.Attribute, rows []Row, extras []rawObject, sub *query.Populate,
	v Version, locale string) (*relPlan, error) {
	target := p.schema.Type(a.Target)
	if target == nil || !p.acc.Can(target.Action("find")) {
		return nil, nil // Strapi drops relations the reader may not see
	}
	tv, tl := p.scope(target, v, locale)
	// checkPopulate validated these with the same reader; an error here
	// must still never widen the read.
	f, err := resolveFilter(p.schema, p.acc, scope{ct: target}, sub.Filter)
	if err != nil {
		return nil, err
	}
	sorts, err := resolveSort(p.schema, p.acc, scope{ct: target}, sub.Sort)
	if err != nil {
		return nil, err
	}
	fields, _ := resolveFields(target, sub.Fields)
	nested := expand(target.Attributes, sub.Populate, sub.All)
	lq := &ListQuery{Version: tv, Locale: tl, Filter: f, Sort: sorts, Limit: -1, WithExtra: len(nested) > 0}

	// ids[i] lists the target documents of source row i, in stored order.
	ids := make([][]string, len(rows))
	var other *models.Attribute
	if a.IsOwner() {
		seen := map[string]bool{}
		all := []string{}
		for i := range rows {
			ids[i] = refIDs(extras[i].get(a.Name))
			for _, id := range ids[i] {
				if !seen[id] {
					seen[id] = true
					all = append(all, id)
				}
			}
		}
		lq.DocumentIDs = all
	} else {
		other = target.Attr(a.MappedBy)
		lq.RefAttr, lq.WithExtra = other, true
		for i := range rows {
			lq.RefIDs = append(lq.RefIDs, rows[i].DocumentID)
		}
	}
	return &relPlan{a: a, other: other, target: target, lq: lq, ids: ids, sorts: sorts, fields: fields, nested: nested,
		tv: tv, tl: tl}, nil
}

// relationFinish puts a relation's targets, read by rp, on the documents.
func (p *populator) relationFinish(rp *relPlan, rows []Row, docs []*Document, sub *query.Populate, trows []Row) error {
	a, other, target, ids, sorts, fields, nested, tv, tl := rp.a, rp.other, rp.target, rp.ids, rp.sorts, rp.fields, rp.nested, rp.tv, rp.tl
	tdocs := make([]*Document, len(trows))
	byID := make(map[string]*Document, len(trows))
	for i := range trows {
		tdocs[i] = shape(target, &trows[i], fields)
		byID[trows[i].DocumentID] = tdocs[i]
	}
	if len(nested) > 0 && len(trows) > 0 {
		if err := p.run(target, trows, tdocs, nested, tv, tl); err != nil {
			return err
		}
	}
	if other != nil { // inverse side: read the back references of each target row
		back := map[string][]string{}
		for i := range trows {
			for _, src := range refIDs(rawField(trows[i].Extra, other.Name)) {
				back[src] = append(back[src], trows[i].DocumentID)
			}
		}
		for i := range rows {
			ids[i] = back[rows[i].DocumentID]
		}
	}
	ordered := len(sorts) > 0 || other != nil
	pos := map[string]int{}
	if ordered {
		for i := range trows {
			pos[trows[i].DocumentID] = i
		}
	}
	for i := range rows {
		r := Related{Name: a.Name, IsList: a.IsToMany()}
		list := make([]*Document, 0, len(ids[i]))
		if ordered { // the query's order, not the stored one
			ps := make([]int, 0, len(ids[i]))
			for _, id := range ids[i] {
				if at, ok := pos[id]; ok {
					ps = append(ps, at)
				}
			}
			slices.Sort(ps)
			for k, at := range ps {
				if k == 0 || ps[k-1] != at {
					list = append(list, tdocs[at])
				}
			}
		} else {
			for _, id := range ids[i] {
				if d := byID[id]; d != nil {
					list = append(list, d)
				}
			}
		}
		if r.IsList && sub.Count {
			r.Raw = []byte(`{"count":` + strconv.Itoa(len(list)) + `}`)
		} else if r.IsList {
			r.Many = p.page(list, sub.Page)
			for _, d := range r.Many {
				d.refs++
			}
		} else if len(list) > 0 {
			r.One = list[len(list)-1]
			r.One.refs++
		}
		docs[i].Related = append(docs[i].Related, r)
	}
	return nil
}

// prefetch plans the relations of this level that a plain read serves
// (owning side, no sort, content types) and reads their targets in one
// round trip when there are two or more; the rest are planned and read one
// by one as they come.
func (p *populator) prefetch(ct *models.ContentType, rows []Row, extras []rawObject, pop map[string]*query.Populate,
	v Version, locale string) (map[*models.Attribute]prefetched, error) {
	out := map[*models.Attribute]prefetched{}
	var plans []*relPlan
	var items []BatchItem
	ids := 0
	for _, a := range ct.Attributes {
		sub, ok := pop[a.Name]
		if !ok || a.Type != models.TypeRelation || a.IsMorph() || a.IsMorphInverse() || !a.IsOwner() {
			continue
		}
		if sub == nil {
			sub = &query.Populate{}
		}
		if len(sub.Sort) > 0 || sub.Count {
			continue
		}
		if t := p.schema.Type(a.Target); t == nil || t.System {
			continue
		}
		rp, err := p.relationPlan(a, rows, extras, sub, v, locale)
		if err != nil {
			return nil, err
		}
		if rp == nil {
			continue
		}
		out[a] = prefetched{plan: rp}
		ids += len(rp.lq.DocumentIDs)
		if len(rp.lq.DocumentIDs) > 0 {
			plans = append(plans, rp)
			items = append(items, BatchItem{Type: rp.target, Query: rp.lq})
		}
	}
	// Each id is a bound value, and a statement takes at most 32,766
	// (SQLite): a level with more targets is read list by list.
	if len(items) < 2 || ids > maxBatchIDs {
		return out, nil
	}
	lists, err := p.e.listBatch(p.ctx, items)
	if err != nil {
		return nil, err
	}
	for i, rp := range plans {
		out[rp.a] = prefetched{plan: rp, rows: lists[i], read: true}
	}
	return out, nil
}

// maxBatchIDs bounds the document ids one batch binds.
const maxBatchIDs = 10_000

// prefetched is a relation's plan and, when read is set, the targets a
// batch read for it.
type prefetched struct {
	plan *relPlan
	rows []Row
	read bool
}

// page applies a populate's own pagination to one document's list.
func (p *populator) page(list []*Document, pg query.Pagination) []*Document {
	if !pg.OffsetMode && pg.Page == 0 && pg.PageSize == 0 {
		return list
	}
	start, limit, _, _ := p.e.resolvePage(pg)
	if start >= len(list) {
		return []*Document{}
	}
	list = list[start:]
	if limit >= 0 && limit < len(list) {
		list = list[:limit]
	}
	return list
}

// refIDs reads a stored relation value: a document id or a list of them.
func refIDs(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		if one, ok := rawString(raw); ok {
			return []string{one}
		}
	case '[':
		many := []string{}
		// Anything but a string is "", as json.Unmarshal into []string left it.
		eachElement(raw, func(e json.RawMessage) {
			s, _ := rawString(e)
			many = append(many, s)
		})
		return many
	}
	return nil
}

// inline renders a component, dynamic zone or media value held in Extra.
func (p *populator) inline(a *models.Attribute, raw json.RawMessage, sub *query.Populate) []byte {
	switch a.Type {
	case models.TypeComponent:
		c := p.schema.Component(a.Component)
		// The rendered value is about the stored one's size (members
		// reordered, names quoted again): one allocation, not a growing slice.
		b := make([]byte, 0, len(raw)+len(raw)/4+32)
		if a.Repeatable {
			b = append(b, '[')
			n := 0
			eachElement(raw, func(it json.RawMessage) {
				if n > 0 {
					b = append(b, ',')
				}
				n++
				b = p.component(b, c, it, sub, false)
			})
			return append(b, ']')
		}
		if len(raw) == 0 || string(raw) == "null" {
			return []byte("null")
		}
		return p.component(b, c, raw, sub, false)
	case models.TypeDynamicZone:
		b := make([]byte, 0, len(raw)+len(raw)/4+32)
		b = append(b, '[')
		n := 0
		eachElement(raw, func(it json.RawMessage) {
			m := p.scratch(it)
			defer p.release(m)
			uid, _ := rawString(m.get("__component"))
			c := p.schema.Component(uid)
			if c == nil {
				return // a component removed from the zone since
			}
			s := sub
			if on, ok := sub.On[uid]; ok && on != nil {
				s = on
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = p.componentOf(b, c, m, s, true)
		})
		return append(b, ']')
	}
	return p.mediaJSON(a, raw, sub)
}

// component renders one component value: id, (__component), its visible
// scalars in schema order, and the nested attributes sub asks for.
func (p *populator) component(b []byte, c *models.Component, raw json.RawMessage, sub *query.Populate, zone bool) []byte {
	m := p.scratch(raw)
	b = p.componentOf(b, c, m, sub, zone)
	p.release(m)
	return b
}

// componentOf is component with the item's members already split.
func (p *populator) componentOf(b []byte, c *models.Component, m rawObject, sub *query.Populate, zone bool) []byte {
	b = append(b, '{')
	if zone {
		b = append(b, `"__component":`...)
		b = appendQuoted(b, c.UID)
		b = append(b, ',')
	}
	b = append(b, `"id":`...)
	if id := m.get("id"); id != nil {
		b = append(b, id...)
	} else {
		b = append(b, "null"...)
	}
	nested := expand(c.Attributes, sub.Populate, sub.All)
	var only map[string]bool
	if sub.Fields != nil {
		only = map[string]bool{}
		for _, f := range sub.Fields {
			only[f] = true
		}
	}
	for _, a := range c.Attributes {
		var val []byte
		switch {
		case a.IsHidden():
			continue
		case a.IsScalar():
			if only != nil && !only[a.Name] && !only["*"] {
				continue
			}
			val = m.get(a.Name)
			if val == nil {
				val = []byte("null")
			}
		default:
			ns, ok := nested[a.Name]
			if !ok {
				continue
			}
			if ns == nil {
				ns = &query.Populate{}
			}
			if a.Type == models.TypeRelation {
				docs, fetched := p.inComponents[a]
				if !fetched {
					continue // the reader may not see the target
				}
				val = relationJSON(a, m.get(a.Name), docs)
			} else {
				val = p.inline(a, m.get(a.Name), ns)
			}
		}
		b = append(b, ',')
		b = appendQuoted(b, a.Name)
		b = append(b, ':')
		b = append(b, val...)
	}
	return append(b, '}')
}

// componentRelations fetches the relations inside the components of one
// attribute for a whole page: one query per relation attribute, whatever
// the number of documents and component items.
func (p *populator) componentRelations(a *models.Attribute, extras []rawObject, sub *query.Populate, v Version, locale string) error {
	want := map[*models.Attribute]*query.Populate{}
	ids := map[*models.Attribute][]string{}
	var fileIDs []int64
	var visit func(c *models.Component, raw json.RawMessage, sub *query.Populate)
	visit = func(c *models.Component, raw json.RawMessage, sub *query.Populate) {
		nested := expand(c.Attributes, sub.Populate, sub.All)
		if len(nested) == 0 {
			return // nothing below this item to fetch
		}
		m := p.scratch(raw)
		if m == nil {
			return
		}
		defer p.release(m)
		for _, ca := range c.Attributes {
			ns, ok := nested[ca.Name]
			if !ok {
				continue
			}
			if ns == nil {
				ns = &query.Populate{}
			}
			switch ca.Type {
			case models.TypeMedia:
				fileIDs = append(fileIDs, rawFileIDs(m.get(ca.Name))...)
			case models.TypeRelation:
				want[ca] = ns
				ids[ca] = append(ids[ca], refIDs(m.get(ca.Name))...)
			case models.TypeComponent:
				eachItem(m.get(ca.Name), func(it json.RawMessage) { visit(p.schema.Component(ca.Component), it, ns) })
			}
		}
	}
	for i := range extras {
		raw := extras[i].get(a.Name)
		switch a.Type {
		case models.TypeComponent:
			eachItem(raw, func(it json.RawMessage) { visit(p.schema.Component(a.Component), it, sub) })
		case models.TypeDynamicZone:
			eachItem(raw, func(it json.RawMessage) {
				uid, _ := rawString(rawField(it, "__component"))
				c := p.schema.Component(uid)
				if c == nil {
					return
				}
				s := sub
				if on, ok := sub.On[uid]; ok && on != nil {
					s = on
				}
				visit(c, it, s)
			})
		}
	}
	if err := p.loadFiles(fileIDs); err != nil {
		return err
	}
	for ca, ns := range want {
		target := p.schema.Type(ca.Target)
		if target == nil || !p.acc.Can(target.Action("find")) {
			continue
		}
		docs, err := p.fetch(target, ns, uniqueStrings(ids[ca]), v, locale)
		if err != nil {
			return err
		}
		if p.inComponents == nil {
			p.inComponents = map[*models.Attribute]map[string]*Document{}
		}
		p.inComponents[ca] = docs
	}
	return nil
}

// scope is the version and locale of a relation's targets: drafts of
// drafts, published of published (and of types without draft & publish),
// in the source's locale where the target is localized.
func (p *populator) scope(target *models.ContentType, v Version, locale string) (Version, string) {
	tv := VersionPublished
	if target.HasDraftAndPublish() && v == VersionDraft {
		tv = VersionDraft
	}
	tl := query.AllLocales
	if target.Localized {
		tl = locale
		if tl == "" || tl == query.AllLocales {
			tl = p.e.cfg.DefaultLocale
		}
	}
	return tv, tl
}

// fetch reads target documents by id, shaped and populated as sub asks.
func (p *populator) fetch(target *models.ContentType, sub *query.Populate, ids []string, v Version, locale string) (map[string]*Document, error) {
	tv, tl := p.scope(target, v, locale)
	f, err := resolveFilter(p.schema, p.acc, scope{ct: target}, sub.Filter)
	if err != nil {
		return nil, err
	}
	fields, _ := resolveFields(target, sub.Fields)
	nested := expand(target.Attributes, sub.Populate, sub.All)
	rows, err := p.e.list(p.ctx, target, &ListQuery{Version: tv, Locale: tl, Filter: f, Limit: -1, DocumentIDs: ids, WithExtra: len(nested) > 0})
	if err != nil {
		return nil, err
	}
	docs := make([]*Document, len(rows))
	out := make(map[string]*Document, len(rows))
	for i := range rows {
		docs[i] = shape(target, &rows[i], fields)
		out[rows[i].DocumentID] = docs[i]
	}
	if len(nested) > 0 && len(rows) > 0 {
		if err := p.run(target, rows, docs, nested, tv, tl); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// relationJSON renders a relation stored in a component.
func relationJSON(a *models.Attribute, raw json.RawMessage, docs map[string]*Document) []byte {
	ids := refIDs(raw)
	if !a.IsToMany() {
		for i := len(ids) - 1; i >= 0; i-- {
			if d := docs[ids[i]]; d != nil {
				return d.AppendJSON(nil, FormatV5)
			}
		}
		return []byte("null")
	}
	b := []byte{'['}
	n := 0
	for _, id := range ids {
		if d := docs[id]; d != nil {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = d.AppendJSON(b, FormatV5)
		}
	}
	return append(b, ']')
}

// eachItem calls fn for a component value: one object or a list of them.
func eachItem(raw json.RawMessage, fn func(json.RawMessage)) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if !eachElement(raw, fn) {
		fn(raw)
	}
}

func uniqueStrings(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
