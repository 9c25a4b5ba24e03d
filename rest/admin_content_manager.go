package rest

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/upload"
)

// POST /admin/content-manager/:uid/:documentId/actions/publish|unpublish|discard-draft[?locale=]
// The admin's document actions: publish the draft as it is (with the
// checks publishing must pass), remove the published version, or reset the
// draft to the published version. Answers {data: document, meta: {}}.
func (s *Server) documentAction(c echo.Context) error {
	col, ok := s.engine.CollectionByUID(uidParam(c))
	if !ok {
		return errs.NotFound()
	}
	opt := engine.WriteOptions{Locale: c.QueryParam("locale")}
	ctx, id := c.Request().Context(), c.Param("documentId")
	var doc *engine.Document
	var err error
	switch c.Param("action") {
	case "publish":
		doc, err = s.engine.Publish(ctx, engine.AllowAll{}, col, id, opt)
	case "unpublish":
		doc, err = s.engine.Unpublish(ctx, engine.AllowAll{}, col, id, opt)
	case "discard-draft":
		doc, err = s.engine.DiscardDraft(ctx, engine.AllowAll{}, col, id, opt)
	default:
		return errs.NotFound()
	}
	if err != nil {
		return err
	}
	return writeDoc(c, http.StatusOK, doc)
}

// contentManagerRoutes serve the admin's documents, by type uid, with the
// content API's handlers, query string and answers, as an admin (who may do
// everything):
//
//	GET|POST /admin/content-manager/collection-types/:uid
//	GET|PUT|DELETE /admin/content-manager/collection-types/:uid/:documentId
//	GET|PUT|DELETE /admin/content-manager/single-types/:uid
//	GET /admin/i18n/locales, GET /admin/upload/files (paged), GET|DELETE /admin/upload/files/:id, POST /admin/upload
func (s *Server) contentManagerRoutes(g *echo.Group) {
	cm := g.Group("/content-manager", s.asAdminPrincipal, s.limitQuery)
	cm.GET("/collection-types/:uid", s.adminList(false))
	cm.POST("/collection-types/:uid", s.create)
	cm.GET("/collection-types/:uid/:documentId", s.findOne)
	cm.PUT("/collection-types/:uid/:documentId", s.update)
	cm.DELETE("/collection-types/:uid/:documentId", s.delete)
	cm.GET("/single-types/:uid", s.adminList(true))
	cm.PUT("/single-types/:uid", s.putSingle)
	cm.DELETE("/single-types/:uid", s.deleteSingle)
	g.GET("/i18n/locales", s.listLocales, s.asAdminPrincipal)
	if s.cfg.Uploads != nil {
		up := g.Group("/upload", s.asAdminPrincipal, s.limitQuery)
		up.POST("", s.uploadFiles)
		up.GET("/files", s.adminFiles)
		up.GET("/files/:id", s.fileHandler(upload.ActionFindOne, s.cfg.Uploads.Get, http.StatusOK))
		up.DELETE("/files/:id", s.fileHandler(upload.ActionDestroy, s.cfg.Uploads.Delete, http.StatusOK))
	}
}

// asAdminPrincipal lets an admin (already checked by requireAdmin) act on
// the content handlers with every permission.
func (s *Server) asAdminPrincipal(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(principalKey, auth.AdminPrincipal())
		return next(c)
	}
}

// adminList is GET of a collection type's list or a single type's
// document; the route's kind must match the type's.
func (s *Server) adminList(single bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		col, err := s.collection(c)
		if err != nil {
			return err
		}
		if col.Type.IsSingle() != single {
			return errs.NotFound()
		}
		return s.list(c)
	}
}

// GET /admin/upload/files?page=&pageSize=&_q=: one page of the media library,
// newest first, as Strapi's admin answers it: {results, pagination}.
func (s *Server) adminFiles(c echo.Context) error {
	num := func(name string, def, max int) (int, error) {
		v := c.QueryParam(name)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > max {
			return 0, errs.Errorf(errs.KindValidation, "%s must be a whole number from 1 to %d", name, max)
		}
		return n, nil
	}
	page, err := num("page", 1, 1<<20)
	if err != nil {
		return err
	}
	size, err := num("pageSize", 50, 100)
	if err != nil {
		return err
	}
	q := c.QueryParam("_q")
	if len(q) > 200 {
		return errs.Errorf(errs.KindValidation, "_q is too long (at most 200 bytes)")
	}
	files, total, err := s.cfg.Uploads.Page(c.Request().Context(), page, size, q)
	if err != nil {
		return err
	}
	if files == nil {
		files = []*upload.File{}
	}
	return c.JSON(http.StatusOK, map[string]any{"results": files, "pagination": map[string]any{
		"page": page, "pageSize": size, "pageCount": (total + int64(size) - 1) / int64(size), "total": total}})
}
