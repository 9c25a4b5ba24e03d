package engine

import (
	"bytes"
	"context"
	"strconv"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
)

// The admin's document actions that the content API does not offer:
// publish a draft as it is, unpublish, and discard a draft's changes.

// CollectionByUID finds a content-type by uid (api::article.article) in
// the current snapshot.
func (e *Engine) CollectionByUID(uid string) (Collection, bool) {
	s := e.Registry.Current().Schema
	ct := s.Type(uid)
	if ct != nil && ct.System {
		// Users, roles, files and admins are written by their own
		// services, never as documents.
		return Collection{}, false
	}
	return Collection{Schema: s, Type: ct}, ct != nil
}

func (e *Engine) actionTarget(acc Access, c Collection, action string, opt WriteOptions) (string, error) {
	if !acc.Can(c.Type.Action(action)) {
		return "", errs.Forbidden()
	}
	if !c.Type.HasDraftAndPublish() {
		return "", errs.Errorf(errs.KindApplication, "%s does not have draft & publish enabled", c.Type.UID)
	}
	return e.writeLocale(c.Type, opt.Locale)
}

// Publish makes the draft of a document in a locale its published
// version, after the checks a published version must pass (required
// attributes, also inside components and dynamic zones; unique values;
// repeatable components' minimum counts).
func (e *Engine) Publish(ctx context.Context, acc Access, c Collection, documentID string, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		locale, err := e.actionTarget(acc, c, "publish", opt)
		if err != nil {
			return nil, err
		}
		ct := c.Type
		var out *Row
		// merged is filled inside the transaction; write reads it to name the
		// attributes of a unique-index race.
		merged := map[string]any{}
		err = e.write(ctx, c, merged, func(tx Tx) error {
			draft, err := tx.Get(ct, documentID, locale, VersionDraft)
			if err != nil {
				return err
			}
			if draft == nil {
				return errs.NotFound()
			}
			decodeInto(draft.Data, merged)
			decodeInto(draft.Extra, merged)
			w := &writer{e: e, tx: tx, schema: c.Schema, ct: ct, locale: locale, documentID: documentID, publish: true, update: true}
			w.checkNested(ct.Attributes, merged, nil)
			dataJSON, extraJSON, err := w.prepare(draft, map[string]any{})
			if err != nil {
				return err
			}
			now := e.now()
			if !bytes.Equal(dataJSON, draft.Data) || !bytes.Equal(extraJSON, draft.Extra) { // a uid was filled in
				draft.Data, draft.Extra, draft.UpdatedAt = dataJSON, extraJSON, now
				if err := tx.Update(ct, draft); err != nil {
					return err
				}
			}
			if out, err = e.publishRow(tx, ct, draft, now); err != nil {
				return err
			}
			return tx.Emit(entryEvent(EventPublish, ct, out, now))
		})
		if err != nil {
			return nil, err
		}
		return shape(ct, out, nil), nil
	})
}

// Unpublish removes the published version of a document in a locale and
// returns its draft. A document that is not published stays as it is.
func (e *Engine) Unpublish(ctx context.Context, acc Access, c Collection, documentID string, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		locale, err := e.actionTarget(acc, c, "unpublish", opt)
		if err != nil {
			return nil, err
		}
		var out *Row
		err = e.tx(ctx, c, func(tx Tx) error {
			draft, err := tx.Get(c.Type, documentID, locale, VersionDraft)
			if err != nil {
				return err
			}
			if draft == nil {
				return errs.NotFound()
			}
			out = draft
			n, err := tx.Delete(c.Type, documentID, locale, VersionPublished)
			if err != nil || n == 0 {
				return err
			}
			return tx.Emit(entryEvent(EventUnpublish, c.Type, draft, e.now()))
		})
		if err != nil {
			return nil, err
		}
		return shape(c.Type, out, nil), nil
	})
}

// DiscardDraft replaces the draft of a document in a locale by a copy of
// its published version and returns the draft.
func (e *Engine) DiscardDraft(ctx context.Context, acc Access, c Collection, documentID string, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		locale, err := e.actionTarget(acc, c, "discardDraft", opt)
		if err != nil {
			return nil, err
		}
		ct := c.Type
		var out *Row
		err = e.tx(ctx, c, func(tx Tx) error {
			draft, err := tx.Get(ct, documentID, locale, VersionDraft)
			if err != nil {
				return err
			}
			pub, err := tx.Get(ct, documentID, locale, VersionPublished)
			if err != nil {
				return err
			}
			if pub == nil {
				if draft == nil {
					return errs.NotFound()
				}
				return errs.Errorf(errs.KindApplication, "This document is not published: there is no published version to return to")
			}
			now := e.now()
			if draft == nil {
				d := *pub
				d.ID, d.PublishedAt, d.UpdatedAt = 0, nil, now
				out = &d
				return tx.Insert(ct, out)
			}
			// The draft is the published version again, so it was last changed
			// when that was: a draft newer than its published version is
			// "modified" (the admin panel's status, as Strapi's).
			draft.Data, draft.Extra, draft.UpdatedAt = pub.Data, pub.Extra, pub.UpdatedAt
			out = draft
			return tx.Update(ct, draft)
		})
		if err != nil {
			return nil, err
		}
		return shape(ct, out, nil), nil
	})
}

// checkNested applies the publish checks inside components and dynamic
// zones of stored data (the top level is checked by prepare).
func (w *writer) checkNested(attrs []*models.Attribute, m map[string]any, prefix []string) {
	at := func(p []string, k string) []string { return append(append([]string(nil), p...), k) }
	for _, a := range attrs {
		v, ok := m[a.Name]
		if !ok || v == nil {
			continue
		}
		path := at(prefix, a.Name)
		switch a.Type {
		case models.TypeComponent:
			comp := w.schema.Component(a.Component)
			if comp == nil {
				continue
			}
			if !a.Repeatable {
				if item, ok := v.(map[string]any); ok {
					w.checkRequired(comp.Attributes, item, path)
					w.checkNested(comp.Attributes, item, path)
				}
				continue
			}
			list, _ := v.([]any)
			if a.Min != nil && float64(len(list)) < a.Min.Value {
				w.errs.Add(path, nil, "%s must contain at least %s items", a.Name, a.Min.Raw)
			}
			for i, it := range list {
				if item, ok := it.(map[string]any); ok {
					p := at(path, strconv.Itoa(i))
					w.checkRequired(comp.Attributes, item, p)
					w.checkNested(comp.Attributes, item, p)
				}
			}
		case models.TypeDynamicZone:
			list, _ := v.([]any)
			for i, it := range list {
				item, ok := it.(map[string]any)
				if !ok {
					continue
				}
				uid, _ := item["__component"].(string)
				if comp := w.schema.Component(uid); comp != nil {
					p := at(path, strconv.Itoa(i))
					w.checkRequired(comp.Attributes, item, p)
					w.checkNested(comp.Attributes, item, p)
				}
			}
		}
	}
}
