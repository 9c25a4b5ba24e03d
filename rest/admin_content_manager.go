package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
)

// POST /admin/content-manager/:uid/:documentId/actions/publish|unpublish|discard-draft[?locale=]
// The admin's document actions: publish the draft as it is (with the
// checks publishing must pass), remove the published version, or reset the
// draft to the published version. Answers {data: document, meta: {}}.
func (s *Server) documentAction(c echo.Context) error {
	col, ok := s.engine.CollectionByUID(c.Param("uid"))
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
