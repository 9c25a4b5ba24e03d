// Package testenv runs the whole stack (app.Open: store, engine, auth,
// uploads, REST and GraphQL) behind an httptest server on a fresh database: SQLite always, and PostgreSQL when
// TEST_DATABASE_URL is set. Every HTTP test uses it, so each behaviour is
// checked on both databases.
package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
)

// Env is one running stack.
type Env struct {
	T      testing.TB
	URL    string
	App    *app.App
	Engine *engine.Engine
	Store  *store.Store
	Auth   *auth.Service
	DB     string // "sqlite" or "postgres"
}

// Options tune an Env.
type Options struct {
	// Dir is the project folder; default: examples/blog.
	Dir string
	// Public overrides the public permissions of the project.
	Public []string
	// Permissions, when set, replaces config/permissions.json (roles as code).
	Permissions auth.Permissions
	Config      engine.Config
	Rest        rest.Config
	// Auth tunes users-permissions (rate limit, clock, JWT lifetime, the
	// environment). Secrets are generated in the test database unless
	// Auth.Getenv provides them.
	Auth auth.Config
	// Upload tunes the media library (its Dir is always a temp folder).
	Upload upload.Config
	// Tune, when set, changes the rest of the configuration last.
	Tune func(*app.Config)
}

// Root is the repository root.
func Root() string { return testdb.Root() }

// Databases lists the database URLs to test on, by name (see testdb).
func Databases(t testing.TB) map[string]func(testing.TB) string { return testdb.Databases(t) }

// Each runs fn once per database as subtests named after them.
func Each(t *testing.T, fn func(t *testing.T, dbURL func(testing.TB) string)) { testdb.Each(t, fn) }

// AllActions lists find, findOne, create, update and delete of every type
// of a project (see testdb).
func AllActions(t testing.TB, dir string) []string { return testdb.AllActions(t, dir) }

// Start builds a stack on dbURL with app.Open, the constructor the binary
// uses; the options only change its configuration.
func Start(t testing.TB, dbURL string, o Options) *Env {
	t.Helper()
	dir := o.Dir
	if dir == "" {
		dir = filepath.Join(Root(), "examples", "blog")
	}
	uploads := filepath.Join(t.TempDir(), "uploads")
	a, err := app.Open(dir, app.Options{
		Getenv: func(string) string { return "" }, // the test's environment never leaks in
		Tune: func(c *app.Config) {
			c.DatabaseURL = dbURL
			if o.Permissions != nil {
				c.Auth.Permissions = o.Permissions
			}
			if o.Public != nil {
				c.Auth.Permissions = auth.Permissions{"public": o.Public}
			}
			// Tests set the content API's settings themselves, whatever
			// the project's files say.
			c.Engine = o.Config
			if c.Engine.MaxLimit == 0 {
				c.Engine.MaxLimit = 100
			}
			c.Engine.WithCount = true
			c.Rest, c.Proxy = o.Rest, o.Rest.TrustProxy
			acfg := o.Auth
			acfg.Permissions = c.Auth.Permissions
			if acfg.Getenv == nil {
				acfg.Getenv = func(string) string { return "" }
			}
			if acfg.Env == "" {
				acfg.Env = "development"
			}
			if acfg.RegisterAllowedFields == nil { // the project's plugins.json
				acfg.RegisterAllowedFields = c.Auth.RegisterAllowedFields
			}
			c.Auth = acfg
			// The project's provider (plugins.json) stays unless the
			// test names one.
			provider, s3 := c.Upload.Provider, c.Upload.S3
			c.Upload = o.Upload
			c.Upload.Dir = uploads
			if c.Upload.Provider == "" {
				c.Upload.Provider, c.Upload.S3 = provider, s3
			}
			if o.Tune != nil {
				o.Tune(c)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.HTTP)
	t.Cleanup(srv.Close)
	return &Env{T: t, URL: srv.URL, App: a, Engine: a.Engine, Store: a.Store, Auth: a.Auth, DB: a.Store.Dialect()}
}

// Response is a decoded HTTP answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Do sends a request; body may be nil, a string (sent as is) or a value
// (sent as JSON).
func (e *Env) Do(method, path string, body any, headers ...string) *Response {
	e.T.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.URL+path, r)
	if err != nil {
		e.T.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	out := &Response{Status: res.StatusCode, Header: res.Header}
	out.Body, _ = io.ReadAll(res.Body)
	if len(out.Body) > 0 {
		_ = json.Unmarshal(out.Body, &out.JSON)
	}
	return out
}

// Data returns body.data as an object.
func (r *Response) Data() map[string]any {
	m, _ := r.JSON["data"].(map[string]any)
	return m
}

// List returns body.data as a list of objects.
func (r *Response) List() []map[string]any {
	arr, _ := r.JSON["data"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out
}

// ErrorName returns body.error.name.
func (r *Response) ErrorName() string {
	e, _ := r.JSON["error"].(map[string]any)
	s, _ := e["name"].(string)
	return s
}

// ErrorMessage returns body.error.message.
func (r *Response) ErrorMessage() string {
	e, _ := r.JSON["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}
