// Package gqlschema builds the GraphQL schema of a registry snapshot, as
// Strapi's GraphQL plugin generates it (shadow CRUD, users-permissions,
// i18n, the customisation API), and holds its resolvers: they turn
// selections into query.Query values and call the engine, with the same
// permissions, validation, draft & publish, locales and filters as REST.
// It knows nothing of HTTP beyond the request it is handed.
package gqlschema

import (
	"context"
	"io"
	"log/slog"
	"net/http"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
)

// Options are the parts of the plugin's configuration the schema follows.
type Options struct {
	ShadowCRUD  bool
	AmountLimit int // 100 when 0
	// Tracing adds Apollo tracing to graphql-go's executor.
	Tracing bool
	// TrustProxy takes the client address of login rate limits from
	// X-Forwarded-For, as REST does.
	TrustProxy bool
	Logger     *slog.Logger
	// Uploads is the media library: with it, the upload plugin's queries
	// and mutations are served.
	Uploads *upload.Service
}

func (o *Options) shadowCRUD() bool { return o.ShadowCRUD }

func (o *Options) amountLimit() int {
	if o.AmountLimit <= 0 {
		return 100
	}
	return o.AmountLimit
}

// Builder builds the schema of snapshots with one configuration and one
// set of customisations.
type Builder struct {
	cfg      Options
	eng      *engine.Engine
	accounts Accounts
	ext      *Extensions
	log      *slog.Logger
}

// NewBuilder makes a builder; accounts may be nil (register, login and me
// are then left out).
func NewBuilder(opts Options, eng *engine.Engine, accounts Accounts, ext *Extensions) *Builder {
	fixIntrospection()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Builder{cfg: opts, eng: eng, accounts: accounts, ext: ext, log: log}
}

// Built is one GraphQL schema with what it was built from.
type Built struct {
	Models *models.Schema
	// Cust is the version of the customisations it was built with.
	Cust   int64
	Schema gql.Schema
	Err    error
	b      *builder
}

// Build builds the schema of a snapshot with the current customisations.
func (s *Builder) Build(ms *models.Schema) *Built {
	cs := s.ext.snapshot()
	nb := &Built{Models: ms, Cust: cs.version}
	nb.Schema, nb.b, nb.Err = s.build(ms, cs)
	return nb
}

// CustVersion is the version of the customisations now.
func (s *Builder) CustVersion() int64 { return s.ext.version.Load() }

// Request is one HTTP request's GraphQL state: its caller, its variables
// and the loaders that batch its reads. Resolvers find it in the context.
type Request = request

// NewRequest starts a request on a built schema; op is the operation it
// runs and nulls the object fields the document wrote `null` (see the
// handler's prepare).
func (s *Builder) NewRequest(bt *Built, principal *auth.Principal, r *http.Request, op *executor.Operation, nulls map[int][]string) *Request {
	return &request{srv: s, b: bt.b, principal: principal, http: r, vars: op.Vars, nulls: nulls,
		fragments: op.Fragments, deferred: map[*ast.Field]bool{}, loaders: map[loaderKey]*batch{}}
}

// Context is ctx carrying the request, for the resolvers.
func (rq *request) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, requestKey, rq)
}

// Reset forgets what an abandoned run of the operation loaded, before it
// runs again.
func (rq *request) Reset() {
	rq.deferred, rq.loaders, rq.items = map[*ast.Field]bool{}, map[loaderKey]*batch{}, nil
}

// Hooks is what the fast executor asks of this request's resolvers.
func (rq *request) Hooks() executor.Hooks { return hooks{rq} }
