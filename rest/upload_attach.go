package rest

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
	"github.com/stratum-cms/stratum/upload"
)

// attachTarget is the document media attribute an upload's `ref`, `refId`
// and `field` name: the uploaded files are set on it (a single media) or
// added to it (multiple), as Strapi's upload does.
type attachTarget struct {
	col   engine.Collection
	docID string
	attr  *models.Attribute
}

// attachment reads ref/refId/field, checked before any file is kept: the
// type exists, the field is one of its media attributes, the uploader may
// update the type, and the document exists.
func (s *Server) attachment(c echo.Context, p *auth.Principal, form map[string][]string) (*attachTarget, error) {
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	ref, refID, field := get("ref"), get("refId"), get("field")
	if ref == "" && refID == "" && field == "" {
		return nil, nil
	}
	if ref == "" || refID == "" || field == "" {
		return nil, errs.Errorf(errs.KindValidation, "ref, refId and field go together")
	}
	schema := s.engine.Registry.Current().Schema
	ct := schema.Type(ref)
	if ct == nil {
		return nil, errs.InvalidKey("ref", "ref", "body", "ref")
	}
	a := ct.Attr(field)
	if a == nil || a.Type != models.TypeMedia {
		return nil, errs.InvalidKey("field", "field", "body", "field")
	}
	if !p.Can(ct.Action("update")) {
		return nil, errs.Forbidden()
	}
	col := engine.Collection{Schema: schema, Type: ct}
	docID := refID
	if n, err := strconv.ParseInt(refID, 10, 64); err == nil { // a row id, as Strapi 4 clients send
		docID = ""
		// The id may be the published version's or the draft's.
		for _, st := range []query.Status{query.Published, query.Draft} {
			res, err := s.engine.Find(c.Request().Context(), engine.AllowAll{}, col, &query.Query{Status: st,
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
	if _, err := s.engine.FindOne(c.Request().Context(), engine.AllowAll{}, col, docID, &query.Query{Status: query.Draft}); err != nil {
		return nil, err
	}
	return &attachTarget{col: col, docID: docID, attr: a}, nil
}

// attach sets or adds the files on the target's draft.
func (s *Server) attach(ctx context.Context, p *auth.Principal, t *attachTarget, files []*upload.File) error {
	var value any
	if t.attr.Multiple {
		cur, err := s.engine.FindOne(ctx, engine.AllowAll{}, t.col, t.docID, &query.Query{Status: query.Draft,
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
		for _, f := range files {
			ids = append(ids, f.ID)
		}
		value = ids
	} else {
		value = files[len(files)-1].ID
	}
	opt := engine.WriteOptions{}
	if t.col.Type.HasDraftAndPublish() {
		opt.Status = query.Draft // attaching does not publish
	}
	_, err := s.engine.Update(ctx, p, t.col, t.docID, map[string]any{t.attr.Name: value}, opt)
	return err
}
