package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
)

// The users-permissions roles admin API: bodies {name, description,
// permissions: ["api::article.article.find", ...]}; permissions, when
// given, replace the role's whole set.

// GET /admin/users-permissions/roles
func (s *Server) listRoles(c echo.Context) error {
	list, err := s.svc.ListRoles(c.Request().Context())
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, list)
}

// GET /admin/users-permissions/roles/:id
func (s *Server) getRole(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	r, err := s.svc.GetRole(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, r)
}

// POST /admin/users-permissions/roles → 201.
func (s *Server) createRole(c echo.Context) error {
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseRoleInput(body, true)
	if err != nil {
		return err
	}
	r, err := s.svc.CreateRole(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusCreated, r)
}

// PUT /admin/users-permissions/roles/:id
func (s *Server) updateRole(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseRoleInput(body, false)
	if err != nil {
		return err
	}
	r, err := s.svc.UpdateRole(c.Request().Context(), id, in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, r)
}

// DELETE /admin/users-permissions/roles/:id: the deleted role; its users
// move to Authenticated. Public and Authenticated cannot be deleted.
func (s *Server) deleteRole(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return roleNotFound()
	}
	r, err := s.svc.DeleteRole(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, r)
}
