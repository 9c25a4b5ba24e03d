package rest

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/httperr"
)

// errorHandler writes every error in Strapi's envelope (httperr). Status
// codes come from errs kinds only; echo's own errors are mapped once here.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		e := toEngineError(err)
		if e.Kind == errs.KindInternal {
			id := c.Response().Header().Get("X-Request-Id")
			log.Error("request failed", "id", id, "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		}
		if e.Kind == errs.KindMethodNotAllowed {
			if allow := c.Get("allow"); allow != nil {
				c.Response().Header().Set("Allow", allow.(string))
			}
		}
		_ = c.Blob(httperr.Status(e), echo.MIMEApplicationJSON, httperr.Body(e))
	}
}

func toEngineError(err error) *errs.Error {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return errs.NotFound()
		case http.StatusMethodNotAllowed:
			return &errs.Error{Kind: errs.KindMethodNotAllowed, Message: "Method Not Allowed"}
		case http.StatusRequestEntityTooLarge:
			return &errs.Error{Kind: errs.KindPayloadTooLarge, Message: "request entity too large"}
		case http.StatusUnauthorized:
			return &errs.Error{Kind: errs.KindUnauthorized, Message: "Unauthorized"}
		case http.StatusForbidden:
			return errs.Forbidden()
		case http.StatusUnsupportedMediaType:
			return &errs.Error{Kind: errs.KindUnsupportedMediaType, Message: "Unsupported Media Type"}
		}
		if he.Code >= 400 && he.Code < 500 {
			return &errs.Error{Kind: errs.KindValidation, Message: http.StatusText(he.Code)}
		}
		return &errs.Error{Kind: errs.KindInternal, Message: "Internal Server Error", Err: err}
	}
	return errs.From(err)
}
