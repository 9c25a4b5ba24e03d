package rest

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratum-cms/stratum/engine"
)

// errorBody is Strapi's error envelope.
type errorBody struct {
	Data  any       `json:"data"`
	Error errorInfo `json:"error"`
}

type errorInfo struct {
	Status  int    `json:"status"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// errorHandler writes every error in Strapi's envelope. Status codes come
// from engine.Error kinds only; echo's own errors are mapped once here.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		e := toEngineError(err)
		if e.Kind == engine.KindInternal {
			log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		}
		info := errorInfo{Status: e.Status(), Name: e.Name(), Message: e.Message}
		if e.HasDetails() {
			info.Details = e.Details
			if info.Details == nil {
				info.Details = struct{}{}
			}
		}
		if e.Kind == engine.KindMethodNotAllowed {
			if allow := c.Get("allow"); allow != nil {
				c.Response().Header().Set("Allow", allow.(string))
			}
		}
		b, _ := json.Marshal(errorBody{Error: info})
		_ = c.Blob(e.Status(), echo.MIMEApplicationJSON, b)
	}
}

func toEngineError(err error) *engine.Error {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return engine.NotFound()
		case http.StatusMethodNotAllowed:
			return &engine.Error{Kind: engine.KindMethodNotAllowed, Message: "Method Not Allowed"}
		case http.StatusRequestEntityTooLarge:
			return &engine.Error{Kind: engine.KindPayloadTooLarge, Message: "request entity too large"}
		case http.StatusUnauthorized:
			return &engine.Error{Kind: engine.KindUnauthorized, Message: "Unauthorized"}
		case http.StatusForbidden:
			return engine.Forbidden()
		case http.StatusUnsupportedMediaType:
			return &engine.Error{Kind: engine.KindUnsupportedMediaType, Message: "Unsupported Media Type"}
		}
		if he.Code >= 400 && he.Code < 500 {
			return &engine.Error{Kind: engine.KindValidation, Message: http.StatusText(he.Code)}
		}
		return &engine.Error{Kind: engine.KindInternal, Message: "Internal Server Error", Err: err}
	}
	return engine.AsError(err)
}
