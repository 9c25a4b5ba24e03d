// Package graphql serves the GraphQL contract of Strapi 4's plugin: a
// shadow-CRUD schema generated at run time from each registry snapshot with
// graphql-go, resolvers that go through the engine (same permissions,
// validation, draft & publish, locales and filters as REST), limits,
// Strapi's error format, a self-contained playground and the
// customisation API.
package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/graphql/gqlschema"
	"github.com/stratum-cms/stratum/httperr"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/upload"
)

// Config is `graphql.config` of config/plugins.json, plus the environment.
type Config struct {
	Endpoint         string       `json:"endpoint"`
	ShadowCRUD       *bool        `json:"shadowCRUD"`
	PlaygroundAlways bool         `json:"playgroundAlways"`
	DepthLimit       int          `json:"depthLimit"`  // 10 when 0; -1 turns the limit off
	AmountLimit      int          `json:"amountLimit"` // 100 when 0
	ApolloServer     ApolloServer `json:"apolloServer"`
	// Hostile-document limits (Stratum's own keys).
	MaxBodySize int64 `json:"maxBodySize"` // bytes, 1 MiB when 0
	MaxFields   int   `json:"maxFields"`   // field selections once fragments are expanded, 2000 when 0
	MaxAliases  int   `json:"maxAliases"`  // 200 when 0
	// MaxCost bounds an operation's estimated cost (cost.go): 100000 when
	// 0, -1 turns the limit off.
	MaxCost int `json:"maxCost"`
	// MaxBatch bounds the operations of one batched request (10 when 0;
	// -1 refuses batches).
	MaxBatch int `json:"maxBatch"`
	// Declarative customisations: contentTypes and resolversConfig (see
	// gqlschema/customize.go).
	gqlschema.Declarative
	// Env is development, staging or production (STRATUM_ENV).
	Env string `json:"-"`
	// TrustProxy takes the client address of login rate limits from
	// X-Forwarded-For (server.json "proxy"), as REST does.
	TrustProxy bool         `json:"-"`
	Logger     *slog.Logger `json:"-"`
	// Uploads, when set, serves the upload plugin's operations and
	// multipart requests (files as Upload variables).
	Uploads *upload.Service `json:"-"`
}

// ApolloServer holds the options Strapi passes to Apollo Server.
type ApolloServer struct {
	Tracing bool `json:"tracing"`
	// Introspection nil means on, except in production.
	Introspection *bool `json:"introspection"`
}

func (c *Config) shadowCRUD() bool { return c.ShadowCRUD == nil || *c.ShadowCRUD }

func (c *Config) amountLimit() int {
	if c.AmountLimit <= 0 {
		return 100
	}
	return c.AmountLimit
}

func (c *Config) schemaOptions() gqlschema.Options {
	return gqlschema.Options{ShadowCRUD: c.shadowCRUD(), AmountLimit: c.amountLimit(), Tracing: c.ApolloServer.Tracing,
		TrustProxy: c.TrustProxy, Logger: c.Logger, Uploads: c.Uploads}
}

func (c *Config) depthLimit() int {
	if c.DepthLimit == 0 {
		return 10
	}
	return c.DepthLimit
}

func (c *Config) maxBody() int64 {
	if c.MaxBodySize <= 0 {
		return 1 << 20
	}
	return c.MaxBodySize
}

func (c *Config) maxBatch() int {
	if c.MaxBatch == 0 {
		return 10
	}
	return c.MaxBatch
}

func (c *Config) maxFields() int {
	if c.MaxFields <= 0 {
		return 2000
	}
	return c.MaxFields
}

func (c *Config) maxAliases() int {
	if c.MaxAliases <= 0 {
		return 200
	}
	return c.MaxAliases
}

func (c *Config) maxCost() int {
	if c.MaxCost == 0 {
		return 100000
	}
	return c.MaxCost
}

func (c *Config) playground() bool { return c.Env != "production" || c.PlaygroundAlways }

func (c *Config) introspection() bool {
	if c.ApolloServer.Introspection != nil {
		return *c.ApolloServer.Introspection
	}
	return c.Env != "production"
}

// EndpointPath is where the lead mounts the handler: /graphql by default.
func (c *Config) EndpointPath() string {
	if c.Endpoint == "" {
		return "/graphql"
	}
	return "/" + strings.Trim(c.Endpoint, "/")
}

// LoadConfig reads `graphql.config` from <dir>/config/plugins.json; a
// missing file or key gives the defaults.
func LoadConfig(dir string) (Config, error) {
	var file struct {
		GraphQL struct {
			Config json.RawMessage `json:"config"`
		} `json:"graphql"`
	}
	var c Config
	b, err := os.ReadFile(filepath.Join(dir, "config", "plugins.json"))
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return c, fmt.Errorf("config/plugins.json: %w", err)
	}
	if len(file.GraphQL.Config) > 0 {
		if err := json.Unmarshal(file.GraphQL.Config, &c); err != nil {
			return c, fmt.Errorf("config/plugins.json: graphql.config: %w", err)
		}
	}
	return c, nil
}

// Server is the GraphQL endpoint. It is an http.Handler.
type Server struct {
	cfg     Config
	eng     *engine.Engine
	authn   auth.Authenticator
	ext     *Extensions
	builder *gqlschema.Builder
	log     *slog.Logger

	// part is this server's schema in every registry snapshot: it is
	// built with the snapshot, so a change it cannot build is refused.
	part engine.Part
	// cur is the schema rebuilt after a customisation changed the
	// extensions since the snapshot was built.
	mu  sync.Mutex
	cur atomic.Pointer[built]
	// slow turns the fast executor off (tests compare both); fastRuns
	// counts the operations it answered.
	slow     bool
	fastRuns atomic.Int64
	// persistedQ holds automatic persisted queries by hash.
	persistedQ persistedQueries
}

// built is one GraphQL schema with what it was built from. Requests take
// the current one once and use it to the end.
type built struct {
	*gqlschema.Built
	// fallback serves when this build failed (the previous good one).
	fallback *built
	docs     docCache
}

// New builds the GraphQL server and its schema for the registry's current
// snapshot; from then on every snapshot carries its GraphQL schema, built
// before the schema change that makes it is committed. accounts may be nil:
// register, login and me are then left out. A change of the customisations
// rebuilds the schema on next use.
func New(cfg Config, eng *engine.Engine, authn auth.Authenticator, accounts Accounts) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ext := NewExtensions()
	s := &Server{cfg: cfg, eng: eng, authn: authn, ext: ext, log: cfg.Logger,
		builder: gqlschema.NewBuilder(cfg.schemaOptions(), eng, accounts, ext)}
	if err := cfg.Declarative.Apply(s.ext); err != nil {
		return nil, fmt.Errorf("config/plugins.json: graphql.config: %w", err)
	}
	part, err := eng.Registry.Derive("GraphQL", func(ms *models.Schema) (any, error) {
		nb := s.buildFor(ms)
		if nb.Err != nil {
			return nil, nb.Err
		}
		return nb, nil
	})
	if err != nil {
		return nil, err
	}
	s.part = part
	return s, nil
}

// Extensions is the customisation service.
func (s *Server) Extensions() *Extensions { return s.ext }

// Config returns the configuration the server runs with.
func (s *Server) Config() Config { return s.cfg }

// Rebuild builds the schema of a snapshot now and installs it (requests in
// flight finish on the one they hold). Use it at start-up to fail fast, and
// after a schema change to pay the build before the next request.
func (s *Server) Rebuild(ms *models.Schema) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	nb := s.buildFor(ms)
	if nb.Err != nil {
		return nb.Err
	}
	s.cur.Store(nb)
	return nil
}

func (s *Server) buildFor(ms *models.Schema) *built {
	return &built{Built: s.builder.Build(ms)}
}

// current returns the schema of the registry's current snapshot; when the
// customisations changed since it was built, a schema rebuilt with them. A
// rebuild that fails keeps the previous schema serving and is logged.
func (s *Server) current() (*built, error) {
	snap := s.eng.Registry.Current()
	v := s.builder.CustVersion()
	part, _ := snap.Part(s.part).(*built)
	if part != nil && part.Cust == v {
		return part, nil
	}
	b := s.cur.Load()
	if b == nil || b.Models != snap.Schema || b.Cust != v {
		s.mu.Lock()
		b = s.cur.Load()
		if b == nil || b.Models != snap.Schema || b.Cust != v {
			nb := s.buildFor(snap.Schema)
			if nb.Err != nil {
				s.log.Error("graphql schema build failed; the previous schema keeps serving", "err", nb.Err)
				switch {
				case part != nil: // the snapshot's own, before the customisation
					nb.fallback = part
				case b != nil && b.Err == nil:
					nb.fallback = b
				case b != nil:
					nb.fallback = b.fallback
				}
			}
			s.cur.Store(nb)
			b = nb
		}
		s.mu.Unlock()
	}
	if b.Err != nil {
		if b.fallback != nil {
			return b.fallback, nil
		}
		return nil, b.Err
	}
	return b, nil
}

// Schema returns the GraphQL schema currently served (for tests and tools).
func (s *Server) Schema() (gql.Schema, error) {
	b, err := s.current()
	if err != nil {
		return gql.Schema{}, err
	}
	return b.Schema, nil
}

type params struct {
	Query         string          `json:"query"`
	Variables     json.RawMessage `json:"variables"`
	OperationName string          `json:"operationName"`
	Extensions    json.RawMessage `json:"extensions"`
	// uploads are the files of a multipart request, by variable path.
	uploads map[string]*gqlschema.Upload
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p params
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		q := r.URL.Query()
		if q.Get("query") == "" && q.Get("extensions") == "" {
			if s.cfg.playground() && strings.Contains(r.Header.Get("Accept"), "text/html") {
				s.playground(w, r)
				return
			}
			if s.cfg.playground() && r.Header.Get("Accept") == "" {
				s.playground(w, r)
				return
			}
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "GET query missing.", nil))
			return
		}
		p.Query, p.OperationName = q.Get("query"), q.Get("operationName")
		if v := q.Get("variables"); v != "" {
			p.Variables = json.RawMessage(v)
		}
		if v := q.Get("extensions"); v != "" {
			p.Extensions = json.RawMessage(v)
		}
	case http.MethodPost:
		if s.cfg.Uploads != nil && strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "multipart/form-data") {
			s.multipart(w, r)
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
			writeErrors(w, http.StatusUnsupportedMediaType, requestError(codeBadRequest,
				"POST body must be JSON (Content-Type: application/json)", nil))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.maxBody()))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				writeErrors(w, http.StatusRequestEntityTooLarge, requestError(codeTooLarge,
					fmt.Sprintf("Request body too large: the limit is %d bytes", s.cfg.maxBody()), nil))
				return
			}
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "Could not read the request body", nil))
			return
		}
		body = bytes.TrimSpace(body)
		if len(body) > 0 && r.Header.Get("Content-Type") == "" {
			writeErrors(w, http.StatusUnsupportedMediaType, requestError(codeBadRequest,
				"POST body must be JSON (Content-Type: application/json)", nil))
			return
		}
		if len(body) > 0 && body[0] == '[' {
			s.batch(w, r, body)
			return
		}
		if err := json.Unmarshal(body, &p); err != nil {
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "POST body is not a JSON object: "+err.Error(), nil))
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		writeErrors(w, http.StatusMethodNotAllowed, requestError(codeBadRequest, "Method Not Allowed", nil))
		return
	}
	principal, err := s.authn.Authenticate(r)
	if err != nil {
		writeRESTError(w, errs.From(err))
		return
	}
	s.run(w, r, &p, principal)
}

// run checks one operation's parameters and runs it.
func (s *Server) run(w http.ResponseWriter, r *http.Request, p *params, principal *auth.Principal) {
	if len(p.Extensions) > 0 {
		if e := s.persisted(p); e != nil {
			writeErrors(w, http.StatusOK, *e) // Apollo clients read the code and send the query
			return
		}
	}
	if strings.TrimSpace(p.Query) == "" {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "POST body missing a query: send {\"query\": \"...\"}", nil))
		return
	}
	// NUL and invalid UTF-8 never reach the database: not in the JSON,
	// nor written as \u0000 in the GraphQL source or its variables.
	for _, t := range []string{p.Query, string(p.Variables), p.OperationName} {
		err := engine.CheckJSONText([]byte(t), "request")
		if err == nil {
			err = engine.CheckText(t, "request")
		}
		if err != nil {
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, errs.From(err).Message, nil))
			return
		}
	}
	b, err := s.current()
	if err != nil {
		s.log.Error("graphql schema unavailable", "err", err)
		writeErrors(w, http.StatusInternalServerError, requestError("INTERNAL_SERVER_ERROR", "The GraphQL schema could not be built", nil))
		return
	}
	s.execute(w, r, b, p, principal)
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request, b *built, p *params, principal *auth.Principal) {
	var vars, rawVars map[string]any
	if len(p.Variables) > 0 && string(p.Variables) != "null" {
		d := json.NewDecoder(bytes.NewReader(p.Variables))
		d.UseNumber()
		if err := d.Decode(&rawVars); err != nil {
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "variables must be a JSON object", nil))
			return
		}
		_ = json.Unmarshal(p.Variables, &vars)
	}
	if len(p.uploads) > 0 {
		if err := placeUploads(p.uploads, rawVars, vars); err != nil {
			writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, err.Error(), nil))
			return
		}
	}
	pd := b.docs.get(p.Query)
	if pd == nil {
		pd = s.prepareDoc(b, p.Query)
		b.docs.put(p.Query, pd)
	}
	if pd.errs != nil {
		writeErrors(w, pd.status, pd.errs...)
		return
	}
	doc, nulls := pd.doc, pd.nulls
	xop := executor.NewOperation(&b.Schema, doc, p.OperationName, rawVars)
	rq := s.builder.NewRequest(b.Built, principal, r, xop, nulls)
	op := xop.Op
	if op != nil && op.Operation == ast.OperationTypeMutation && r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeErrors(w, http.StatusMethodNotAllowed, requestError(codeBadRequest, "Can only perform a mutation operation from a POST request.", nil))
		return
	}
	base := rq.Context(r.Context())
	// One budget of rows and bytes for every read the operation makes;
	// past it the answer is that one error, never partial data.
	ctx := s.eng.WithBudget(base)
	if s.fastEligible(op) {
		if out, _, ok := executor.Fast(ctx, xop, rq.Hooks()); ok {
			if s.overBudget(w, ctx) {
				return
			}
			s.fastRuns.Add(1)
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(out)
			return
		}
		rq.Reset()
		ctx = s.eng.WithBudget(base) // what the abandoned run read is not counted twice
	}
	if s.cfg.ApolloServer.Tracing {
		ctx = executor.StartTrace(ctx)
	}
	res := gql.Execute(gql.ExecuteParams{Schema: b.Schema, AST: doc, OperationName: p.OperationName, Args: vars, Context: ctx})
	if s.overBudget(w, ctx) {
		return
	}
	errs := make([]gqlError, 0, len(res.Errors))
	for _, e := range res.Errors {
		errs = append(errs, s.builder.FormatError(e))
	}
	status := http.StatusOK
	if res.Data == nil && len(errs) > 0 && len(errs[0].Path) == 0 {
		// An operation that could not start (unknown operation name,
		// variables of the wrong type) is a bad request, as in Apollo.
		status = http.StatusBadRequest
	}
	out := make([]byte, 0, 4096)
	out = append(out, '{')
	if len(errs) > 0 {
		j, _ := json.Marshal(errs)
		out = append(append(out, `"errors":`...), j...)
		out = append(out, ',')
	}
	out = append(out, `"data":`...)
	var sets []*ast.SelectionSet
	if op != nil {
		sets = []*ast.SelectionSet{op.SelectionSet}
	}
	if data, ok := res.Data.(map[string]any); ok {
		out = xop.EncodeObject(out, data, sets, xop.Root())
	} else {
		out = append(out, "null"...)
	}
	if len(res.Extensions) > 0 {
		j, _ := json.Marshal(res.Extensions)
		out = append(append(out, `,"extensions":`...), j...)
	}
	out = append(out, '}', '\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

type response struct {
	Errors     []gqlError     `json:"errors,omitempty"`
	Data       any            `json:"data"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

func writeErrors(w http.ResponseWriter, status int, errs ...gqlError) {
	writeJSON(w, status, &response{Errors: errs})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"errors":[{"message":"Internal Server Error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":null}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// writeRESTError answers an authentication failure as Strapi does on
// /graphql: an HTTP error in the REST envelope, before GraphQL runs.
func writeRESTError(w http.ResponseWriter, e *errs.Error) { httperr.Write(w, e) }

// Eng is the engine the server reads through.
func (s *Server) Eng() *engine.Engine { return s.eng }

// prepareDoc parses and validates a document against a schema build.
func (s *Server) prepareDoc(b *built, query string) *preparedDoc {
	src, nulls, err := prepare(query)
	if err != nil {
		return &preparedDoc{status: http.StatusBadRequest, errs: []gqlError{requestError(codeParse, "Syntax Error: "+err.Error(), nil)}}
	}
	doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(src), Name: "GraphQL request"})})
	if err != nil {
		fe := gqlerrors.FormatError(err)
		return &preparedDoc{status: http.StatusBadRequest, errs: []gqlError{requestError(codeParse, fe.Message, fe.Locations)}}
	}
	if e := s.checkShape(doc); e != nil {
		return &preparedDoc{status: http.StatusBadRequest, errs: []gqlError{*e}}
	}
	// The cost is checked first: validation itself is work a document can
	// make large.
	if e := s.checkCost(&b.Schema, doc); e != nil {
		return &preparedDoc{status: http.StatusBadRequest, errs: []gqlError{*e}}
	}
	rules := validationRules()
	if s.cfg.depthLimit() > 0 {
		rules = append(rules, depthRule(s.cfg.depthLimit()))
	}
	if !s.cfg.introspection() {
		rules = append(rules, noIntrospectionRule)
	}
	if vr := gql.ValidateDocument(&b.Schema, doc, rules); !vr.IsValid {
		errs := make([]gqlError, len(vr.Errors))
		for i, e := range vr.Errors {
			errs[i] = requestError(codeValidation, e.Message, e.Locations)
		}
		return &preparedDoc{status: http.StatusBadRequest, errs: errs}
	}
	return &preparedDoc{doc: doc, nulls: nulls}
}

// overBudget answers a 400 with the limit's error alone when the
// operation passed its budget of rows or bytes.
func (s *Server) overBudget(w http.ResponseWriter, ctx context.Context) bool {
	e := engine.BudgetError(ctx)
	if e == nil {
		return false
	}
	writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, e.Message, nil))
	return true
}
