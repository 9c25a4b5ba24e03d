package rest

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// adminRoutes registers the admin API. Every route but init, login and
// register-admin needs an admin JWT (unknown /admin paths too: they are
// 401s, not 404s, for anyone else); answers are in the {data} envelope.
func (s *Server) adminRoutes(ec *echo.Echo) {
	open := ec.Group("/admin")
	open.GET("/init", s.adminInit)
	open.POST("/register-admin", s.registerAdmin)
	open.POST("/login", s.adminLogin)

	g := ec.Group("/admin", s.requireAdmin)
	g.GET("/api-tokens", s.listTokens)
	g.POST("/api-tokens", s.createToken)
	g.GET("/api-tokens/:id", s.getToken)
	g.PUT("/api-tokens/:id", s.updateToken)
	g.DELETE("/api-tokens/:id", s.deleteToken)
	g.POST("/api-tokens/:id/regenerate", s.regenerateToken)

	g.GET("/users-permissions/roles", s.listRoles)
	g.POST("/users-permissions/roles", s.createRole)
	g.GET("/users-permissions/roles/:id", s.getRole)
	g.PUT("/users-permissions/roles/:id", s.updateRole)
	g.DELETE("/users-permissions/roles/:id", s.deleteRole)

	g.POST("/content-manager/:uid/:documentId/actions/:action", s.documentAction)
	s.contentManagerRoutes(g)

	s.adminTypeRoutes(g)
	if s.cfg.Webhooks != nil {
		s.webhookRoutes(g)
	}
}

const adminKey = "admin"

// requireAdmin lets only an admin JWT of an active admin through.
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, err := s.svc.AuthenticateAdmin(c.Request())
		if err != nil {
			return err
		}
		c.Set(adminKey, a)
		return next(c)
	}
}

// writeData answers {"data": v}.
func writeData(c echo.Context, status int, v any) error {
	return c.JSON(status, map[string]any{"data": v})
}

func pathID(c echo.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	return id, err == nil && id > 0
}

// GET /admin/init: whether an admin exists yet (register-admin is open
// until one does).
func (s *Server) adminInit(c echo.Context) error {
	n, err := s.svc.AdminCount(c.Request().Context())
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, map[string]any{"hasAdmin": n > 0})
}

// POST /admin/register-admin: {email, password, firstname?, lastname?},
// only while no admin exists → {data: {token, user}}.
func (s *Server) registerAdmin(c echo.Context) error {
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	if err := s.rateLimit(c, body); err != nil {
		return err
	}
	in, err := auth.ParseAdminInput(body)
	if err != nil {
		return err
	}
	sess, err := s.svc.RegisterAdmin(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, sess)
}

// POST /admin/login: {email, password} → {data: {token, user}}.
func (s *Server) adminLogin(c echo.Context) error {
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	if err := s.rateLimit(c, body); err != nil {
		return err
	}
	sess, err := s.svc.AdminLogin(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, sess)
}

func tokenNotFound() error { return errs.Errorf(errs.KindNotFound, "API Token not found") }

func roleNotFound() error { return errs.Errorf(errs.KindNotFound, "Role not found") }

// uidParam is the :uid of an admin route, which clients may send escaped
// (api%3A%3Aarticle.article, as encodeURIComponent writes it).
func uidParam(c echo.Context) string {
	p := c.Param("uid")
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
