package graphql

import "github.com/graphql-go/graphql/language/ast"

// fastEligible tells whether the fast executor may try an operation: a
// query, when tracing (which graphql-go's executor does) is off.
func (s *Server) fastEligible(op *ast.OperationDefinition) bool {
	return op != nil && op.Operation == ast.OperationTypeQuery && !s.cfg.ApolloServer.Tracing && !s.slow
}
