// Package testenv runs the whole stack (store, engine, auth, rest) behind an
// httptest server on a fresh database: SQLite always, and PostgreSQL when
// TEST_DATABASE_URL is set. Every HTTP test uses it, so each behaviour is
// checked on both databases.
package testenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/rest"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/upload"
)

// Env is one running stack.
type Env struct {
	T      testing.TB
	URL    string
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
}

// Root is the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Databases lists the database URLs to test on, by name. The PostgreSQL
// URL gets a private schema per call, dropped when the test ends.
func Databases(t testing.TB) map[string]func(testing.TB) string {
	dbs := map[string]func(testing.TB) string{
		"sqlite": func(t testing.TB) string { return filepath.Join(t.TempDir(), "data.db") },
	}
	if base := os.Getenv("TEST_DATABASE_URL"); base != "" {
		dbs["postgres"] = func(t testing.TB) string { return pgSchema(t, base) }
	}
	return dbs
}

// Each runs fn once per database as subtests named after them.
func Each(t *testing.T, fn func(t *testing.T, dbURL func(testing.TB) string)) {
	dbs := Databases(t)
	for _, name := range []string{"sqlite", "postgres"} {
		mk, ok := dbs[name]
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) { fn(t, mk) })
	}
}

func pgSchema(t testing.TB, base string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
		db.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Start builds a stack on dbURL.
func Start(t testing.TB, dbURL string, o Options) *Env {
	t.Helper()
	dir := o.Dir
	if dir == "" {
		dir = filepath.Join(Root(), "examples", "blog")
	}
	types, comps, err := models.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	perms, err := auth.LoadPermissions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o.Permissions != nil {
		perms = o.Permissions
	}
	if o.Public != nil {
		perms = auth.Permissions{"public": o.Public}
	}
	cfg := o.Config
	if cfg.MaxLimit == 0 {
		cfg.MaxLimit = 100
	}
	if !cfg.WithCount {
		cfg.WithCount = true
	}
	eng, err := engine.Boot(context.Background(), st, engine.SchemaFiles{Types: types, Components: comps}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	acfg := o.Auth
	acfg.Permissions = perms
	acfg.Actions = func() []string { return auth.SchemaActions(eng.Registry.Current().Schema) }
	if acfg.Getenv == nil {
		acfg.Getenv = func(string) string { return "" } // the test's environment never leaks in
	}
	if acfg.Env == "" {
		acfg.Env = "development"
	}
	acfg.Log = log
	svc, err := auth.New(context.Background(), st.GORM(), acfg)
	if err != nil {
		t.Fatal(err)
	}
	up, err := upload.New(context.Background(), st, upload.Config{Dir: filepath.Join(t.TempDir(), "uploads")})
	if err != nil {
		t.Fatal(err)
	}
	eng.UseMedia(up)
	rcfg := o.Rest
	rcfg.Uploads = up
	srv := httptest.NewServer(rest.New(rcfg, eng, svc, log))
	t.Cleanup(srv.Close)
	return &Env{T: t, URL: srv.URL, Engine: eng, Store: st, Auth: svc, DB: st.Dialect()}
}

// AllActions lists find, findOne, create, update and delete of every type
// of a project: full public access for tests of behaviour other than auth.
func AllActions(t testing.TB, dir string) []string {
	if dir == "" {
		dir = filepath.Join(Root(), "examples", "blog")
	}
	s, err := models.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ct := range s.Types {
		for _, a := range []string{"find", "findOne", "create", "update", "delete"} {
			out = append(out, ct.Action(a))
		}
	}
	return out
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
