package testdb

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// SharedDir is ../shared/<name> beside the repository (the session's shared
// material, such as the Strapi 5 database dump); the test skips when it is
// absent.
func SharedDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(Root(), "..", "shared", name)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s is absent (the shared material beside the repository): %v", dir, err)
	}
	return dir
}

// LoadedPostgres creates a fresh PostgreSQL database on TEST_DATABASE_URL's
// server, loads a pg_dump file into it with psql, and answers its URL; the
// database is dropped when the test ends. The test skips without
// TEST_DATABASE_URL or psql.
func LoadedPostgres(t testing.TB, prefix, dump string) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL is not set: no PostgreSQL server to load the dump into")
	}
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not on PATH (apt-get install postgresql-client): cannot load the dump")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := prefix + "_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		db.Close()
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		db.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	q := u.Query()
	q.Del("search_path")
	u.RawQuery = q.Encode()
	// pg_dump's \restrict lines (a guard against a malicious server) are
	// unknown to psql before 15.14: they go, the SQL stays.
	dumpText, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(dumpText), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "\\restrict") && !strings.HasPrefix(l, "\\unrestrict") {
			kept = append(kept, l)
		}
	}
	file := filepath.Join(t.TempDir(), filepath.Base(dump))
	if err := os.WriteFile(file, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(psql, "-q", "-v", "ON_ERROR_STOP=1", "-d", u.String(), "-f", file).CombinedOutput()
	if err != nil {
		t.Fatalf("psql -f %s: %v\n%s", dump, err, out)
	}
	return u.String()
}

// SQLiteFile makes a SQLite database file from statements (each run with
// its arguments) and answers its path.
func SQLiteFile(t testing.TB, stmts []Stmt) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "strapi.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s.SQL, s.Args...); err != nil {
			t.Fatalf("%s: %v", s.SQL, err)
		}
	}
	return path
}

// Stmt is one SQL statement and its arguments.
type Stmt struct {
	SQL  string
	Args []any
}
