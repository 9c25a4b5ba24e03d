package engine

import (
	"context"
	"fmt"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Collection is a content-type bound to the schema snapshot of one request.
type Collection struct {
	Schema *models.Schema
	Type   *models.ContentType
}

// Route finds the type served at /api/<name> in the current snapshot.
func (e *Engine) Route(name string) (Collection, bool) {
	s := e.Registry.Current().Schema
	ct := s.Route(name)
	return Collection{Schema: s, Type: ct}, ct != nil
}

// Result is a page of documents with its pagination meta.
type Result struct {
	Docs []*Document
	Meta PageMeta
}

func (e *Engine) version(ct *models.ContentType, st query.Status) Version {
	if !ct.HasDraftAndPublish() {
		// Every row is published: saying so lets the partial indexes serve.
		return VersionPublished
	}
	if st == query.Draft {
		return VersionDraft
	}
	return VersionPublished
}

func (e *Engine) locale(ct *models.ContentType, l string) string {
	if !ct.Localized {
		return ""
	}
	if l == "" {
		return e.cfg.DefaultLocale
	}
	return l
}

// readLocale is the locale condition of a read: none for types that are not
// localized (all their rows have the empty locale), so lists and counts
// can use the partial indexes alone.
func (e *Engine) readLocale(ct *models.ContentType, l string) string {
	if !ct.Localized {
		return query.AllLocales
	}
	return e.locale(ct, l)
}

// Find lists documents (GET /api/:plural).
func (e *Engine) Find(ctx context.Context, acc Access, c Collection, q *query.Query) (*Result, error) {
	ct := c.Type
	if !acc.Can(ct.Action("find")) {
		return nil, errs.Forbidden()
	}
	ctx = e.WithBudget(ctx)
	lq, fields, err := e.listQuery(acc, c, q)
	if err != nil {
		return nil, err
	}
	start, limit, meta, err := e.resolvePage(q.Page)
	if err != nil {
		return nil, err
	}
	lq.Start, lq.Limit = start, limit
	var rows []Row
	counted := false
	if meta.WithCount {
		rows, meta.Total, counted, err = e.listCounted(ctx, ct, lq)
	} else {
		rows, err = e.list(ctx, ct, lq)
	}
	if err != nil {
		return nil, err
	}
	if meta.WithCount {
		if !counted {
			if meta.Total, err = e.store.Count(ctx, ct, lq); err != nil {
				return nil, err
			}
		}
		if limit > 0 {
			meta.PageCount = int((meta.Total + int64(limit) - 1) / int64(limit))
		}
	}
	docs, err := e.shapeAll(ctx, acc, c, rows, fields, q.Populate, lq)
	if err != nil {
		return nil, err
	}
	if err := checkSize(ctx, docs); err != nil {
		return nil, err
	}
	return &Result{Docs: docs, Meta: meta}, nil
}

// FindOne reads one document (GET /api/:plural/:documentId).
func (e *Engine) FindOne(ctx context.Context, acc Access, c Collection, documentID string, q *query.Query) (*Document, error) {
	if !acc.Can(c.Type.Action("findOne")) {
		return nil, errs.Forbidden()
	}
	return e.first(ctx, acc, c, []string{documentID}, q)
}

// FindSingle reads the document of a single type (GET /api/:singular).
func (e *Engine) FindSingle(ctx context.Context, acc Access, c Collection, q *query.Query) (*Document, error) {
	if !acc.Can(c.Type.Action("find")) {
		return nil, errs.Forbidden()
	}
	return e.first(ctx, acc, c, nil, q)
}

func (e *Engine) first(ctx context.Context, acc Access, c Collection, ids []string, q *query.Query) (*Document, error) {
	ctx = e.WithBudget(ctx)
	lq, fields, err := e.listQuery(acc, c, q)
	if err != nil {
		return nil, err
	}
	if q.Locale == query.AllLocales {
		return nil, errs.NotFound() // `*` selects nothing when reading one document
	}
	lq.DocumentIDs, lq.Limit = ids, 1
	rows, err := e.list(ctx, c.Type, lq)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errs.NotFound()
	}
	docs, err := e.shapeAll(ctx, acc, c, rows, fields, q.Populate, lq)
	if err != nil {
		return nil, err
	}
	if err := checkSize(ctx, docs); err != nil {
		return nil, err
	}
	return docs[0], nil
}

// listQuery validates a query against the type and resolves it: the one
// place where every type a query touches is checked against the reader's
// permissions.
func (e *Engine) listQuery(acc Access, c Collection, q *query.Query) (*ListQuery, []string, error) {
	ct := c.Type
	if err := e.checkLocale(ct, q.Locale); err != nil {
		return nil, nil, err
	}
	f, err := resolveFilter(c.Schema, acc, scope{ct: ct}, q.Filter)
	if err != nil {
		return nil, nil, err
	}
	sorts, err := resolveSort(c.Schema, acc, scope{ct: ct}, q.Sort)
	if err != nil {
		return nil, nil, err
	}
	fields, err := resolveFields(ct, q.Fields)
	if err != nil {
		return nil, nil, err
	}
	if _, all := q.Populate["*"]; all { // populate=*: every populatable attribute, one level
		rest := map[string]*query.Populate{}
		for k, v := range q.Populate {
			if k != "*" {
				rest[k] = v
			}
		}
		q.Populate = expand(ct.Attributes, rest, true)
		if ct.Localized {
			q.Populate[localizationsField] = &query.Populate{}
		}
	}
	if d := populateDepth(q.Populate); d > e.cfg.Limits.MaxPopulateDepth {
		return nil, nil, &errs.Error{Kind: errs.KindValidation,
			Message: fmt.Sprintf("populate is %d levels deep; at most %d are allowed", d, e.cfg.Limits.MaxPopulateDepth),
			Details: map[string]any{"limit": "maxPopulateDepth", "max": e.cfg.Limits.MaxPopulateDepth}}
	}
	if err := checkPopulate(c.Schema, acc, ct, q.Populate); err != nil {
		return nil, nil, err
	}
	lq := &ListQuery{Version: e.version(ct, q.Status), Locale: e.readLocale(ct, q.Locale), Filter: f, Sort: sorts,
		Limit: -1, WithExtra: len(q.Populate) > 0}
	return lq, fields, nil
}

func (e *Engine) shapeAll(ctx context.Context, acc Access, c Collection, rows []Row, fields []string, pop map[string]*query.Populate, lq *ListQuery) ([]*Document, error) {
	docs := make([]*Document, len(rows))
	for i := range rows {
		docs[i] = shape(c.Type, &rows[i], fields)
	}
	if len(pop) > 0 && len(rows) > 0 {
		p := &populator{e: e, ctx: ctx, acc: acc, schema: c.Schema}
		if err := p.run(c.Type, rows, docs, pop, lq.Version, lq.Locale); err != nil {
			return nil, err
		}
	}
	return docs, nil
}
