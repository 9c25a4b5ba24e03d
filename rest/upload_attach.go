package rest

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
)

// mediaTarget is where an upload's ref/refId/field attach the new files:
// a document's media attribute (engine) or a user's (auth).
type mediaTarget struct {
	doc  *engine.MediaTarget
	user *auth.UserMediaTarget
}

// attachment reads the form's ref/refId/field, checked before any file is
// kept; nil when the form names none.
func (s *Server) attachment(c echo.Context, p *auth.Principal, form map[string][]string) (*mediaTarget, error) {
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	ctx := c.Request().Context()
	if get("ref") == models.UserUID && get("refId") != "" && get("field") != "" {
		t, err := s.svc.UserMediaTarget(ctx, p.Can, get("refId"), get("field"))
		if err != nil {
			return nil, err
		}
		return &mediaTarget{user: t}, nil
	}
	t, err := s.engine.MediaTarget(ctx, p, get("ref"), get("refId"), get("field"))
	if err != nil || t == nil {
		return nil, err
	}
	return &mediaTarget{doc: t}, nil
}

// attach sets or adds the files on the target (a document's draft, a user).
func (s *Server) attach(ctx context.Context, p *auth.Principal, t *mediaTarget, files []*upload.File) error {
	ids := make([]int64, len(files))
	for i, f := range files {
		ids[i] = f.ID
	}
	if t.user != nil {
		return t.user.Attach(ctx, ids)
	}
	return s.engine.AttachMedia(ctx, p, t.doc, ids)
}
