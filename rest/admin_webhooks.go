package rest

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/webhooks"
)

// The webhooks admin API, as Strapi's: bodies {name, url, headers, events,
// isEnabled} (and Stratum's optional signing `secret`, never shown back);
// answers in the {data} envelope.
func (s *Server) webhookRoutes(g *echo.Group) {
	g.GET("/webhooks", s.listWebhooks)
	g.POST("/webhooks", s.createWebhook)
	g.POST("/webhooks/batch-delete", s.batchDeleteWebhooks)
	g.GET("/webhooks/:id", s.getWebhook)
	g.PUT("/webhooks/:id", s.updateWebhook)
	g.DELETE("/webhooks/:id", s.deleteWebhook)
	g.POST("/webhooks/:id/trigger", s.triggerWebhook)
	g.GET("/webhooks/:id/deliveries", s.webhookDeliveries)
}

func (s *Server) listWebhooks(c echo.Context) error {
	list, err := s.cfg.Webhooks.List(c.Request().Context())
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, list)
}

func (s *Server) webhookInput(c echo.Context) (webhooks.Input, error) {
	body, err := s.readObject(c)
	if err != nil {
		return webhooks.Input{}, err
	}
	return webhooks.ParseInput(body)
}

func (s *Server) createWebhook(c echo.Context) error {
	in, err := s.webhookInput(c)
	if err != nil {
		return err
	}
	w, err := s.cfg.Webhooks.Create(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusCreated, w)
}

func (s *Server) getWebhook(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return webhookNotFound()
	}
	w, err := s.cfg.Webhooks.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, w)
}

func (s *Server) updateWebhook(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return webhookNotFound()
	}
	in, err := s.webhookInput(c)
	if err != nil {
		return err
	}
	w, err := s.cfg.Webhooks.Update(c.Request().Context(), id, in)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, w)
}

func (s *Server) deleteWebhook(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return webhookNotFound()
	}
	w, err := s.cfg.Webhooks.Delete(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, w)
}

// POST /admin/webhooks/batch-delete {ids: [...]}: unknown ids are skipped.
func (s *Server) batchDeleteWebhooks(c echo.Context) error {
	body, err := s.readObject(c)
	if err != nil {
		return err
	}
	raw, ok := body["ids"].([]any)
	if !ok || len(body) != 1 {
		return errs.InvalidKey("ids", "ids", "body", "ids")
	}
	ctx := c.Request().Context()
	for _, x := range raw {
		id, ok := jsonInt(x)
		if !ok {
			return errs.InvalidKey("ids", "ids", "body", "ids")
		}
		if _, err := s.cfg.Webhooks.Delete(ctx, id); err != nil && errs.From(err).Kind != errs.KindNotFound {
			return err
		}
	}
	return writeData(c, http.StatusOK, map[string]any{})
}

func (s *Server) triggerWebhook(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return webhookNotFound()
	}
	r, err := s.cfg.Webhooks.Trigger(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, r)
}

func (s *Server) webhookDeliveries(c echo.Context) error {
	id, ok := pathID(c)
	if !ok {
		return webhookNotFound()
	}
	list, err := s.cfg.Webhooks.Deliveries(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return writeData(c, http.StatusOK, list)
}

func webhookNotFound() error { return errs.Errorf(errs.KindNotFound, "Webhook not found") }

func jsonInt(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		return int64(x), x == float64(int64(x))
	}
	return 0, false
}
