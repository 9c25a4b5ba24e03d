package errs_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"

	. "github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/httperr"
)

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		kind    Kind
		status  int
		name    string
		details bool
	}{
		{KindInternal, http.StatusInternalServerError, "InternalServerError", false},
		{KindValidation, http.StatusBadRequest, "ValidationError", true},
		{KindPagination, http.StatusBadRequest, "PaginationError", true},
		{KindApplication, http.StatusBadRequest, "ApplicationError", true},
		{KindSyntax, http.StatusBadRequest, "SyntaxError", false},
		{KindUnauthorized, http.StatusUnauthorized, "UnauthorizedError", true},
		{KindForbidden, http.StatusForbidden, "ForbiddenError", true},
		{KindNotFound, http.StatusNotFound, "NotFoundError", true},
		{KindMethodNotAllowed, http.StatusMethodNotAllowed, "MethodNotAllowedError", true},
		{KindConflict, http.StatusConflict, "ConflictError", true},
		{KindPayloadTooLarge, http.StatusRequestEntityTooLarge, "PayloadTooLargeError", true},
		{KindUnsupportedMediaType, http.StatusUnsupportedMediaType, "UnsupportedMediaTypeError", true},
		{KindRateLimit, http.StatusTooManyRequests, "RateLimitError", true},
	}
	if len(tests) != len(Kinds()) {
		t.Fatalf("%d kinds tested, %d defined", len(tests), len(Kinds()))
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Errorf(tc.kind, "x %d", 1)
			if httperr.Status(e) != tc.status || e.Name() != tc.name || e.HasDetails() != tc.details {
				t.Errorf("status %d name %s details %v, want %d %s %v", httperr.Status(e), e.Name(), e.HasDetails(), tc.status, tc.name, tc.details)
			}
			if e.Message != "x 1" || e.Error() != "x 1" {
				t.Errorf("message %q", e.Message)
			}
		})
	}
}

func TestErrorHelpers(t *testing.T) {
	if e := NotFound(); e.Kind != KindNotFound || e.Message != "Not Found" || httperr.Status(e) != 404 {
		t.Errorf("NotFound: %+v", e)
	}
	if e := Forbidden(); e.Kind != KindForbidden || e.Message != "Forbidden" || httperr.Status(e) != 403 {
		t.Errorf("Forbidden: %+v", e)
	}
	tests := []struct {
		key, path, msg, wantPath string
	}{
		{"foo", "foo", "Invalid key foo", "foo"},
		{"foo", "", "Invalid key foo", "foo"},
		{"bar", "foo.bar", "Invalid key bar at foo.bar", "foo.bar"},
	}
	for _, tc := range tests {
		e := InvalidKey(tc.key, tc.path, "query", "filters")
		want := map[string]any{"key": tc.key, "path": tc.wantPath, "source": "query", "param": "filters"}
		if e.Kind != KindValidation || e.Message != tc.msg || !reflect.DeepEqual(e.Details, want) {
			t.Errorf("InvalidKey(%q, %q) = %q %v", tc.key, tc.path, e.Message, e.Details)
		}
	}
}

func TestFrom(t *testing.T) {
	plain := io.ErrUnexpectedEOF
	e := From(plain)
	if e.Kind != KindInternal || httperr.Status(e) != 500 || e.Message != "Internal Server Error" || !errors.Is(e, plain) {
		t.Errorf("plain error: %+v", e)
	}
	if e.HasDetails() {
		t.Error("an internal error must not send details")
	}
	if e.Error() != "Internal Server Error: "+plain.Error() {
		t.Errorf("Error() = %q", e.Error())
	}
	nf := NotFound()
	if got := From(nf); got != nf {
		t.Errorf("an *Error must come back as itself")
	}
	wrapped := fmt.Errorf("reading: %w", nf)
	if got := From(wrapped); got != nf {
		t.Errorf("a wrapped *Error must be found: %+v", got)
	}
	joined := errors.Join(errors.New("other"), Errorf(KindConflict, "taken"))
	if got := From(joined); got.Kind != KindConflict {
		t.Errorf("a joined *Error must be found: %+v", got)
	}
	cause := errors.New("disk full")
	withCause := &Error{Kind: KindValidation, Message: "bad", Err: cause}
	if withCause.Error() != "bad: disk full" || !errors.Is(withCause, cause) || errors.Unwrap(withCause) != cause {
		t.Errorf("cause: %q", withCause.Error())
	}
}

func TestFieldErrors(t *testing.T) {
	var fe FieldErrors
	if fe.Err() != nil {
		t.Fatal("no failures must give no error")
	}
	path := []string{"a", "b"}
	fe.Add(path, 3, "%s is %d", "a", 1)
	path[0] = "changed" // Add keeps its own copy
	e := From(fe.Err())
	if e.Kind != KindValidation || e.Message != "a is 1" {
		t.Fatalf("one failure: %+v", e)
	}
	want := []FieldError{{Path: []string{"a", "b"}, Message: "a is 1", Name: "ValidationError", Value: 3}}
	if got := e.Details.(map[string]any)["errors"]; !reflect.DeepEqual(got, want) {
		t.Fatalf("details %#v", got)
	}
	fe.Add(nil, nil, "second")
	if e := From(fe.Err()); e.Message != "2 errors occurred" || len(e.Details.(map[string]any)["errors"].([]FieldError)) != 2 {
		t.Fatalf("two failures: %+v", e)
	}
}
