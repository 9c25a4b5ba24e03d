package gqlschema

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// request is the state of one GraphQL request, reachable from every
// resolver through the context.
type request struct {
	srv       *Builder
	b         *builder
	principal *auth.Principal
	http      *http.Request
	// vars are the request's variables as sent (numbers as json.Number,
	// nulls kept): graphql-go's coerced values drop explicit nulls.
	vars      map[string]any
	nulls     map[int][]string // object literal start -> fields written `null`
	fragments map[string]*ast.FragmentDefinition
	// deferred marks relation selections the look-ahead could not merge
	// into the parent's populate (same relation, other arguments).
	deferred map[*ast.Field]bool
	loaders  map[loaderKey]*batch
	// items batches the filtered repeatable component lists of one field.
	items map[itemsKey]*itemBatch
}

type ctxKey int

const (
	requestKey ctxKey = iota
	grantKey
)

func reqFrom(ctx context.Context) *request {
	rq, _ := ctx.Value(requestKey).(*request)
	return rq
}

// Principal returns the caller of a GraphQL request, for custom resolvers
// and policies; nil outside a request.
func Principal(ctx context.Context) *auth.Principal {
	if rq := reqFrom(ctx); rq != nil {
		return rq.principal
	}
	return nil
}

// HTTPRequest returns the HTTP request of a GraphQL request, or nil.
func HTTPRequest(ctx context.Context) *http.Request {
	if rq := reqFrom(ctx); rq != nil {
		return rq.http
	}
	return nil
}

// grant lets a resolver configured with auth false or an auth scope run
// its engine call: the engine checks the action the resolver stands for.
type grant struct {
	base  engine.Access
	allow []string
}

func (g grant) Can(action string) bool {
	for _, a := range g.allow {
		if a == action {
			return true
		}
	}
	return g.base != nil && g.base.Can(action)
}

func withGrant(ctx context.Context, actions ...string) context.Context {
	prev, _ := ctx.Value(grantKey).([]string)
	return context.WithValue(ctx, grantKey, append(append([]string(nil), prev...), actions...))
}

// access is what the engine checks for this resolver call.
func access(ctx context.Context, extra ...string) engine.Access {
	var base engine.Access = engine.AllowAll{}
	if rq := reqFrom(ctx); rq != nil {
		base = rq.principal
	}
	g, _ := ctx.Value(grantKey).([]string)
	if len(g) == 0 && len(extra) == 0 {
		return base
	}
	return grant{base: base, allow: append(append([]string(nil), g...), extra...)}
}

// entity is a document bound to how it was read.
type entity struct {
	ct     *models.ContentType
	doc    *engine.Document
	status query.Status
	locale string
	// pop is the populate the document was read with: attributes in it are
	// in doc.Related (or were dropped for lack of permission).
	pop     map[string]*query.Populate
	scalars map[string]json.RawMessage
}

type rawSource interface {
	raw(name string) json.RawMessage
}

func (e *entity) related(name string) *engine.Related {
	for i := range e.doc.Related {
		if e.doc.Related[i].Name == name {
			return &e.doc.Related[i]
		}
	}
	return nil
}

func (e *entity) raw(name string) json.RawMessage {
	if r := e.related(name); r != nil && r.Raw != nil {
		return r.Raw
	}
	if e.scalars == nil {
		if v, ok := findMember(e.doc.Fields, name); ok {
			return v
		}
		e.scalars = scanMembers(e.doc.Fields)
	}
	return e.scalars[name]
}

type entityResponse struct{ data *entity }

type collection struct {
	data []*entity
	meta *pageInfo
}

type pageInfo struct{ page, pageSize, total, pageCount int }

func newEntities(ct *models.ContentType, docs []*engine.Document, st query.Status, locale string, pop map[string]*query.Populate) []*entity {
	out := make([]*entity, len(docs))
	for i, d := range docs {
		out[i] = &entity{ct: ct, doc: d, status: st, locale: locale, pop: pop}
	}
	return out
}

func defaultResolve(p gql.ResolveParams) (any, error) { return gql.DefaultResolveFn(p) }

func resolveSource(p gql.ResolveParams) (any, error) { return p.Source, nil }

func resolveEntityID(p gql.ResolveParams) (any, error) {
	if e, ok := p.Source.(*entity); ok {
		return e.doc.DocumentID, nil
	}
	return nil, nil
}

func resolveResponseData(p gql.ResolveParams) (any, error) {
	if r, ok := p.Source.(*entityResponse); ok && r.data != nil {
		return r.data, nil
	}
	return nil, nil
}

func resolveCollectionData(p gql.ResolveParams) (any, error) {
	if c, ok := p.Source.(*collection); ok && c.data != nil {
		return c.data, nil
	}
	return []*entity{}, nil
}

func resolveCollectionMeta(p gql.ResolveParams) (any, error) {
	if c, ok := p.Source.(*collection); ok && c.meta != nil {
		return c.meta, nil
	}
	return &pageInfo{}, nil
}

func resolveScalar(name string, dec func(json.RawMessage) any) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		src, ok := p.Source.(rawSource)
		if !ok {
			return nil, nil
		}
		return dec(src.raw(name)), nil
	}
}

func resolveSystem(name string) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		e, ok := p.Source.(*entity)
		if !ok {
			return nil, nil
		}
		switch name {
		case "createdAt":
			return e.doc.CreatedAt, nil
		case "updatedAt":
			return e.doc.UpdatedAt, nil
		case "publishedAt":
			if e.doc.PublishedAt == nil {
				return nil, nil
			}
			return *e.doc.PublishedAt, nil
		}
		return e.doc.Locale, nil
	}
}

// readOptions are the publication state and locale of a read.
func readOptions(args map[string]any) (query.Status, string) {
	st := query.Published
	if args["publicationState"] == "PREVIEW" {
		st = query.Draft
	}
	loc, _ := args["locale"].(string)
	return st, loc
}

// options applies a write's publishedAt over its status argument.
func (pub publication) options(opt engine.WriteOptions) engine.WriteOptions {
	switch pub {
	case pubPublish:
		opt.Status = query.Published
	case pubUnpublish:
		opt.Status = query.Draft
	}
	return opt
}

// unpublishAccess lets a writer that may update a type unpublish its
// documents through publishedAt: null, as the v4 plugin's update does.
type unpublishAccess struct {
	engine.Access
	update string
}

func (a unpublishAccess) Can(action string) bool {
	if strings.HasSuffix(action, ".unpublish") && a.Access.Can(a.update) {
		return true
	}
	return a.Access.Can(action)
}

func writeOptions(args map[string]any) engine.WriteOptions {
	opt := engine.WriteOptions{Status: query.Published}
	if args["status"] == "DRAFT" {
		opt.Status = query.Draft
	}
	opt.Locale, _ = args["locale"].(string)
	return opt
}

func (b *builder) collection(t *ctTypes) engine.Collection {
	return engine.Collection{Schema: b.ms, Type: t.ct}
}

func (b *builder) resolveFind(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		rq := reqFrom(p.Context)
		st, loc := readOptions(p.Args)
		q := &query.Query{Status: st, Locale: loc}
		var err error
		if q.Filter, err = b.filter(t.ct.UID, p.Args["filters"]); err != nil {
			return nil, err
		}
		if q.Sort, err = parseSort(p.Args["sort"]); err != nil {
			return nil, err
		}
		if q.Page, err = b.srv.pagination(p.Args["pagination"]); err != nil {
			return nil, err
		}
		count := len(rq.sub(executor.FieldSets(p.Info.FieldASTs), "meta")) > 0
		q.Page.WithCount = &count
		q.Populate = b.populate(rq, t.ct, rq.sub(rq.sub(executor.FieldSets(p.Info.FieldASTs), "data"), "attributes"))
		res, err := b.srv.eng.Find(p.Context, access(p.Context), b.collection(t), q)
		if err != nil {
			return nil, err
		}
		return &collection{data: newEntities(t.ct, res.Docs, st, loc, q.Populate), meta: pageOf(&res.Meta)}, nil
	}
}

func pageOf(m *engine.PageMeta) *pageInfo {
	pi := &pageInfo{page: m.Page, pageSize: m.PageSize, total: int(m.Total), pageCount: m.PageCount}
	if m.OffsetMode {
		pi.pageSize = m.Limit
		if m.Limit > 0 {
			pi.page = m.Start/m.Limit + 1
		}
	}
	if pi.pageSize > 0 {
		pi.pageCount = (pi.total + pi.pageSize - 1) / pi.pageSize
	}
	return pi
}

// responsePopulate is the populate asked for by a selection on <Type>EntityResponse.
func (b *builder) responsePopulate(rq *request, ct *models.ContentType, info gql.ResolveInfo) map[string]*query.Populate {
	return b.populate(rq, ct, rq.sub(rq.sub(executor.FieldSets(info.FieldASTs), "data"), "attributes"))
}

func (b *builder) resolveFindOne(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		rq := reqFrom(p.Context)
		st, loc := readOptions(p.Args)
		id, _ := p.Args["id"].(string)
		if !access(p.Context).Can(t.ct.Action("findOne")) {
			return nil, errs.Forbidden()
		}
		if id == "" {
			return &entityResponse{}, nil
		}
		q := &query.Query{Status: st, Locale: loc, Populate: b.responsePopulate(rq, t.ct, p.Info)}
		doc, err := b.srv.eng.FindOne(p.Context, access(p.Context), b.collection(t), id, q)
		return b.response(t, doc, err, st, loc, q.Populate)
	}
}

func (b *builder) resolveSingle(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		rq := reqFrom(p.Context)
		st, loc := readOptions(p.Args)
		q := &query.Query{Status: st, Locale: loc, Populate: b.responsePopulate(rq, t.ct, p.Info)}
		doc, err := b.srv.eng.FindSingle(p.Context, access(p.Context), b.collection(t), q)
		return b.response(t, doc, err, st, loc, q.Populate)
	}
}

// response wraps a read: an unknown document is `data: null`, as Strapi does.
func (b *builder) response(t *ctTypes, doc *engine.Document, err error, st query.Status, loc string, pop map[string]*query.Populate) (any, error) {
	var ee *errs.Error
	if errors.As(err, &ee) && ee.Kind == errs.KindNotFound {
		return &entityResponse{}, nil
	}
	if err != nil {
		return nil, err
	}
	return &entityResponse{data: &entity{ct: t.ct, doc: doc, status: st, locale: loc, pop: pop}}, nil
}

// reread reads back a written document with what the selection populates.
func (b *builder) reread(p gql.ResolveParams, t *ctTypes, doc *engine.Document, opt engine.WriteOptions) (any, error) {
	rq := reqFrom(p.Context)
	pop := b.responsePopulate(rq, t.ct, p.Info)
	if len(pop) == 0 {
		return &entityResponse{data: &entity{ct: t.ct, doc: doc, status: opt.Status, locale: opt.Locale}}, nil
	}
	q := &query.Query{Status: opt.Status, Locale: opt.Locale, Populate: pop}
	acc := access(p.Context, t.ct.Action("findOne"), t.ct.Action("find"))
	var err error
	if t.ct.IsSingle() {
		doc, err = b.srv.eng.FindSingle(p.Context, acc, b.collection(t), q)
	} else {
		doc, err = b.srv.eng.FindOne(p.Context, acc, b.collection(t), doc.DocumentID, q)
	}
	return b.response(t, doc, err, opt.Status, opt.Locale, pop)
}

func (b *builder) resolveCreate(t *ctTypes) gql.FieldResolveFn {
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
		doc, err := b.srv.eng.Create(p.Context, acc, b.collection(t), data, opt)
		if err != nil {
			return nil, err
		}
		return b.reread(p, t, doc, opt)
	}
}

func (b *builder) resolveUpdate(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		acc := access(p.Context)
		if !acc.Can(t.ct.Action("update")) {
			return nil, errs.Forbidden()
		}
		data, pub, err := b.inputData(p)
		if err != nil {
			return nil, err
		}
		opt := pub.options(writeOptions(p.Args))
		var doc *engine.Document
		if t.ct.IsSingle() {
			doc, err = b.srv.eng.PutSingle(p.Context, acc, b.collection(t), data, opt)
		} else {
			id, _ := p.Args["id"].(string)
			doc, err = b.srv.eng.Update(p.Context, acc, b.collection(t), id, data, opt)
		}
		if err == nil && pub == pubUnpublish && t.ct.HasDraftAndPublish() {
			// publishedAt: null unpublishes, as the v4 plugin does.
			doc, err = b.srv.eng.Unpublish(p.Context, unpublishAccess{acc, t.ct.Action("update")}, b.collection(t), doc.DocumentID, opt)
		}
		if err != nil {
			return b.response(t, nil, err, opt.Status, opt.Locale, nil)
		}
		return b.reread(p, t, doc, opt)
	}
}

func (b *builder) resolveDelete(t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		rq := reqFrom(p.Context)
		acc := access(p.Context)
		if !acc.Can(t.ct.Action("delete")) {
			return nil, errs.Forbidden()
		}
		opt := writeOptions(p.Args)
		id, _ := p.Args["id"].(string)
		// The answer is the document as it was: read it first.
		pop := b.responsePopulate(rq, t.ct, p.Info)
		racc := access(p.Context, t.ct.Action("findOne"), t.ct.Action("find"))
		var doc *engine.Document
		var err error
		st := query.Published
		for _, s := range []query.Status{query.Published, query.Draft} {
			q := &query.Query{Status: s, Locale: opt.Locale, Populate: pop}
			if t.ct.IsSingle() {
				doc, err = b.srv.eng.FindSingle(p.Context, racc, b.collection(t), q)
			} else {
				doc, err = b.srv.eng.FindOne(p.Context, racc, b.collection(t), id, q)
			}
			st = s
			if err == nil || !t.ct.HasDraftAndPublish() || errs.From(err).Kind != errs.KindNotFound {
				break
			}
		}
		if err != nil {
			return b.response(t, nil, err, st, opt.Locale, nil)
		}
		if t.ct.IsSingle() {
			err = b.srv.eng.DeleteSingle(p.Context, acc, b.collection(t), opt)
		} else {
			err = b.srv.eng.Delete(p.Context, acc, b.collection(t), id, opt)
		}
		if err != nil {
			return b.response(t, nil, err, st, opt.Locale, nil)
		}
		return &entityResponse{data: &entity{ct: t.ct, doc: doc, status: st, locale: opt.Locale, pop: pop}}, nil
	}
}

// resolveRelation answers a relation field from what the parent's read
// populated, or through a batch loader when the look-ahead could not.
func (b *builder) resolveRelation(a *models.Attribute) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		e, ok := p.Source.(*entity)
		if !ok {
			return nil, nil
		}
		// As the v4 plugin: a relation the credential may not read is a
		// FORBIDDEN error at its path, not a silent null.
		if t := b.ms.Type(a.Target); t != nil && !access(p.Context).Can(t.Action("find")) {
			return nil, errs.Forbidden()
		}
		rq := reqFrom(p.Context)
		target := b.types[a.Target]
		_, populated := e.pop[a.Name]
		if !populated || rq.deferred[p.Info.FieldASTs[0]] {
			return rq.load(p, b, e, a, func(d *entity) (any, error) { return b.relationValue(p, a, target, d) })
		}
		return b.relationValue(p, a, target, e)
	}
}

func (b *builder) relationValue(p gql.ResolveParams, a *models.Attribute, target *ctTypes, e *entity) (any, error) {
	var sub map[string]*query.Populate
	if e != nil {
		if pp := e.pop[a.Name]; pp != nil {
			sub = pp.Populate
		}
	}
	var r *engine.Related
	if e != nil {
		r = e.related(a.Name)
	}
	if !a.IsToMany() {
		if r == nil || r.One == nil {
			return &entityResponse{}, nil
		}
		return &entityResponse{data: &entity{ct: target.ct, doc: r.One, status: e.status, locale: e.locale, pop: sub}}, nil
	}
	if r == nil {
		return &collection{}, nil
	}
	start, end, err := b.srv.window(p.Args["pagination"], len(r.Many))
	if err != nil {
		return nil, err
	}
	return &collection{data: newEntities(target.ct, r.Many[start:end], e.status, e.locale, sub)}, nil
}

// compValue is one component value (or dynamic-zone item) as stored.
type compValue struct {
	c *models.Component
	m map[string]json.RawMessage
}

func (c *compValue) raw(name string) json.RawMessage { return c.m[name] }

func (b *builder) decodeComponent(c *models.Component, raw json.RawMessage) *compValue {
	if isNull(raw) || c == nil {
		return nil
	}
	cv := &compValue{c: c}
	if json.Unmarshal(raw, &cv.m) != nil {
		return nil
	}
	return cv
}

// inline returns the stored value of a component, zone or media attribute,
// loading it when the parent's read did not populate it.
func (b *builder) inline(p gql.ResolveParams, a *models.Attribute, then func(json.RawMessage) (any, error)) (any, error) {
	switch src := p.Source.(type) {
	case *entity:
		if _, ok := src.pop[a.Name]; !ok {
			rq := reqFrom(p.Context)
			return rq.load(p, b, src, a, func(d *entity) (any, error) {
				if d == nil {
					return then(nil)
				}
				return then(d.raw(a.Name))
			})
		}
		return then(src.raw(a.Name))
	case *compValue:
		return then(src.raw(a.Name))
	}
	return nil, nil
}

func (b *builder) resolveComponent(a *models.Attribute) gql.FieldResolveFn {
	c := b.ms.Component(a.Component)
	return func(p gql.ResolveParams) (any, error) {
		return b.inline(p, a, func(raw json.RawMessage) (any, error) {
			if !a.Repeatable {
				if cv := b.decodeComponent(c, raw); cv != nil {
					return cv, nil
				}
				return nil, nil
			}
			var items []json.RawMessage
			_ = json.Unmarshal(raw, &items)
			return b.componentList(p, c, items)
		})
	}
}

func (b *builder) resolveZone(a *models.Attribute) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		return b.inline(p, a, func(raw json.RawMessage) (any, error) {
			var items []json.RawMessage
			_ = json.Unmarshal(raw, &items)
			out := make([]any, 0, len(items))
			for _, it := range items {
				var head struct {
					Component string `json:"__component"`
				}
				_ = json.Unmarshal(it, &head)
				c := b.ms.Component(head.Component)
				if c == nil || b.comps[c.UID] == nil {
					out = append(out, map[string]any{"code": "dynamiczone.unknown", "message": "unknown component " + head.Component})
					continue
				}
				if cv := b.decodeComponent(c, it); cv != nil {
					out = append(out, cv)
				}
			}
			return out, nil
		})
	}
}

func resolveMedia(a *models.Attribute) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		var raw json.RawMessage
		if src, ok := p.Source.(rawSource); ok {
			raw = src.raw(a.Name)
		}
		v := decodeFiles(raw, a.Multiple)
		if fs, ok := v.([]*fileValue); ok {
			rq := reqFrom(p.Context)
			start, end, err := rq.srv.window(p.Args["pagination"], len(fs))
			if err != nil {
				return nil, err
			}
			return fs[start:end], nil
		}
		if f, _ := v.(*fileValue); f == nil {
			return nil, nil
		}
		return v, nil
	}
}

// AttributeValue reads an attribute of the parent value in a custom
// resolver (a document's attributes, a component): the stored JSON value
// decoded, numbers as json.Number; nil when absent.
func AttributeValue(source any, name string) any {
	src, ok := source.(rawSource)
	if !ok {
		return nil
	}
	return decodeAny(src.raw(name))
}

// DocumentID is the documentId of a document value in a custom resolver
// (an <Type>Entity or <Type> parent), or "".
func DocumentID(source any) string {
	if e, ok := source.(*entity); ok {
		return e.doc.DocumentID
	}
	return ""
}

// FindDocuments lets a custom resolver answer with a shadow-CRUD
// <Type>EntityResponseCollection: it reads through the engine with the
// caller's permissions; relations the query selects are loaded in batches.
func FindDocuments(ctx context.Context, uid string, q *query.Query) (any, error) {
	rq := reqFrom(ctx)
	if rq == nil || rq.b.types[uid] == nil {
		return nil, errs.Errorf(errs.KindInternal, "graphql: FindDocuments outside a request, or unknown type %s", uid)
	}
	t := rq.b.types[uid]
	if q == nil {
		q = &query.Query{}
	}
	res, err := rq.srv.eng.Find(ctx, access(ctx), rq.b.collection(t), q)
	if err != nil {
		return nil, err
	}
	return &collection{data: newEntities(t.ct, res.Docs, q.Status, q.Locale, q.Populate), meta: pageOf(&res.Meta)}, nil
}

// FindDocument lets a custom resolver answer with a <Type>EntityResponse.
func FindDocument(ctx context.Context, uid, documentID string, q *query.Query) (any, error) {
	rq := reqFrom(ctx)
	if rq == nil || rq.b.types[uid] == nil {
		return nil, errs.Errorf(errs.KindInternal, "graphql: FindDocument outside a request, or unknown type %s", uid)
	}
	t := rq.b.types[uid]
	if q == nil {
		q = &query.Query{}
	}
	doc, err := rq.srv.eng.FindOne(ctx, access(ctx), rq.b.collection(t), documentID, q)
	return rq.b.response(t, doc, err, q.Status, q.Locale, q.Populate)
}

func decodeAny(raw json.RawMessage) any {
	if isNull(raw) {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var v any
	_ = d.Decode(&v)
	return v
}
