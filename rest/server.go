// Package rest serves the Strapi 5 REST contract: echo handlers that parse
// requests into the engine's query model and write Strapi's envelopes.
package rest

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/realtime"
	"github.com/stratum-cms/stratum/upload"
	"github.com/stratum-cms/stratum/webhooks"
)

// Config holds the HTTP settings of the content API.
type Config struct {
	Prefix       string // "/api"
	MaxBodyBytes int64  // JSON body limit, 1 MiB by default
	MaxQueryLen  int    // raw query string limit
	// TrustProxy takes the client address of rate limits from
	// X-Forwarded-For (server.json "proxy": true, behind a load balancer);
	// otherwise the connection's address is used.
	TrustProxy bool
	// Uploads is the media library: /api/upload and /uploads are served
	// when it is set.
	Uploads *upload.Service
	// Headers are the security headers of every answer.
	Headers SecurityHeaders
	// CORS is strapi::cors (config/middlewares.json).
	CORS CORS
	// Webhooks, when set, are managed under /admin/webhooks.
	Webhooks *webhooks.Service
	// Realtime, when set, streams events at /api/realtime.
	Realtime *realtime.Hub
	// OpenAPI, when set, returns the current snapshot's *openapi.Served,
	// served at /openapi.json.
	OpenAPI func() any
}

// Server is the REST layer over an engine.
type Server struct {
	cfg    Config
	engine *engine.Engine
	auth   auth.Authenticator
	// svc is set when a is the real auth service: users-permissions and
	// the admin API are served then.
	svc *auth.Service
	log *slog.Logger
	// security and corsPolicy are made once from cfg, for pre.
	security   *securityHeaderSet
	corsPolicy *corsPolicy
}

// New builds the echo instance with every route of the content API. When a
// is an *auth.Service, the users-permissions endpoints (/api/auth/local,
// /api/users...) and the admin API (/admin/...) are served too.
func New(cfg Config, e *engine.Engine, a auth.Authenticator, log *slog.Logger) *echo.Echo {
	if cfg.Prefix == "" {
		cfg.Prefix = "/api"
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.MaxQueryLen <= 0 {
		cfg.MaxQueryLen = 16 << 10
	}
	s := &Server{cfg: cfg, engine: e, auth: a, log: log}
	ec := echo.New()
	ec.HideBanner, ec.HidePort = true, true
	ec.HTTPErrorHandler = errorHandler(log)
	ec.IPExtractor = func(r *http.Request) string { return auth.ClientIP(r, cfg.TrustProxy) }
	ec.Use(s.requestLog)
	ec.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableStackAll: true, DisablePrintStack: true,
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Error("panic", "path", c.Request().URL.Path, "err", err, "stack", string(stack))
			return err
		}}))
	// Headers first, so that every answer has them, refusals included.
	s.security, s.corsPolicy = newSecurityHeaders(s.cfg.Headers), newCORSPolicy(s.cfg.CORS)
	ec.Pre(s.pre)
	ec.GET("/_health", s.health)
	ec.GET("/_ready", s.ready)
	if cfg.OpenAPI != nil {
		ec.GET("/openapi.json", s.openAPI)
	}

	// Types are looked up per request in the current registry snapshot, so
	// content-types added while serving need no new routes.
	g := ec.Group(strings.TrimRight(cfg.Prefix, "/"), s.authenticate, s.limitQuery)
	if svc, ok := a.(*auth.Service); ok {
		s.svc = svc
		s.userRoutes(g)
		s.adminRoutes(ec)
	}
	if cfg.Uploads != nil {
		s.uploadRoutes(ec, g)
	}
	if cfg.Realtime != nil {
		g.GET("/realtime", s.realtime)
	}
	g.GET("/i18n/locales", s.listLocales)
	g.GET("/:name", s.list)
	g.POST("/:name", s.create)
	g.PUT("/:name", s.putSingle)
	g.DELETE("/:name", s.deleteSingle)
	g.GET("/:name/:documentId", s.findOne)
	g.PUT("/:name/:documentId", s.update)
	g.DELETE("/:name/:documentId", s.delete)
	for _, p := range []string{"/:name", "/:name/:documentId"} {
		g.Match([]string{http.MethodPatch, http.MethodOptions, http.MethodHead}, p, s.methodNotAllowed)
	}
	ec.RouteNotFound("/*", func(echo.Context) error { return errs.NotFound() })
	return ec
}

func (s *Server) health(c echo.Context) error {
	if err := s.engine.Ping(c.Request().Context()); err != nil {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
	}
	body := map[string]any{"status": "ok"}
	if st := s.engine.Registry.Stale(); st != nil {
		// Still serving, on the schema it has: taking the node out of a
		// load balancer would not help, since every node builds the same.
		// The reason is in the log, not in this anonymous answer.
		body["status"] = "degraded"
		body["schema"] = map[string]any{"serving": s.engine.Registry.Current().Version, "failed": st.Version}
	}
	return c.JSON(http.StatusOK, body)
}

const principalKey = "principal"

func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, err := s.auth.Authenticate(c.Request())
		if err != nil {
			return err
		}
		c.Set(principalKey, p)
		return next(c)
	}
}

func (s *Server) limitQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if len(c.Request().URL.RawQuery) > s.cfg.MaxQueryLen {
			return errs.Errorf(errs.KindValidation, "The query string is too long (at most %d bytes)", s.cfg.MaxQueryLen)
		}
		return next(c)
	}
}

func principal(c echo.Context) engine.Access {
	p, _ := c.Get(principalKey).(*auth.Principal)
	return p
}

func (s *Server) methodNotAllowed(c echo.Context) error {
	return &errs.Error{Kind: errs.KindMethodNotAllowed, Message: "Method Not Allowed"}
}

// textHeaders are the request headers Stratum reads, checked before
// anything is parsed (names with their error labels, made once).
var textHeaders = [...][2]string{
	{"Authorization", "header Authorization"},
	{"Content-Type", "header Content-Type"},
	{"Strapi-Response-Format", "header Strapi-Response-Format"},
	{"X-Forwarded-For", "header X-Forwarded-For"},
}

// checkRequestText refuses a NUL byte or invalid UTF-8 in the path, the
// query string and the headers Stratum reads, for every route (GraphQL
// included), before anything is parsed.
func checkRequestText(r *http.Request) error {
	if err := engine.CheckString(r.URL.Path, "path"); err != nil {
		return err
	}
	if q, err := url.QueryUnescape(r.URL.RawQuery); err == nil {
		if err := engine.CheckString(q, "query string"); err != nil {
			return err
		}
	} else if err := engine.CheckString(r.URL.RawQuery, "query string"); err != nil {
		return err
	}
	for _, h := range textHeaders {
		if v := r.Header.Get(h[0]); v != "" {
			if err := engine.CheckString(v, h[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// pre is everything that runs before routing, in one middleware: echo
// applies its Pre middlewares anew on every request, so each one costs a
// closure and whatever its set-up builds; here the set-up is made once
// (s.security, s.corsPolicy) and a request pays one closure.
func (s *Server) pre(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s.security.apply(s, c)
		if done, err := s.corsPolicy.apply(c); done {
			return err
		}
		if httpManners(c) {
			defer func() { c.Request().Method = http.MethodHead }()
		}
		if err := checkRequestText(c.Request()); err != nil {
			return err
		}
		return next(c)
	}
}
