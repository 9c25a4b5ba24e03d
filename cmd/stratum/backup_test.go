package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// tagProject writes a project with one type, tags, in a new folder.
func tagProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	schema := `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},
		"options":{"draftAndPublish":false},"attributes":{"name":{"type":"string"}}}`
	if err := os.MkdirAll(filepath.Join(dir, "src/api/tag/content-types/tag"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/api/tag/content-types/tag/schema.json"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestExportImportCommands: `stratum export --file` writes an archive (and
// nothing half written beside it), `stratum import --file` restores it into
// an empty project, refuses a project with content unless --force, and
// `stratum import` still takes `strapi` and says how to use both.
func TestExportImportCommands(t *testing.T) {
	from, to := tagProject(t), tagProject(t)
	if err := tokenCmd([]string{"create", "--name", "site", "--dir", from}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(from, "public/uploads"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(from, "public/uploads/a.txt"), []byte("bytes of a"), 0o644); err != nil {
		t.Fatal(err)
	}
	var prog bytes.Buffer
	progressOut = &prog
	defer func() { progressOut = os.Stderr }()
	archives := t.TempDir()
	file := filepath.Join(archives, "site.stratum.gz")
	var out bytes.Buffer
	if err := exportCmd([]string{"--file", file, "--dir", from}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "and 1 media files (10 bytes) to "+file) {
		t.Errorf("export said: %s", out.String())
	}
	if !strings.Contains(prog.String(), "export: stratum_api_tokens: 1 written in") {
		t.Errorf("export progress:\n%s", prog.String())
	}
	if fi, err := os.Stat(file); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Errorf("the archive's mode: %v", fi.Mode())
	}
	if entries, _ := os.ReadDir(archives); len(entries) != 1 {
		t.Errorf("beside the archive: %v", entries)
	}
	out.Reset()
	if err := importCmd([]string{"--file", file, "--dir", to}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "imported ") || !strings.Contains(out.String(), "1 media files (10 bytes)") {
		t.Errorf("import said: %s", out.String())
	}
	if b, err := os.ReadFile(filepath.Join(to, "public/uploads/a.txt")); err != nil || string(b) != "bytes of a" {
		t.Errorf("media restored: %q %v", b, err)
	}
	err := importCmd([]string{"--file", file, "--dir", to}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "already has 1 rows in stratum_api_tokens") {
		t.Errorf("import into a project with content: %v", err)
	}
	if err := importCmd([]string{"--file", file, "--dir", to, "--force"}, &bytes.Buffer{}); err != nil {
		t.Errorf("--force: %v", err)
	}
	// Through PostgreSQL and back, when there is one.
	if pg, ok := testdb.Databases(t)["postgres"]; ok {
		t.Setenv("DATABASE_URL", pg(t))
		viaPG := tagProject(t)
		if err := importCmd([]string{"--file", file, "--dir", viaPG}, &bytes.Buffer{}); err != nil {
			t.Fatalf("into PostgreSQL: %v", err)
		}
		again := filepath.Join(archives, "again.gz")
		if err := exportCmd([]string{"--file", again, "--dir", viaPG}, &bytes.Buffer{}); err != nil {
			t.Fatalf("from PostgreSQL: %v", err)
		}
		t.Setenv("DATABASE_URL", "")
		back := tagProject(t)
		out.Reset()
		if err := importCmd([]string{"--file", again, "--dir", back}, &out); err != nil {
			t.Fatalf("back to SQLite: %v", err)
		}
		if !strings.Contains(out.String(), "1 media files (10 bytes)") {
			t.Errorf("back to SQLite: %s", out.String())
		}
		if err := importCmd([]string{"--file", again, "--dir", back}, &bytes.Buffer{}); err == nil ||
			!strings.Contains(err.Error(), "already has 1 rows in stratum_api_tokens") {
			t.Errorf("the token did not come back: %v", err)
		}
	}
	if err := importCmd([]string{"--file", filepath.Join(archives, "missing"), "--dir", to}, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing archive: %v", err)
	}
	if err := exportCmd([]string{"--dir", from}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "usage: stratum export --file") {
		t.Errorf("export without --file: %v", err)
	}
	if err := importCmd([]string{"nothing"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "stratum import --file FILE") {
		t.Errorf("import with a bad argument: %v", err)
	}
}
