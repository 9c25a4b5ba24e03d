package gqlschema

import (
	"strconv"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
)

// ListLocalesAction is the permission of the i18n locale queries, as REST's
// GET /api/i18n/locales.
const ListLocalesAction = "plugin::i18n.locales.listLocales"

// i18nLocale is one configured locale as the v4 plugin's I18NLocale shows it.
type i18nLocale struct {
	id        int
	code      string
	isDefault bool
}

// i18n adds the plugin's i18NLocales and i18NLocale(id) queries over the
// configured locales.
func (b *builder) i18n(eng *engine.Engine) {
	str := func(get func(*i18nLocale) any) *gql.Field {
		return &gql.Field{Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return get(p.Source.(*i18nLocale)), nil }}
	}
	locale := gql.NewObject(gql.ObjectConfig{Name: "I18NLocale", Fields: gql.Fields{
		"name":      str(func(l *i18nLocale) any { return engine.LocaleName(l.code) }),
		"code":      str(func(l *i18nLocale) any { return l.code }),
		"isDefault": &gql.Field{Type: gql.Boolean, Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*i18nLocale).isDefault, nil }},
	}})
	entity := gql.NewObject(gql.ObjectConfig{Name: "I18NLocaleEntity", Fields: gql.Fields{
		"id":         &gql.Field{Type: gql.ID, Resolve: func(p gql.ResolveParams) (any, error) { return strconv.Itoa(p.Source.(*i18nLocale).id), nil }},
		"attributes": &gql.Field{Type: locale, Resolve: func(p gql.ResolveParams) (any, error) { return p.Source, nil }},
	}})
	type found struct{ l *i18nLocale }
	one := gql.NewObject(gql.ObjectConfig{Name: "I18NLocaleEntityResponse", Fields: gql.Fields{
		"data": &gql.Field{Type: entity, Resolve: func(p gql.ResolveParams) (any, error) {
			if l := p.Source.(*found).l; l != nil {
				return l, nil
			}
			return nil, nil
		}},
	}})
	type page struct{ locales []*i18nLocale }
	many := gql.NewObject(gql.ObjectConfig{Name: "I18NLocaleEntityResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(entity))), Resolve: func(p gql.ResolveParams) (any, error) {
			return p.Source.(*page).locales, nil
		}},
		"meta": &gql.Field{Type: gql.NewNonNull(b.sh.meta), Resolve: func(p gql.ResolveParams) (any, error) {
			n := len(p.Source.(*page).locales)
			return &pageInfo{page: 1, pageSize: n, total: n, pageCount: 1}, nil
		}},
	}})
	all := func() []*i18nLocale {
		codes := eng.Locales()
		out := make([]*i18nLocale, len(codes))
		for i, c := range codes {
			out[i] = &i18nLocale{id: i + 1, code: c, isDefault: i == 0}
		}
		return out
	}
	b.query["i18NLocales"] = &gql.Field{Type: many, Resolve: func(p gql.ResolveParams) (any, error) {
		if !access(p.Context).Can(ListLocalesAction) {
			return nil, errs.Forbidden()
		}
		return &page{locales: all()}, nil
	}}
	b.query["i18NLocale"] = &gql.Field{Type: one, Args: gql.FieldConfigArgument{"id": {Type: gql.ID}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if !access(p.Context).Can(ListLocalesAction) {
				return nil, errs.Forbidden()
			}
			id, _ := p.Args["id"].(string)
			for _, l := range all() {
				if strconv.Itoa(l.id) == id {
					return &found{l}, nil
				}
			}
			return &found{}, nil // {data: null}, as for an unknown id elsewhere
		}}
}
