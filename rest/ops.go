package rest

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// GET /_ready: 200 when this node can serve (its database answers within
// a second and it has a schema snapshot), 503 otherwise, for a load
// balancer's readiness check. /_health stays the liveness check.
func (s *Server) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), time.Second)
	defer cancel()
	if err := s.engine.Ping(ctx); err != nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database"})
	}
	if s.engine.Registry.Current() == nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "schema"})
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "ready", "schema": s.engine.Registry.Current().Version})
}

// requestIDRe is what an incoming X-Request-Id may be to be kept (a
// proxy's id); anything else is replaced, so logs hold no client text.
var requestIDRe = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// requestLog gives every request an id (X-Request-Id, echoed in the
// answer, and in the log line of a failed request) and, at debug level
// (STRATUM_LOG_LEVEL=debug), one structured line per request: method,
// route, status, duration, id. Off by default: a line per request costs
// more than serving a small one.
func (s *Server) requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get("X-Request-Id")
		if !requestIDRe.MatchString(id) {
			id = strconv.FormatUint(rand.Uint64(), 36) // unique enough to find a line, and cheap
		}
		// Kept in the answer's header alone (the error log reads it there):
		// echo's context store would cost two allocations per request.
		c.Response().Header()["X-Request-Id"] = []string{id}
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err) // answered here, so the status below is the real one
		}
		if s.log.Enabled(c.Request().Context(), slog.LevelDebug) {
			s.log.LogAttrs(c.Request().Context(), slog.LevelDebug, "request",
				slog.String("id", id), slog.String("method", c.Request().Method), slog.String("route", c.Path()),
				slog.String("path", c.Request().URL.Path), slog.Int("status", c.Response().Status),
				slog.Duration("duration", time.Since(start)))
		}
		return nil
	}
}
