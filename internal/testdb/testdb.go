// Package testdb gives tests their databases: SQLite always, and
// PostgreSQL (a private schema per test) when TEST_DATABASE_URL is set. It
// depends on no Stratum package but models, so every package's own tests
// can use it (testenv, which builds the whole app, cannot be imported by
// the packages the app is built from).
package testdb

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	_ "github.com/glebarez/go-sqlite"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/stratum-cms/stratum/models"
)

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
