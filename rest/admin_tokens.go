package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/auth"
)

// The API tokens admin API. The token string (accessKey) is in the answer
// of create and regenerate only; it is never stored in clear.

// GET /admin/api-tokens: every token, by name.
func (s *Server) listTokens(c echo.Context) error {
	list, err := s.svc.ListTokens(c.Request().Context())
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, list)
}

// POST /admin/api-tokens: {name, description?, type?, permissions?, lifespan?} → 201.
func (s *Server) createToken(c echo.Context) error {
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseTokenInput(body, true)
	if err != nil {
		return err
	}
	t, err := s.svc.CreateToken(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusCreated, t)
}

// GET /admin/api-tokens/:id
func (s *Server) getToken(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return tokenNotFound()
	}
	t, err := s.svc.GetToken(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, t)
}

// PUT /admin/api-tokens/:id: {name?, description?, type?, permissions?}.
func (s *Server) updateToken(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return tokenNotFound()
	}
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	in, err := auth.ParseTokenInput(body, false)
	if err != nil {
		return err
	}
	t, err := s.svc.UpdateToken(c.Request().Context(), id, in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, t)
}

// DELETE /admin/api-tokens/:id: revokes at once; the deleted token.
func (s *Server) deleteToken(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return tokenNotFound()
	}
	t, err := s.svc.DeleteToken(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, t)
}

// POST /admin/api-tokens/:id/regenerate: a new token string → 201.
func (s *Server) regenerateToken(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return tokenNotFound()
	}
	t, err := s.svc.RegenerateToken(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusCreated, t)
}
