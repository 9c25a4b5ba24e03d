package rest

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// The users collection answers in Strapi's unwrapped shapes: plain objects
// and arrays, no data/meta envelope (errors keep theirs).

func userID(c echo.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	return id, err == nil && id > 0
}

func userNotFound() error { return errs.Errorf(errs.KindNotFound, "User not found") }

// GET /api/users/me: the user of the JWT. An API token has no user: 401.
func (s *Server) me(c echo.Context) error {
	if err := can(c, auth.ActionMe); err != nil {
		return err
	}
	p := authPrincipal(c)
	if p.Kind != auth.KindUser {
		return &errs.Error{Kind: errs.KindUnauthorized, Message: "Unauthorized"}
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	u, err := s.svc.GetUser(c.Request().Context(), principal(c), p.UserID, q)
	if err != nil {
		return err
	}
	if u == nil {
		return &errs.Error{Kind: errs.KindUnauthorized, Message: "Unauthorized"}
	}
	return c.JSON(http.StatusOK, u)
}

// GET /api/users: a plain array.
func (s *Server) listUsers(c echo.Context) error {
	if err := can(c, auth.ActionUserFind); err != nil {
		return err
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	if err := auth.UserQueryAccess(principal(c).Can, q); err != nil {
		return err
	}
	list, err := s.svc.ListUsers(c.Request().Context(), principal(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, list)
}

// GET /api/users/count: a number.
func (s *Server) countUsers(c echo.Context) error {
	if err := can(c, auth.ActionUserCount); err != nil {
		return err
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	if err := auth.UserQueryAccess(principal(c).Can, q); err != nil {
		return err
	}
	n, err := s.svc.CountUsers(c.Request().Context(), principal(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, n)
}

// GET /api/users/:id: a plain object; an unknown id is a 204 with no body,
// as in Strapi (its controller answers null).
func (s *Server) findUser(c echo.Context) error {
	if err := can(c, auth.ActionUserOne); err != nil {
		return err
	}
	q, err := s.query(c)
	if err != nil {
		return err
	}
	if err := auth.UserQueryAccess(principal(c).Can, q); err != nil {
		return err
	}
	id, ok := userID(c)
	if !ok {
		return c.NoContent(http.StatusNoContent)
	}
	u, err := s.svc.GetUser(c.Request().Context(), principal(c), id, q)
	if err != nil {
		return err
	}
	if u == nil {
		return c.NoContent(http.StatusNoContent)
	}
	return c.JSON(http.StatusOK, u)
}

// POST /api/users: a plain body {username, email, password, role?,
// confirmed?, blocked?} → 201 with the user and its role.
func (s *Server) createUser(c echo.Context) error {
	if err := can(c, auth.ActionUserCreate); err != nil {
		return err
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	u, err := s.svc.CreateUser(c.Request().Context(), body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, u)
}

// PUT /api/users/:id: a partial update with a plain body.
func (s *Server) updateUser(c echo.Context) error {
	if err := can(c, auth.ActionUserUpdate); err != nil {
		return err
	}
	id, ok := userID(c)
	if !ok {
		return userNotFound()
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	p, _ := c.Get(principalKey).(*auth.Principal)
	if err := auth.SelfUpdate(p, id, body); err != nil {
		return err
	}
	u, err := s.svc.UpdateUser(c.Request().Context(), id, body)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, u)
}

// DELETE /api/users/:id: the deleted user.
func (s *Server) deleteUser(c echo.Context) error {
	if err := can(c, auth.ActionUserDelete); err != nil {
		return err
	}
	id, ok := userID(c)
	if !ok {
		return userNotFound()
	}
	u, err := s.svc.DeleteUser(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, u)
}
