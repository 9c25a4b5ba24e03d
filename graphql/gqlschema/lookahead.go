package gqlschema

import (
	"context"
	"encoding/json"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// The look-ahead walks the selection of a top-level field before it runs
// and turns the relations, components and zones it asks for into one
// query.Populate tree: the engine then loads each relation with one query
// per level for the whole page (engine/populate.go), never one per row.

// collect flattens selection sets through fragments into their fields.
func (rq *request) collect(sets []*ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	var walk func(s *ast.SelectionSet, depth int)
	walk = func(s *ast.SelectionSet, depth int) {
		if s == nil || depth > 64 {
			return
		}
		for _, sel := range s.Selections {
			switch x := sel.(type) {
			case *ast.Field:
				out = append(out, x)
			case *ast.InlineFragment:
				walk(x.SelectionSet, depth+1)
			case *ast.FragmentSpread:
				if fd := rq.fragments[x.Name.Value]; fd != nil {
					walk(fd.SelectionSet, depth+1)
				}
			}
		}
	}
	for _, s := range sets {
		walk(s, 0)
	}
	return out
}

// sub returns the selection sets of the fields called name in sets.
func (rq *request) sub(sets []*ast.SelectionSet, name string) []*ast.SelectionSet {
	var out []*ast.SelectionSet
	for _, f := range rq.collect(sets) {
		if f.Name != nil && f.Name.Value == name && f.SelectionSet != nil {
			out = append(out, f.SelectionSet)
		}
	}
	return out
}

// argValue evaluates a field argument from the document and variables.
func (rq *request) argValue(f *ast.Field, name string) any {
	for _, a := range f.Arguments {
		if a.Name != nil && a.Name.Value == name {
			return executor.LiteralValue(a.Value, rq.vars)
		}
	}
	return nil
}

// populate builds the populate tree of a selection on the attributes type
// of ct. Relations selected twice with different filters or sort cannot
// share one populate: the later ones are deferred to the batch loader.
func (b *builder) populate(rq *request, ct *models.ContentType, sets []*ast.SelectionSet) map[string]*query.Populate {
	if len(sets) == 0 {
		return nil
	}
	out := map[string]*query.Populate{}
	keys := map[string]string{}
	for _, f := range rq.collect(sets) {
		if f.Name == nil {
			continue
		}
		if f.Name.Value == "localizations" && ct.Localized {
			out["localizations"] = &query.Populate{}
			continue
		}
		a := ct.Attr(f.Name.Value)
		if a == nil || a.IsHidden() {
			continue
		}
		switch a.Type {
		case models.TypeRelation:
			if a.IsMorph() {
				out[a.Name] = &query.Populate{} // the members' own relations load on demand
				continue
			}
			t := b.types[a.Target]
			if t == nil {
				continue
			}
			p, key, err := b.relationPopulate(rq, t.ct, f)
			if err != nil { // the field's own resolver reports it
				rq.deferred[f] = true
				continue
			}
			if prev, ok := keys[a.Name]; ok {
				if prev != key {
					rq.deferred[f] = true
					continue
				}
				out[a.Name].Populate = mergePopulate(out[a.Name].Populate, p.Populate)
				continue
			}
			keys[a.Name] = key
			out[a.Name] = p
		case models.TypeComponent, models.TypeDynamicZone, models.TypeMedia:
			out[a.Name] = b.inlinePopulate(a)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// relationPopulate is the populate of one relation field: its filters and
// sort, and what its own selection populates.
func (b *builder) relationPopulate(rq *request, target *models.ContentType, f *ast.Field) (*query.Populate, string, error) {
	filters, sorts := rq.argValue(f, "filters"), rq.argValue(f, "sort")
	p := &query.Populate{}
	var err error
	if p.Filter, err = b.filter(target.UID, filters); err != nil {
		return nil, "", err
	}
	if p.Sort, err = parseSort(sorts); err != nil {
		return nil, "", err
	}
	key, _ := json.Marshal([]any{filters, sorts})
	sets := rq.sub(rq.sub([]*ast.SelectionSet{f.SelectionSet}, "data"), "attributes")
	p.Populate = b.populate(rq, target, sets)
	return p, string(key), nil
}

// inlinePopulate populates a component, zone or media attribute with every
// nested component and media: they live inline in the row, so this costs
// no query.
func (b *builder) inlinePopulate(a *models.Attribute) *query.Populate {
	switch a.Type {
	case models.TypeComponent:
		return &query.Populate{Populate: b.componentPopulate(b.ms.Component(a.Component), 0)}
	case models.TypeDynamicZone:
		p := &query.Populate{On: map[string]*query.Populate{}}
		for _, uid := range a.Components {
			p.On[uid] = &query.Populate{Populate: b.componentPopulate(b.ms.Component(uid), 0)}
		}
		return p
	}
	return &query.Populate{}
}

func (b *builder) componentPopulate(c *models.Component, depth int) map[string]*query.Populate {
	if c == nil || depth > 16 {
		return nil
	}
	out := map[string]*query.Populate{}
	for _, a := range c.Attributes {
		if a.IsHidden() {
			continue
		}
		switch a.Type {
		case models.TypeComponent:
			out[a.Name] = &query.Populate{Populate: b.componentPopulate(b.ms.Component(a.Component), depth+1)}
		case models.TypeMedia:
			out[a.Name] = &query.Populate{}
		case models.TypeRelation:
			// One query per relation attribute for the page, whether or not
			// the selection names it: components are read whole.
			if b.types[a.Target] != nil && !a.IsMorph() {
				out[a.Name] = &query.Populate{}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func mergePopulate(a, b map[string]*query.Populate) map[string]*query.Populate {
	if a == nil {
		return b
	}
	for k, v := range b {
		if cur, ok := a[k]; ok && cur != nil && v != nil {
			cur.Populate = mergePopulate(cur.Populate, v.Populate)
			continue
		}
		a[k] = v
	}
	return a
}

// The batch loader answers relation (and inline) fields whose parent was
// read without them: documents returned by custom resolvers, or a relation
// selected twice with different arguments. Every parent at one place of
// the query registers its document; the first thunk graphql-go runs loads
// them all with one engine read (plus one query per populated relation).

type loaderKey struct {
	field  *ast.Field
	uid    string
	status query.Status
	locale string
}

type batch struct {
	ct     *models.ContentType
	attr   *models.Attribute
	ids    []string
	seen   map[string]bool
	done   bool
	err    error
	byID   map[string]*entity
	status query.Status
	locale string
}

func (rq *request) load(p gql.ResolveParams, b *builder, e *entity, a *models.Attribute, then func(*entity) (any, error)) (any, error) {
	key := loaderKey{field: p.Info.FieldASTs[0], uid: e.ct.UID, status: e.status, locale: e.locale}
	bt := rq.loaders[key]
	if bt == nil {
		bt = &batch{ct: e.ct, attr: a, seen: map[string]bool{}, status: e.status, locale: e.locale}
		rq.loaders[key] = bt
	}
	if !bt.seen[e.doc.DocumentID] {
		bt.seen[e.doc.DocumentID] = true
		bt.ids = append(bt.ids, e.doc.DocumentID)
	}
	id := e.doc.DocumentID
	fields := p.Info.FieldASTs
	ctx := p.Context
	return func() (any, error) {
		if !bt.done {
			bt.done = true
			bt.err = b.runBatch(rq, ctx, bt, fields)
		}
		if bt.err != nil {
			return nil, bt.err
		}
		return then(bt.byID[id])
	}, nil
}

func (b *builder) runBatch(rq *request, ctx context.Context, bt *batch, fields []*ast.Field) error {
	var p *query.Populate
	if bt.attr.IsMorph() {
		p = &query.Populate{}
	} else if bt.attr.Type == models.TypeRelation {
		t := b.types[bt.attr.Target]
		if t == nil {
			return nil
		}
		for _, f := range fields {
			sub, _, err := b.relationPopulate(rq, t.ct, f)
			if err != nil {
				return err
			}
			if p == nil {
				p = sub
			} else {
				p.Populate = mergePopulate(p.Populate, sub.Populate)
			}
		}
	} else {
		p = b.inlinePopulate(bt.attr)
	}
	pop := map[string]*query.Populate{bt.attr.Name: p}
	chunk := b.srv.eng.Config().MaxLimit
	if chunk <= 0 {
		chunk = 1000
	}
	bt.byID = map[string]*entity{}
	acc := access(ctx, bt.ct.Action("find"))
	for start := 0; start < len(bt.ids); start += chunk {
		ids := bt.ids[start:min(start+chunk, len(bt.ids))]
		vals := make([]any, len(ids))
		for i, id := range ids {
			vals[i] = id
		}
		no := false
		q := &query.Query{Status: bt.status, Locale: bt.locale, Populate: pop,
			Filter: &query.Cond{Path: []string{"documentId"}, Op: query.OpIn, Value: vals},
			Page:   query.Pagination{OffsetMode: true, Limit: len(ids), WithCount: &no}}
		res, err := b.srv.eng.Find(ctx, acc, engine.Collection{Schema: b.ms, Type: bt.ct}, q)
		if err != nil {
			return err
		}
		for _, d := range res.Docs {
			bt.byID[d.DocumentID] = &entity{ct: bt.ct, doc: d, status: bt.status, locale: bt.locale, pop: pop}
		}
	}
	return nil
}
