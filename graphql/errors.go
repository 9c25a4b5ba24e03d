package graphql

import (
	"github.com/graphql-go/graphql/language/location"
	"github.com/stratum-cms/stratum/graphql/executor"
)

type gqlError = executor.Error

// Codes of request-level failures, as Apollo names them.
const (
	codeParse      = "GRAPHQL_PARSE_FAILED"
	codeValidation = "GRAPHQL_VALIDATION_FAILED"
	codeBadRequest = "BAD_REQUEST"
	codeTooLarge   = "PAYLOAD_TOO_LARGE"
)

func requestError(code, msg string, locs []location.SourceLocation) gqlError {
	return gqlError{Message: msg, Locations: locs, Extensions: map[string]any{"code": code}}
}
