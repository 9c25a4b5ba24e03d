package rest

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/upload"
)

// attachment reads the form's ref/refId/field (engine.MediaTarget).
func (s *Server) attachment(c echo.Context, p *auth.Principal, form map[string][]string) (*engine.MediaTarget, error) {
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	return s.engine.MediaTarget(c.Request().Context(), p, get("ref"), get("refId"), get("field"))
}

// attach sets or adds the files on the target's draft.
func (s *Server) attach(ctx context.Context, p *auth.Principal, t *engine.MediaTarget, files []*upload.File) error {
	ids := make([]int64, len(files))
	for i, f := range files {
		ids[i] = f.ID
	}
	return s.engine.AttachMedia(ctx, p, t, ids)
}
