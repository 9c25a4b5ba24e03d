package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/openapi"
)

// GET /openapi.json: the OpenAPI 3.1 document of the current schema. It
// describes the types, not their content, so it is public (turn it off
// with "openapi": false in config/server.json).
func (s *Server) openAPI(c echo.Context) error {
	doc, _ := s.cfg.OpenAPI().(*openapi.Served)
	if doc == nil {
		return errs.NotFound()
	}
	h := c.Response().Header()
	h.Set("ETag", doc.ETag)
	h.Set("Cache-Control", "no-cache")
	if c.Request().Header.Get("If-None-Match") == doc.ETag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, "application/json", doc.Body)
}
