package gqlschema

import (
	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// genericMorph is the v4 plugin's GenericMorph: the union of every
// content-type's attributes type and every component, the type of a
// polymorphic relation (morphToOne, morphToMany). Nil when the schema
// has no member.
func (b *builder) genericMorph() *gql.Union {
	if b.morph != nil {
		return b.morph
	}
	var members []*gql.Object
	for _, ct := range b.ms.Types {
		if t := b.types[ct.UID]; t != nil {
			members = append(members, t.attrs)
		}
	}
	for _, c := range b.ms.Components {
		if t := b.comps[c.UID]; t != nil {
			members = append(members, t.obj)
		}
	}
	if len(members) == 0 {
		return nil
	}
	b.morph = gql.NewUnion(gql.UnionConfig{Name: "GenericMorph", Types: members,
		ResolveType: func(p gql.ResolveTypeParams) *gql.Object {
			switch v := p.Value.(type) {
			case *entity:
				if t := b.types[v.ct.UID]; t != nil {
					return t.attrs
				}
			case *compValue:
				if t := b.comps[v.c.UID]; t != nil {
					return t.obj
				}
			}
			return nil
		}})
	return b.morph
}

// resolveMorph answers a polymorphic relation: its documents, each as its
// own type's attributes (the engine reads one query per target type for
// the page, and leaves out the types the reader may not find, as REST does).
func (b *builder) resolveMorph(a *models.Attribute) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		e, ok := p.Source.(*entity)
		if !ok {
			return nil, nil
		}
		rq := reqFrom(p.Context)
		if _, populated := e.pop[a.Name]; !populated || rq.deferred[p.Info.FieldASTs[0]] {
			return rq.load(p, b, e, a, func(d *entity) (any, error) { return b.morphValue(a, d), nil })
		}
		return b.morphValue(a, e), nil
	}
}

func (b *builder) morphValue(a *models.Attribute, e *entity) any {
	if e == nil {
		return nil
	}
	r := e.related(a.Name)
	member := func(d *engine.Document) *entity {
		ct := b.ms.Type(d.Type)
		if ct == nil || b.types[ct.UID] == nil {
			return nil
		}
		return &entity{ct: ct, doc: d, status: e.status, locale: e.locale}
	}
	if a.Relation == models.MorphToMany {
		out := []*entity{}
		if r != nil {
			for _, d := range r.Many {
				if x := member(d); x != nil {
					out = append(out, x)
				}
			}
		}
		return out
	}
	if r == nil || r.One == nil {
		return nil
	}
	if x := member(r.One); x != nil {
		return x
	}
	return nil
}
