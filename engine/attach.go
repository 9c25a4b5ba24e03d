package engine

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// MediaTarget is the document media attribute an upload's `ref`, `refId`
// and `field` name: the uploaded files are set on it (a single media) or
// added to it (multiple), as Strapi's upload does. REST's /api/upload and
// GraphQL's upload mutations share it.
type MediaTarget struct {
	col   Collection
	docID string
	attr  *models.Attribute
}

// MediaTarget reads ref/refId/field, checked before any file is kept: the
// type exists, the field is one of its media attributes, the uploader may
// update the type, and the document exists. All empty: nil, no target.
func (e *Engine) MediaTarget(ctx context.Context, acc Access, ref, refID, field string) (*MediaTarget, error) {
	if ref == "" && refID == "" && field == "" {
		return nil, nil
	}
	if ref == "" || refID == "" || field == "" {
		return nil, errs.Errorf(errs.KindValidation, "ref, refId and field go together")
	}
	schema := e.Registry.Current().Schema
	ct := schema.Type(ref)
	if ct == nil || ct.System {
		return nil, errs.InvalidKey("ref", "ref", "body", "ref")
	}
	a := ct.Attr(field)
	if a == nil || a.Type != models.TypeMedia {
		return nil, errs.InvalidKey("field", "field", "body", "field")
	}
	if !acc.Can(ct.Action("update")) {
		return nil, errs.Forbidden()
	}
	col := Collection{Schema: schema, Type: ct}
	docID := refID
	if n, err := strconv.ParseInt(refID, 10, 64); err == nil { // a row id, as Strapi 4 clients send
		docID = ""
		// The id may be the published version's or the draft's.
		for _, st := range []query.Status{query.Published, query.Draft} {
			res, err := e.Find(ctx, AllowAll{}, col, &query.Query{Status: st,
				Filter: &query.Cond{Path: []string{"id"}, Op: query.OpEq, Value: strconv.FormatInt(n, 10)}})
			if err != nil {
				return nil, err
			}
			if len(res.Docs) > 0 {
				docID = res.Docs[0].DocumentID
				break
			}
		}
		if docID == "" {
			return nil, errs.NotFound()
		}
	}
	if _, err := e.FindOne(ctx, AllowAll{}, col, docID, &query.Query{Status: query.Draft}); err != nil {
		return nil, err
	}
	return &MediaTarget{col: col, docID: docID, attr: a}, nil
}

// AttachMedia sets (single media: the last) or adds (multiple) the files
// on the target's draft; attaching does not publish.
func (e *Engine) AttachMedia(ctx context.Context, acc Access, t *MediaTarget, fileIDs []int64) error {
	if t == nil || len(fileIDs) == 0 {
		return nil
	}
	var value any
	if t.attr.Multiple {
		cur, err := e.FindOne(ctx, AllowAll{}, t.col, t.docID, &query.Query{Status: query.Draft,
			Populate: map[string]*query.Populate{t.attr.Name: {}}})
		if err != nil {
			return err
		}
		ids := []any{}
		for _, r := range cur.Related {
			if r.Name != t.attr.Name {
				continue
			}
			var existing []struct {
				ID int64 `json:"id"`
			}
			_ = json.Unmarshal(r.Raw, &existing)
			for _, f := range existing {
				ids = append(ids, f.ID)
			}
		}
		for _, id := range fileIDs {
			ids = append(ids, id)
		}
		value = ids
	} else {
		value = fileIDs[len(fileIDs)-1]
	}
	opt := WriteOptions{}
	if t.col.Type.HasDraftAndPublish() {
		opt.Status = query.Draft
	}
	_, err := e.Update(ctx, acc, t.col, t.docID, map[string]any{t.attr.Name: value}, opt)
	return err
}
