// Package httperr is the edge between errs and HTTP: the status of each
// kind and Strapi's error envelope {data: null, error: {status, name,
// message, details}}. rest and graphql answer errors through it, so a
// status is chosen in one place.
package httperr

import (
	"encoding/json"
	"net/http"

	"github.com/stratum-cms/stratum/errs"
)

var statuses = [...]int{
	errs.KindInternal:             http.StatusInternalServerError,
	errs.KindValidation:           http.StatusBadRequest,
	errs.KindPagination:           http.StatusBadRequest,
	errs.KindApplication:          http.StatusBadRequest,
	errs.KindSyntax:               http.StatusBadRequest,
	errs.KindUnauthorized:         http.StatusUnauthorized,
	errs.KindForbidden:            http.StatusForbidden,
	errs.KindNotFound:             http.StatusNotFound,
	errs.KindMethodNotAllowed:     http.StatusMethodNotAllowed,
	errs.KindConflict:             http.StatusConflict,
	errs.KindPayloadTooLarge:      http.StatusRequestEntityTooLarge,
	errs.KindUnsupportedMediaType: http.StatusUnsupportedMediaType,
	errs.KindRateLimit:            http.StatusTooManyRequests,
}

// Status is the HTTP status of an error's kind.
func Status(e *errs.Error) int {
	if int(e.Kind) < 0 || int(e.Kind) >= len(statuses) {
		return http.StatusInternalServerError
	}
	return statuses[e.Kind]
}

// Info is the envelope's error object.
type Info struct {
	Status  int    `json:"status"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// InfoOf is an error's envelope object: details {} when the kind has
// details and the error none (Strapi's default), absent when it has none.
func InfoOf(e *errs.Error) Info {
	info := Info{Status: Status(e), Name: e.Name(), Message: e.Message}
	if e.HasDetails() {
		info.Details = e.Details
		if info.Details == nil {
			info.Details = struct{}{}
		}
	}
	return info
}

// Body is the whole envelope, encoded.
func Body(e *errs.Error) []byte {
	b, err := json.Marshal(struct {
		Data  any  `json:"data"`
		Error Info `json:"error"`
	}{Error: InfoOf(e)})
	if err != nil { // details that cannot be encoded: the envelope without them
		info := InfoOf(e)
		info.Details = struct{}{}
		b, _ = json.Marshal(struct {
			Data  any  `json:"data"`
			Error Info `json:"error"`
		}{Error: info})
	}
	return b
}

// Write answers an error in the envelope.
func Write(w http.ResponseWriter, e *errs.Error) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(Status(e))
	_, _ = w.Write(Body(e))
}
