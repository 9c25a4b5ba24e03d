package gqlschema

import (
	"errors"
	"strings"
	"unicode"

	"github.com/graphql-go/graphql/gqlerrors"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/graphql/executor"
)

// original digs the resolver's own error out of graphql-go's wrappers.
func original(fe gqlerrors.FormattedError) error {
	var err error = fe.OriginalError()
	for i := 0; i < 8 && err != nil; i++ {
		switch x := err.(type) {
		case *gqlerrors.Error:
			if x.OriginalError == nil {
				return nil
			}
			err = x.OriginalError
		case gqlerrors.FormattedError:
			o := x.OriginalError()
			if o == nil {
				return nil
			}
			err = o
		default:
			return err
		}
	}
	return err
}

// FormatError maps an execution error as Strapi's formatGraphqlError does:
// Forbidden/Unauthorized -> FORBIDDEN, ValidationError -> BAD_USER_INPUT,
// other Strapi errors -> STRAPI_<NAME>, anything else -> a bare
// "Internal Server Error" (the cause goes to the log only).
func (s *Builder) FormatError(fe gqlerrors.FormattedError) executor.Error {
	out := executor.Error{Message: fe.Message, Locations: fe.Locations, Path: fe.Path}
	err := original(fe)
	var ee *errs.Error
	var pe *policyError
	switch {
	case err == nil:
		code := "INTERNAL_SERVER_ERROR"
		if strings.HasPrefix(fe.Message, "Variable \"") || strings.HasPrefix(fe.Message, "Argument \"") {
			code = "BAD_USER_INPUT"
		}
		out.Extensions = map[string]any{"code": code}
	case errors.As(err, &pe):
		out.Message = pe.msg
		out.Extensions = map[string]any{"code": "FORBIDDEN",
			"error": map[string]any{"name": "PolicyError", "message": pe.msg, "details": map[string]any{}}}
	case errors.As(err, &ee):
		name, msg := ee.Name(), ee.Message
		code := "STRAPI_" + upperSnake(name)
		switch ee.Kind {
		case errs.KindForbidden, errs.KindUnauthorized:
			code = "FORBIDDEN"
			if ee.Kind == errs.KindForbidden {
				msg = "Forbidden access"
			}
		case errs.KindValidation:
			code = "BAD_USER_INPUT"
		case errs.KindInternal:
			code, msg = "INTERNAL_SERVER_ERROR", "Internal Server Error"
			s.log.Error("graphql resolver failed", "path", fe.Path, "err", err)
		}
		out.Message = msg
		info := map[string]any{"name": name, "message": msg}
		if ee.HasDetails() {
			if ee.Details != nil {
				info["details"] = ee.Details
			} else {
				info["details"] = map[string]any{}
			}
		}
		out.Extensions = map[string]any{"code": code}
		if ee.Kind != errs.KindInternal {
			out.Extensions["error"] = info
		}
	default:
		var xe gqlerrors.ExtendedError
		if errors.As(err, &xe) {
			out.Message = xe.Error()
			out.Extensions = xe.Extensions()
			break
		}
		out.Extensions = map[string]any{"code": "INTERNAL_SERVER_ERROR"}
		if strings.HasPrefix(err.Error(), "Cannot return null for non-nullable field") {
			// A draft without a required value, read with PREVIEW: said as
			// Apollo says it (nothing internal to hide).
			out.Message = err.Error()
			break
		}
		s.log.Error("graphql resolver failed", "path", fe.Path, "err", err)
		out.Message = "Internal Server Error"
	}
	return out
}

// upperSnake turns NotFoundError into NOT_FOUND_ERROR.
func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}
