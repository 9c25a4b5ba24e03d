package rest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/realtime"
	"github.com/stratum-cms/stratum/upload"
)

// GET /api/realtime?types=articles,tags&documentId=...&status=draft: the
// document events of the types (by plural name or uid; every readable
// type when none), as Server-Sent Events, for the request's credential
// only. Last-Event-ID resumes after an event.
func (s *Server) realtime(c echo.Context) error {
	r := c.Request()
	snap := s.engine.Registry.Current().Schema
	st := realtime.Stream{IP: c.RealIP(), Types: map[string]bool{}, DocumentID: c.QueryParam("documentId")}
	for _, name := range strings.Split(c.QueryParam("types"), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if name == "files" || name == upload.FileUID {
			st.Types[upload.FileUID] = true
			continue
		}
		uid := name
		if ct := snap.Type(name); ct == nil {
			col, ok := s.engine.Route(name)
			if !ok {
				return errs.InvalidKey(name, "types", "query", "types")
			}
			uid = col.Type.UID
		}
		st.Types[uid] = true
	}
	switch c.QueryParam("status") {
	case "", "published":
	case "draft":
		st.Drafts = true
	default:
		return errs.InvalidKey("status", "status", "query", "status")
	}
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 0 {
			return errs.Errorf(errs.KindValidation, "Last-Event-ID must be an event id")
		}
		st.LastID = id
	}
	p := authPrincipal(c)
	if !readsAny(s, p, st.Types) {
		return errs.Forbidden()
	}
	st.Readable = s.readable(r, p)
	if err := s.cfg.Realtime.Serve(c.Response(), r, st); err != nil {
		// Refused before anything was written: too many streams, or stopping.
		return errs.Errorf(errs.KindRateLimit, "%s: try again later", err.Error())
	}
	return nil
}

// readsAny tells whether the credential may read at least one of the
// types (any type when none is named).
func readsAny(s *Server, p *auth.Principal, types map[string]bool) bool {
	can := func(uid string) bool { return canRead(s, p, uid) }
	if len(types) == 0 {
		for _, ct := range s.engine.Registry.Current().Schema.Types {
			if can(ct.UID) {
				return true
			}
		}
		return can(upload.FileUID)
	}
	for uid := range types {
		if can(uid) {
			return true
		}
	}
	return false
}

func canRead(s *Server, p *auth.Principal, uid string) bool {
	if uid == upload.FileUID {
		return p.Can(upload.ActionFind)
	}
	ct := s.engine.Registry.Current().Schema.Type(uid)
	return ct != nil && p.Can(ct.Action("find"))
}

// readable re-checks the request's credential at most once a second: a
// revoked token, a blocked user or a changed role ends or narrows an open
// stream.
func (s *Server) readable(r *http.Request, p *auth.Principal) func(ctx context.Context, uid string) (bool, error) {
	checked := time.Now()
	return func(ctx context.Context, uid string) (bool, error) {
		if time.Since(checked) > time.Second {
			np, err := s.auth.Authenticate(r)
			if err != nil {
				return false, err
			}
			p, checked = np, time.Now()
		}
		return canRead(s, p, uid), nil
	}
}
