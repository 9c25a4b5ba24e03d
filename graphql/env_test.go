package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
	"github.com/stratum-cms/stratum/store"
)

// env is the whole stack (store, engine, auth, graphql) behind httptest.
type env struct {
	t     testing.TB
	URL   string
	Srv   *Server
	Eng   *engine.Engine
	Store *store.Store
}

type options struct {
	dir      string
	public   []string // nil: every action of every type
	cfg      Config
	accounts Accounts
	authn    auth.Authenticator
	setup    func(*Server)
}

func blogDir() string { return filepath.Join(testdb.Root(), "examples", "blog") }

func start(t testing.TB, dbURL string, o options) *env {
	t.Helper()
	dir := o.dir
	if dir == "" {
		dir = blogDir()
	}
	schema, err := models.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(context.Background(), schema); err != nil {
		t.Fatal(err)
	}
	public := o.public
	if public == nil {
		public = testdb.AllActions(t, dir)
	}
	eng := engine.New(engine.NewRegistry(schema), st, engine.Config{MaxLimit: 100, WithCount: true, Locales: []string{"en", "fr"}})
	authn := o.authn
	if authn == nil {
		authn = auth.NewStaticAuth(auth.Permissions{"public": public})
	}
	srv, err := New(o.cfg, eng, authn, o.accounts)
	if err != nil {
		t.Fatal(err)
	}
	if o.setup != nil {
		o.setup(srv)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &env{t: t, URL: hs.URL, Srv: srv, Eng: eng, Store: st}
}

// each runs fn on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
func each(t *testing.T, o options, fn func(t *testing.T, e *env)) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		fn(t, start(t, db(t), o))
	})
}

type result struct {
	Status int
	Body   []byte
	JSON   map[string]any
}

func (e *env) post(body any, headers ...string) *result {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(http.MethodPost, e.URL+"/graphql", r)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return e.do(req)
}

func (e *env) do(req *http.Request) *result {
	e.t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out := &result{Status: res.StatusCode}
	out.Body, _ = io.ReadAll(res.Body)
	d := json.NewDecoder(bytes.NewReader(out.Body))
	d.UseNumber()
	_ = d.Decode(&out.JSON)
	return out
}

// q runs a query and returns the response.
func (e *env) q(query string, vars map[string]any, headers ...string) *result {
	e.t.Helper()
	body := map[string]any{"query": query}
	if vars != nil {
		body["variables"] = vars
	}
	return e.post(body, headers...)
}

// ok runs a query that must succeed and returns its data.
func (e *env) ok(query string, vars map[string]any, headers ...string) map[string]any {
	e.t.Helper()
	r := e.q(query, vars, headers...)
	if r.Status != 200 || r.JSON["errors"] != nil {
		e.t.Fatalf("query failed: %d %s\n%s", r.Status, r.Body, query)
	}
	d, _ := r.JSON["data"].(map[string]any)
	return d
}

// get walks a decoded JSON value: get(v, "articles", "data", 0, "id").
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func list(v any, path ...any) []any {
	l, _ := get(v, path...).([]any)
	return l
}

func str(v any, path ...any) string {
	switch x := get(v, path...).(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case nil:
		return ""
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// errCode is extensions.code of the first error.
func (r *result) errCode() string { return str(r.JSON, "errors", 0, "extensions", "code") }

func (r *result) errMessage() string { return str(r.JSON, "errors", 0, "message") }

// seed creates a document through the engine and returns its documentId.
func (e *env) seed(plural string, data map[string]any, draft ...bool) string {
	e.t.Helper()
	c, ok := e.Eng.Route(plural)
	if !ok {
		e.t.Fatalf("no type %s", plural)
	}
	opt := engine.WriteOptions{}
	if len(draft) > 0 && draft[0] {
		opt.Status = query.Draft
	}
	d, err := e.Eng.Create(context.Background(), engine.AllowAll{}, c, jsonNumbers(data), opt)
	if err != nil {
		e.t.Fatalf("seed %s: %v", plural, err)
	}
	return d.DocumentID
}

// jsonNumbers makes Go numbers json.Number, as a decoded request body has.
func jsonNumbers(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	_ = d.Decode(&out)
	return out
}

// with serves another GraphQL server over the same stack.
func (e *env) with(srv *Server) *env {
	hs := httptest.NewServer(srv)
	e.t.Cleanup(hs.Close)
	return &env{t: e.t, URL: hs.URL, Srv: srv, Eng: e.Eng, Store: e.Store}
}

func dbSQLite(t testing.TB) string { return testdb.Databases(t)["sqlite"](t) }
