// Package errs is the one error type of Stratum: an Error with a Kind that
// names Strapi's error (ValidationError, NotFoundError, ...), its message
// and details. It imports nothing of ours and knows nothing of HTTP: the
// edge (package httperr) maps kinds to statuses.
package errs

import (
	"errors"
	"fmt"
	"slices"
)

// Kind classifies an Error; it decides the HTTP status and the Strapi error name.
type Kind int

const (
	KindInternal Kind = iota
	KindValidation
	KindPagination
	KindApplication
	KindSyntax
	KindUnauthorized
	KindForbidden
	KindNotFound
	KindMethodNotAllowed
	KindConflict
	KindPayloadTooLarge
	KindUnsupportedMediaType
	KindRateLimit
)

// names are Strapi's error names (error.name) of the kinds.
var names = [...]string{
	KindInternal:             "InternalServerError",
	KindValidation:           "ValidationError",
	KindPagination:           "PaginationError",
	KindApplication:          "ApplicationError",
	KindSyntax:               "SyntaxError",
	KindUnauthorized:         "UnauthorizedError",
	KindForbidden:            "ForbiddenError",
	KindNotFound:             "NotFoundError",
	KindMethodNotAllowed:     "MethodNotAllowedError",
	KindConflict:             "ConflictError",
	KindPayloadTooLarge:      "PayloadTooLargeError",
	KindUnsupportedMediaType: "UnsupportedMediaTypeError",
	KindRateLimit:            "RateLimitError",
}

// Kinds lists every kind.
func Kinds() []Kind {
	out := make([]Kind, len(names))
	for i := range names {
		out[i] = Kind(i)
	}
	return out
}

// Error is the one error type that crosses from the engine (and auth) to the
// HTTP layers. Handlers never pick a status themselves: package httperr
// maps the kind, once, at the edge.
type Error struct {
	Kind    Kind
	Message string
	// Details is sent as error.details; nil means {} (Strapi's default),
	// except for SyntaxError and InternalServerError, which have none.
	Details any
	// Err is the cause, kept for logs and never shown to clients.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Name is Strapi's error name (error.name).
func (e *Error) Name() string {
	if int(e.Kind) < 0 || int(e.Kind) >= len(names) {
		return names[KindInternal]
	}
	return names[e.Kind]
}

// HasDetails tells whether error.details is part of the body.
func (e *Error) HasDetails() bool { return e.Kind != KindSyntax && e.Kind != KindInternal }

// Errorf builds an Error of a kind.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// NotFound is Strapi's answer for a missing document or route.
func NotFound() *Error { return &Error{Kind: KindNotFound, Message: "Not Found"} }

// Forbidden is the answer for a request without the permission.
func Forbidden() *Error { return &Error{Kind: KindForbidden, Message: "Forbidden"} }

// InvalidKey is Strapi's "Invalid key" validation error for query and body keys.
func InvalidKey(key, path, source, param string) *Error {
	msg := "Invalid key " + key
	if path != "" && path != key {
		msg += " at " + path
	}
	if path == "" {
		path = key
	}
	return &Error{Kind: KindValidation, Message: msg,
		Details: map[string]any{"key": key, "path": path, "source": source, "param": param}}
}

// From turns any error into an *Error; unknown errors become internal ones.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindInternal, Message: "Internal Server Error", Err: err}
}

// FieldError is one entry of a ValidationError's details.errors.
type FieldError struct {
	Path    []string `json:"path"`
	Message string   `json:"message"`
	Name    string   `json:"name"`
	Value   any      `json:"value,omitempty"`
}

// FieldErrors collects per-field validation failures.
type FieldErrors []FieldError

// Add records a failure at path.
func (fe *FieldErrors) Add(path []string, value any, format string, args ...any) {
	*fe = append(*fe, FieldError{Path: append([]string(nil), path...), Message: fmt.Sprintf(format, args...),
		Name: "ValidationError", Value: value})
}

// Has tells whether a failure is recorded at path.
func (fe FieldErrors) Has(path []string) bool {
	for _, e := range fe {
		if slices.Equal(e.Path, path) {
			return true
		}
	}
	return false
}

// Err returns the ValidationError for the collected failures, or nil.
func (fe FieldErrors) Err() error {
	if len(fe) == 0 {
		return nil
	}
	msg := fe[0].Message
	if len(fe) > 1 {
		msg = fmt.Sprintf("%d errors occurred", len(fe))
	}
	return &Error{Kind: KindValidation, Message: msg, Details: map[string]any{"errors": []FieldError(fe)}}
}
