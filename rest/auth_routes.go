package rest

import (
	"context"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// userRoutes registers users-permissions on the content API group. Static
// paths win over the content routes' /:name, so a content-type cannot
// shadow them (Strapi reserves them the same way).
func (s *Server) userRoutes(g *echo.Group) {
	g.POST("/auth/local", s.login)
	g.POST("/auth/local/register", s.register)
	g.GET("/users/me", s.me)
	g.GET("/users/count", s.countUsers)
	g.GET("/users", s.listUsers)
	g.POST("/users", s.createUser)
	g.GET("/users/:id", s.findUser)
	g.PUT("/users/:id", s.updateUser)
	s.accountRoutes(g)
	g.DELETE("/users/:id", s.deleteUser)
}

// authPrincipal is the request's principal as auth built it.
func authPrincipal(c echo.Context) *auth.Principal {
	p, _ := c.Get(principalKey).(*auth.Principal)
	return p
}

// can refuses a request whose principal lacks the action.
func can(c echo.Context, action string) error {
	if !authPrincipal(c).Can(action) {
		return errs.Forbidden()
	}
	return nil
}

// rateLimit counts a login or register attempt, keyed as Strapi keys it:
// the identifier (or email), the normalised path and the client address.
func (s *Server) rateLimit(c echo.Context, body map[string]any) error {
	id, _ := body["identifier"].(string)
	if id == "" {
		id, _ = body["email"].(string)
	}
	p := strings.TrimRight(strings.ToLower(path.Clean(c.Request().URL.Path)), "/")
	return s.svc.LoginAttempt(c.Request(), s.cfg.TrustProxy, id, p)
}

// POST /api/auth/local: {identifier, password} → {jwt, user}.
func (s *Server) login(c echo.Context) error { return s.session(c, auth.ActionLogin, s.svc.Login) }

// POST /api/auth/local/register: {username, email, password} → {jwt, user}.
func (s *Server) register(c echo.Context) error {
	return s.session(c, auth.ActionRegister, s.svc.Register)
}

// session runs login or register: the permission, the body, the rate limit,
// then the account call, answering {jwt, user}.
func (s *Server) session(c echo.Context, action string, call func(context.Context, map[string]any) (*auth.Session, error)) error {
	if err := can(c, action); err != nil {
		return err
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	if err := s.rateLimit(c, body); err != nil {
		return err
	}
	sess, err := call(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}
