package rest

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/stratum-cms/stratum/engine"
)

// ActionListLocales is the permission of GET /api/i18n/locales, as Strapi
// names it.
const ActionListLocales = "plugin::i18n.locales.listLocales"

// localeView is a locale as Strapi's i18n content API answers it.
type localeView struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`
	Code      string `json:"code"`
	IsDefault bool   `json:"isDefault"`
}

// GET /api/i18n/locales: the configured locales (the default first), as a
// plain array. Stratum's locales come from config/plugins.json, so they
// have no documentId or timestamps.
func (s *Server) listLocales(c echo.Context) error {
	if err := can(c, ActionListLocales); err != nil {
		return err
	}
	codes := s.engine.Locales()
	out := make([]localeView, 0, len(codes))
	for i, code := range codes {
		out = append(out, localeView{ID: i + 1, Name: engine.LocaleName(code), Code: code, IsDefault: i == 0})
	}
	return c.JSON(http.StatusOK, out)
}
