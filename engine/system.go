package engine

import (
	"context"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// System types (users-permissions' users and roles) are written by auth,
// which keeps their built-in attributes in its columns. What a project's
// extension adds to the user is the engine's: validated, normalised and
// populated as a content-type's attributes are, and kept in the user's
// data and extra columns.

// SystemType is the current schema's type of a system uid (users, roles).
func (e *Engine) SystemType(uid string) *models.ContentType {
	return e.Registry.Current().Schema.Type(uid)
}

// PrepareExtension validates body, the extension attributes of a system
// type's document, over its current values (data and extra; nil when
// creating), and returns the columns to store. A write to the inverse side
// of a relation (a user's `products`, mappedBy the product's `seller`) is
// applied to the other documents in the same step.
func (e *Engine) PrepareExtension(ctx context.Context, ct *models.ContentType, documentID string, data, extra []byte,
	body map[string]any, create bool) ([]byte, []byte, error) {
	ext := ct.Extension()
	if ext == nil || (len(ext.Attributes) == 0 && len(body) == 0) {
		return data, extra, nil
	}
	var outData, outExtra []byte
	// Behind the write fence like a document write: the relations it
	// writes on other types follow the stored schema. The extension is
	// taken from the snapshot the write runs on (its relations' targets
	// are that snapshot's types).
	c := Collection{Schema: e.Registry.Current().Schema, Type: ct}
	if t := c.Schema.Type(ct.UID); t != nil {
		c.Type = t
	}
	_, err := e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		ext := c.Type.Extension()
		if ext == nil { // gone from the stored schema: nothing of it is written
			outData, outExtra = data, extra
			if len(body) > 0 {
				return nil, errs.Errorf(errs.KindValidation, "%s has no extension attributes", c.Type.UID)
			}
			return nil, nil
		}
		return nil, e.tx(ctx, c, func(tx Tx) error {
			w := &writer{e: e, ctx: ctx, tx: tx, schema: c.Schema, ct: ext, documentID: documentID,
				publish: true, update: !create}
			var cur *Row
			if !create {
				cur = &Row{Data: data, Extra: extra}
			}
			var err error
			if outData, outExtra, err = w.prepare(cur, body); err != nil {
				return err
			}
			return w.applyInverse()
		})
	})
	return outData, outExtra, err
}

// PopulateExtension populates the extension attributes pop names (a user's
// relations, media, components) on rows of a system type, for the reader:
// the same checks and reads as a document's populate. It returns, per row,
// the populated members as JSON (`"avatar":{...},"products":[...]`).
func (e *Engine) PopulateExtension(ctx context.Context, acc Access, ct *models.ContentType, rows []Row,
	pop map[string]*query.Populate) ([][]byte, error) {
	s := e.Registry.Current().Schema
	if err := checkPopulate(s, acc, ct, pop); err != nil {
		return nil, err
	}
	docs := make([]*Document, len(rows))
	for i := range rows {
		docs[i] = &Document{ID: rows[i].ID, DocumentID: rows[i].DocumentID}
	}
	out := make([][]byte, len(rows))
	if len(rows) == 0 || len(pop) == 0 {
		return out, nil
	}
	p := &populator{e: e, ctx: e.WithBudget(ctx), acc: acc, schema: s}
	if err := p.run(ct, rows, docs, pop, VersionPublished, ""); err != nil {
		return nil, err
	}
	for i, d := range docs {
		var b []byte
		for j := range d.Related {
			r := &d.Related[j]
			if j > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, r.Name)
			b = append(b, ':')
			b = r.appendJSON(b, FormatV5)
		}
		out[i] = b
	}
	return out, nil
}

// ResolveExtensionQuery resolves the conditions and sorts of a users query
// that start with an extension attribute (the others are auth's columns),
// against the reader's permissions; a path through a relation needs find
// on its target, as for documents.
func (e *Engine) ResolveExtensionQuery(acc Access, ct *models.ContentType, q *query.Query) error {
	s := e.Registry.Current().Schema
	isExt := func(path []string) bool {
		if len(path) == 0 {
			return false
		}
		a := ct.Attr(path[0])
		return a != nil && a.Column == ""
	}
	var walk func(f query.Filter) (query.Filter, error)
	walk = func(f query.Filter) (query.Filter, error) {
		switch x := f.(type) {
		case query.And:
			out := make(query.And, len(x))
			for i, g := range x {
				r, err := walk(g)
				if err != nil {
					return nil, err
				}
				out[i] = r
			}
			return out, nil
		case query.Or:
			out := make(query.Or, len(x))
			for i, g := range x {
				r, err := walk(g)
				if err != nil {
					return nil, err
				}
				out[i] = r
			}
			return out, nil
		case query.Not:
			r, err := walk(x.Filter)
			return query.Not{Filter: r}, err
		case *query.Cond:
			if !isExt(x.Path) {
				return x, nil
			}
			return resolveCond(s, acc, scope{ct: ct}, x)
		}
		return f, nil
	}
	if q.Filter != nil {
		f, err := walk(q.Filter)
		if err != nil {
			return err
		}
		q.Filter = f
	}
	for i, so := range q.Sort {
		if !isExt(so.Path) {
			continue
		}
		r, err := resolveSort(s, acc, scope{ct: ct}, []query.Sort{so})
		if err != nil {
			return err
		}
		q.Sort[i] = r[0]
	}
	return nil
}

// FindSystem lists a system type's documents (GET /api/upload/files) as
// Strapi's plugin APIs answer: a plain list of every match, unless the
// query pages it. Filters, sort, fields and pagination are the content
// API's; the read budget (maxRows, maxResponseBytes) bounds an unpaged list.
func (e *Engine) FindSystem(ctx context.Context, acc Access, uid string, q *query.Query) ([]*Document, error) {
	s := e.Registry.Current().Schema
	ct := s.Type(uid)
	if ct == nil || !ct.System {
		return nil, errs.NotFound()
	}
	if !acc.Can(ct.Action("find")) {
		return nil, errs.Forbidden()
	}
	ctx = e.WithBudget(ctx)
	c := Collection{Schema: s, Type: ct}
	lq, fields, err := e.listQuery(acc, c, q)
	if err != nil {
		return nil, err
	}
	if q.Page != (query.Pagination{}) {
		start, limit, _, err := e.resolvePage(q.Page)
		if err != nil {
			return nil, err
		}
		lq.Start, lq.Limit = start, limit
	}
	rows, err := e.list(ctx, ct, lq)
	if err != nil {
		return nil, err
	}
	docs, err := e.shapeAll(ctx, acc, c, rows, fields, q.Populate, lq)
	if err != nil {
		return nil, err
	}
	return docs, checkSize(ctx, docs)
}
