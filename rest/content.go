package rest

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/query"
)

// collection resolves :name to a content-type of the current snapshot.
// On the admin API's content manager the type is named by its uid (:uid).
func (s *Server) collection(c echo.Context) (engine.Collection, error) {
	if uid := uidParam(c); uid != "" {
		col, ok := s.engine.CollectionByUID(uid)
		if !ok {
			return col, errs.NotFound()
		}
		return col, nil
	}
	col, ok := s.engine.Route(c.Param("name"))
	if !ok {
		return col, errs.NotFound()
	}
	return col, nil
}

func (s *Server) query(c echo.Context) (*query.Query, error) {
	raw := c.Request().URL.RawQuery
	tree, err := parseQuery(raw)
	if err != nil {
		return nil, err
	}
	q, err := parseContentQuery(tree)
	if err != nil {
		return nil, err
	}
	if _, isObject := tree["sort"].(map[string]any); isObject {
		sortObjectOrder(raw, q.Sort)
	}
	return q, nil
}

// sortObjectOrder restores the order of `sort[title]=asc&sort[views]=desc`,
// which the parsed tree's maps lose: keys sort by first appearance.
func sortObjectOrder(raw string, sorts []query.Sort) {
	if len(sorts) < 2 {
		return
	}
	pos := map[string]int{}
	for i, part := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(part, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if rest, ok := strings.CutPrefix(k, "sort["); ok {
			name, _, _ := strings.Cut(rest, "]")
			if _, seen := pos[name]; !seen {
				pos[name] = i
			}
		}
	}
	sort.SliceStable(sorts, func(i, j int) bool { return pos[sorts[i].Path[0]] < pos[sorts[j].Path[0]] })
}

func format(c echo.Context) engine.Format {
	if c.Request().Header.Get("Strapi-Response-Format") == "v4" {
		return engine.FormatV4
	}
	return engine.FormatV5
}

func writeOptions(q *query.Query) engine.WriteOptions {
	return engine.WriteOptions{Status: q.Status, Locale: q.Locale}
}

// target resolves :name to a type of the kind the route serves (a single
// type or a collection type) and parses the query string.
func (s *Server) target(c echo.Context, single bool, wrongKind func(echo.Context) error) (engine.Collection, *query.Query, error) {
	col, err := s.collection(c)
	if err != nil {
		return col, nil, err
	}
	if col.Type.IsSingle() != single {
		return col, nil, wrongKind(c)
	}
	q, err := s.query(c)
	return col, q, err
}

// body reads a write's data once the caller is known to hold the action:
// a body nobody may send is not parsed.
func (s *Server) body(c echo.Context, col engine.Collection, action string) (map[string]any, error) {
	if !principal(c).Can(col.Type.Action(action)) {
		return nil, errs.Forbidden()
	}
	return s.readData(c)
}

func notFound(echo.Context) error { return errs.NotFound() }

// notAllowed answers 405 with the methods the path does take.
func notAllowed(allow string) func(echo.Context) error {
	return func(c echo.Context) error {
		c.Set("allow", allow)
		return &errs.Error{Kind: errs.KindMethodNotAllowed, Message: "Method Not Allowed"}
	}
}

// GET /api/:name: a collection's list, or a single type's document.
func (s *Server) list(c echo.Context) error {
	col, err := s.collection(c)
	if err != nil {
		return err
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if col.Type.IsSingle() {
		doc, err := s.engine.FindSingle(ctx, principal(c), col, q)
		if err != nil {
			return err
		}
		return writeDoc(c, http.StatusOK, doc)
	}
	res, err := s.engine.Find(ctx, principal(c), col, q)
	if err != nil {
		return err
	}
	return writeList(c, res)
}

// GET /api/:plural/:documentId
func (s *Server) findOne(c echo.Context) error {
	col, q, err := s.target(c, false, notFound)
	if err != nil {
		return err
	}
	doc, err := s.engine.FindOne(c.Request().Context(), principal(c), col, c.Param("documentId"), q)
	if err != nil {
		return err
	}
	return writeDoc(c, http.StatusOK, doc)
}

// POST /api/:plural
func (s *Server) create(c echo.Context) error {
	col, q, err := s.target(c, false, notAllowed("GET, PUT, DELETE"))
	if err != nil {
		return err
	}
	data, err := s.body(c, col, "create")
	if err != nil {
		return err
	}
	doc, err := s.engine.Create(c.Request().Context(), principal(c), col, data, writeOptions(q))
	if err != nil {
		return err
	}
	if doc, err = s.shapeWritten(c, col, q, doc); err != nil {
		return err
	}
	return writeDoc(c, http.StatusCreated, doc)
}

// PUT /api/:plural/:documentId
func (s *Server) update(c echo.Context) error {
	col, q, err := s.target(c, false, notFound)
	if err != nil {
		return err
	}
	data, err := s.body(c, col, "update")
	if err != nil {
		return err
	}
	doc, err := s.engine.Update(c.Request().Context(), principal(c), col, c.Param("documentId"), data, writeOptions(q))
	if err != nil {
		return err
	}
	if doc, err = s.shapeWritten(c, col, q, doc); err != nil {
		return err
	}
	return writeDoc(c, http.StatusOK, doc)
}

// DELETE /api/:plural/:documentId
func (s *Server) delete(c echo.Context) error {
	col, q, err := s.target(c, false, notFound)
	if err != nil {
		return err
	}
	if err := s.engine.Delete(c.Request().Context(), principal(c), col, c.Param("documentId"), writeOptions(q)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// PUT /api/:singular: create or update the single type's document.
func (s *Server) putSingle(c echo.Context) error {
	col, q, err := s.target(c, true, notAllowed("GET, POST"))
	if err != nil {
		return err
	}
	data, err := s.body(c, col, "update")
	if err != nil {
		return err
	}
	doc, err := s.engine.PutSingle(c.Request().Context(), principal(c), col, data, writeOptions(q))
	if err != nil {
		return err
	}
	if doc, err = s.shapeWritten(c, col, q, doc); err != nil {
		return err
	}
	return writeDoc(c, http.StatusOK, doc)
}

// DELETE /api/:singular
func (s *Server) deleteSingle(c echo.Context) error {
	col, q, err := s.target(c, true, notAllowed("GET, POST"))
	if err != nil {
		return err
	}
	if err := s.engine.DeleteSingle(c.Request().Context(), principal(c), col, writeOptions(q)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// shapeWritten applies the request's fields and populate to a written
// document, as Strapi's create and update answers do: the version just
// written is read again with them. The writer needs no findOne permission
// for its own document, but populated relations still need theirs.
func (s *Server) shapeWritten(c echo.Context, col engine.Collection, q *query.Query, doc *engine.Document) (*engine.Document, error) {
	if q.Fields == nil && q.Populate == nil {
		return doc, nil
	}
	rq := *q
	rq.Status, rq.Locale = query.Published, doc.Locale
	if doc.PublishedAt == nil && col.Type.HasDraftAndPublish() {
		rq.Status = query.Draft
	}
	return s.engine.FindOne(c.Request().Context(), alsoCan{principal(c), col.Type.Action("findOne")}, col, doc.DocumentID, &rq)
}

// alsoCan is a reader's access with one more action.
type alsoCan struct {
	engine.Access
	action string
}

func (a alsoCan) Can(action string) bool { return action == a.action || a.Access.Can(action) }

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func writeDoc(c echo.Context, status int, d *engine.Document) error {
	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], `{"data":`...)
	b = d.AppendJSON(b, format(c))
	b = append(b, `,"meta":{}}`...)
	err := writeJSON(c, status, b)
	*bp = b
	bufPool.Put(bp)
	return err
}

func writeList(c echo.Context, res *engine.Result) error {
	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], `{"data":[`...)
	f := format(c)
	for i, d := range res.Docs {
		if i > 0 {
			b = append(b, ',')
		}
		b = d.AppendJSON(b, f)
	}
	b = append(b, `],"meta":{"pagination":`...)
	b = appendPagination(b, &res.Meta)
	b = append(b, `}}`...)
	err := writeJSON(c, http.StatusOK, b)
	*bp = b
	bufPool.Put(bp)
	return err
}

// writeJSON sends a whole JSON body with its length: net/http then writes
// it as it is, where a body over its 2 KB buffer would go out chunked, in
// one more write (the last chunk's) than the data needs. HEAD gets the
// same length, as HTTP asks, and no body (headWriter).
func writeJSON(c echo.Context, status int, b []byte) error {
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(b)))
	return c.Blob(status, echo.MIMEApplicationJSON, b)
}

func appendPagination(b []byte, m *engine.PageMeta) []byte {
	if m.OffsetMode {
		b = append(b, `{"start":`...)
		b = strconv.AppendInt(b, int64(m.Start), 10)
		b = append(b, `,"limit":`...)
		b = strconv.AppendInt(b, int64(m.Limit), 10)
	} else {
		b = append(b, `{"page":`...)
		b = strconv.AppendInt(b, int64(m.Page), 10)
		b = append(b, `,"pageSize":`...)
		b = strconv.AppendInt(b, int64(m.PageSize), 10)
		if m.WithCount {
			b = append(b, `,"pageCount":`...)
			b = strconv.AppendInt(b, int64(m.PageCount), 10)
		}
	}
	if m.WithCount {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, m.Total, 10)
	}
	return append(b, '}')
}
