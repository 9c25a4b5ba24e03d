package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
)

// The account flows of users-permissions (forgot, reset and change
// password, email confirmation) and its content-API roles, as Strapi
// routes them under /api.
func (s *Server) accountRoutes(g *echo.Group) {
	g.POST("/auth/forgot-password", s.forgotPassword)
	g.POST("/auth/reset-password", s.resetPassword)
	g.POST("/auth/change-password", s.changePassword)
	g.GET("/auth/email-confirmation", s.emailConfirmation)
	g.POST("/auth/send-email-confirmation", s.sendEmailConfirmation)

	g.GET("/users-permissions/roles", s.contentRoles)
	g.GET("/users-permissions/roles/:id", s.contentRole)
	g.POST("/users-permissions/roles", s.createContentRole)
	g.PUT("/users-permissions/roles/:id", s.updateContentRole)
	g.DELETE("/users-permissions/roles/:id", s.deleteContentRole)
	g.GET("/users-permissions/permissions", s.permissions)
}

// limitedBody checks the action, reads the body and counts the attempt
// against the login rate limit (Strapi limits every one of these paths).
func (s *Server) limitedBody(c echo.Context, action string) (map[string]any, error) {
	if err := can(c, action); err != nil {
		return nil, err
	}
	body, err := s.readObject(c)
	if err != nil {
		return nil, err
	}
	return body, s.rateLimit(c, body)
}

// POST /api/auth/forgot-password {email} → {ok: true}, known email or not.
func (s *Server) forgotPassword(c echo.Context) error {
	body, err := s.limitedBody(c, auth.ActionForgotPassword)
	if err != nil {
		return err
	}
	if err := s.svc.ForgotPassword(c.Request().Context(), body); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

// POST /api/auth/reset-password {code, password, passwordConfirmation} → {jwt, user}.
func (s *Server) resetPassword(c echo.Context) error {
	body, err := s.limitedBody(c, auth.ActionResetPassword)
	if err != nil {
		return err
	}
	sess, err := s.svc.ResetPassword(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

// POST /api/auth/change-password {currentPassword, password,
// passwordConfirmation} with a user's JWT → {jwt, user}.
func (s *Server) changePassword(c echo.Context) error {
	body, err := s.limitedBody(c, auth.ActionChangePassword)
	if err != nil {
		return err
	}
	sess, err := s.svc.ChangePassword(c.Request().Context(), authPrincipal(c), body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sess)
}

// GET /api/auth/email-confirmation?confirmation=CODE → 302 to the
// configured page (or /).
func (s *Server) emailConfirmation(c echo.Context) error {
	if err := can(c, auth.ActionEmailConfirmation); err != nil {
		return err
	}
	to, err := s.svc.ConfirmEmail(c.Request().Context(), c.QueryParam("confirmation"))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, to)
}

// POST /api/auth/send-email-confirmation {email} → {email, sent: true}.
func (s *Server) sendEmailConfirmation(c echo.Context) error {
	body, err := s.limitedBody(c, auth.ActionSendEmailConfirmation)
	if err != nil {
		return err
	}
	email, err := s.svc.SendEmailConfirmation(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"email": email, "sent": true})
}

// GET /api/users-permissions/roles → {roles: [...]}.
func (s *Server) contentRoles(c echo.Context) error {
	if err := can(c, auth.ActionRoleFind); err != nil {
		return err
	}
	roles, err := s.svc.ContentRoles(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"roles": roles})
}

// GET /api/users-permissions/roles/:id → {role}.
func (s *Server) contentRole(c echo.Context) error {
	if err := can(c, auth.ActionRoleFindOne); err != nil {
		return err
	}
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	r, err := s.svc.ContentRole(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"role": r})
}

var okBody = map[string]bool{"ok": true}

// POST /api/users-permissions/roles {name, description, permissions} → {ok: true}.
func (s *Server) createContentRole(c echo.Context) error {
	if err := can(c, auth.ActionRoleCreate); err != nil {
		return err
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseContentRoleInput(body, true)
	if err != nil {
		return err
	}
	if _, err := s.svc.CreateRole(c.Request().Context(), in); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, okBody)
}

// PUT /api/users-permissions/roles/:id → {ok: true}.
func (s *Server) updateContentRole(c echo.Context) error {
	if err := can(c, auth.ActionRoleUpdate); err != nil {
		return err
	}
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseContentRoleInput(body, false)
	if err != nil {
		return err
	}
	if _, err := s.svc.UpdateRole(c.Request().Context(), id, in); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, okBody)
}

// DELETE /api/users-permissions/roles/:id → {ok: true}.
func (s *Server) deleteContentRole(c echo.Context) error {
	if err := can(c, auth.ActionRoleDelete); err != nil {
		return err
	}
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	ctx := c.Request().Context()
	if err := s.svc.PublicRoleDeletion(ctx, id); err != nil {
		return err
	}
	if _, err := s.svc.DeleteRole(ctx, id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, okBody)
}

// GET /api/users-permissions/permissions → {permissions: tree}.
func (s *Server) permissions(c echo.Context) error {
	if err := can(c, auth.ActionGetPermissions); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"permissions": s.svc.Permissions(nil)})
}
