package gqlschema

import (
	"context"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/query"
)

// resolveLocalizations answers `localizations`: the look-ahead populates
// them with the document (engine/locales.go, one query for the page); a
// document read without them (a custom resolver's) reads them now.
func (b *builder) resolveLocalizations(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		e, _ := p.Source.(*entity)
		if e == nil || e.doc == nil {
			return &collection{}, nil
		}
		r := e.related(localizationsField)
		if r == nil {
			q := &query.Query{Status: e.status, Locale: e.doc.Locale, Populate: map[string]*query.Populate{localizationsField: {}}}
			acc := access(p.Context, t.ct.Action("findOne"), t.ct.Action("find"))
			doc, err := b.srv.eng.FindOne(p.Context, acc, b.collection(t), e.doc.DocumentID, q)
			if err != nil {
				return nil, err
			}
			if r = (&entity{doc: doc}).related(localizationsField); r == nil {
				return &collection{}, nil
			}
		}
		start, end, err := b.srv.window(p.Args["pagination"], len(r.Many))
		if err != nil {
			return nil, err
		}
		return &collection{data: newEntities(t.ct, r.Many[start:end], e.status, "", nil)}, nil
	}
}

const localizationsField = "localizations"

// createAccess lets a writer with the create permission write a new
// locale of an existing document, which the engine does through update.
type createAccess struct {
	engine.Access
	update, create string
}

func (a createAccess) Can(action string) bool {
	if action == a.update {
		return a.Access.Can(a.create)
	}
	return a.Access.Can(action)
}

// resolveCreateLocalization writes data as the document's version in the
// locale argument (the default locale when none), which must not exist yet.
func (b *builder) resolveCreateLocalization(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		acc := access(p.Context)
		if !acc.Can(t.ct.Action("create")) {
			return nil, errs.Forbidden()
		}
		data, pub, err := b.inputData(p)
		if err != nil {
			return nil, err
		}
		opt := pub.options(writeOptions(p.Args))
		if opt.Locale == "" {
			opt.Locale = b.srv.eng.Config().DefaultLocale
		}
		id, _ := p.Args["id"].(string)
		if exists, err := b.hasLocale(p.Context, t, id, opt.Locale); err != nil {
			return nil, err
		} else if exists {
			return nil, errs.Errorf(errs.KindApplication, "This document already has the locale %s", opt.Locale)
		}
		wacc := createAccess{Access: acc, update: t.ct.Action("update"), create: t.ct.Action("create")}
		doc, err := b.srv.eng.Update(p.Context, wacc, b.collection(t), id, data, opt)
		if err != nil {
			return b.response(t, nil, err, opt.Status, opt.Locale, nil)
		}
		return b.reread(p, t, doc, opt)
	}
}

// hasLocale tells whether a document has a version in locale (drafts
// count: every document has one); a document in no locale is NotFound.
func (b *builder) hasLocale(ctx context.Context, t *ctTypes, documentID, locale string) (bool, error) {
	read := func(loc string) (bool, error) {
		_, err := b.srv.eng.FindOne(ctx, engine.AllowAll{}, b.collection(t), documentID,
			&query.Query{Status: query.Draft, Locale: loc, Fields: []string{"locale"}})
		if err != nil && errs.From(err).Kind == errs.KindNotFound {
			return false, nil
		}
		return err == nil, err
	}
	if ok, err := read(locale); ok || err != nil {
		return ok, err
	}
	// In any locale: a list, since reading one document takes one locale.
	res, err := b.srv.eng.Find(ctx, engine.AllowAll{}, b.collection(t), &query.Query{Status: query.Draft, Locale: query.AllLocales,
		Fields: []string{"locale"}, Filter: &query.Cond{Path: []string{"documentId"}, Op: query.OpEq, Value: documentID},
		Page: query.Pagination{PageSize: 1}})
	if err != nil {
		return false, err
	}
	if len(res.Docs) == 0 {
		return false, errs.NotFound()
	}
	return false, nil
}
