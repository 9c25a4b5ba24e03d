package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// TestImportStrapiCommand runs `stratum import strapi` twice on a small
// Strapi database (SQLite) into a project's embedded database: the report
// counts the rows, progress lines go to the progress writer, and the
// second run writes the same rows again.
func TestImportStrapiCommand(t *testing.T) {
	dir := t.TempDir()
	schema := `{"kind":"collectionType","collectionName":"tags","info":{"singularName":"tag","pluralName":"tags"},
		"options":{"draftAndPublish":false},"attributes":{"name":{"type":"string"}}}`
	if err := os.MkdirAll(filepath.Join(dir, "src/api/tag/content-types/tag"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/api/tag/content-types/tag/schema.json"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	from := testdb.SQLiteFile(t, []testdb.Stmt{
		{SQL: `CREATE TABLE strapi_core_store_settings (id integer primary key, key varchar, value text)`},
		{SQL: `CREATE TABLE tags (id integer primary key, document_id varchar, name varchar, created_at datetime, updated_at datetime,
			published_at datetime, locale varchar)`},
		{SQL: `INSERT INTO tags VALUES (3, 'tttttttttttttttttttttt03', 'three', 1795000000000, 1795000000000, 1795000000000, NULL),
			(9, 'tttttttttttttttttttttt09', 'nine', 1795000000000, 1795000000000, 1795000000000, NULL)`},
		{SQL: `CREATE TABLE upload_folders (id integer primary key, name varchar)`},
		{SQL: `INSERT INTO upload_folders VALUES (1, 'API Uploads')`},
	})
	var prog bytes.Buffer
	progressOut = &prog
	defer func() { progressOut = os.Stderr }()
	for run := 1; run <= 2; run++ {
		var out bytes.Buffer
		prog.Reset()
		if err := importCmd([]string{"strapi", "--from", from, "--dir", dir}, &out); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		report := out.String()
		for _, want := range []string{"api::tag.tag                             2", "upload_folders (1 rows): media library folders are not imported"} {
			if !strings.Contains(report, want) {
				t.Errorf("run %d: the report lacks %q:\n%s", run, want, report)
			}
		}
		if !strings.Contains(prog.String(), "import: api::tag.tag: 2 written in") {
			t.Errorf("run %d: progress:\n%s", run, prog.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".tmp")); err != nil {
		t.Errorf("the embedded database was not made: %v", err)
	}
	// A project with an admin of its own: refused (the admin would be
	// overwritten by Strapi's admin 1).
	dir2 := t.TempDir()
	if err := os.CopyFS(dir2, os.DirFS(filepath.Join(dir, "src", ".."))); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(filepath.Join(dir2, ".tmp"))
	if err := adminCmd([]string{"create", "--email", "own@example.com", "--password", "Own-admin-1", "--dir", dir2}); err != nil {
		t.Fatal(err)
	}
	err := importCmd([]string{"strapi", "--from", from, "--dir", dir2}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "1 rows in stratum_admin_users, and it did not come from an import") {
		t.Errorf("an import into a project with its own admin: %v", err)
	}

	// Another source into this project: refused, unless forced.
	other := testdb.SQLiteFile(t, []testdb.Stmt{{SQL: `CREATE TABLE strapi_core_store_settings (id integer primary key, key varchar, value text)`}})
	err = importCmd([]string{"strapi", "--from", other, "--dir", dir}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "already has 2 rows in tags") || !strings.Contains(err.Error(), "another import") {
		t.Errorf("an import from another source into an imported project: %v", err)
	}
	if err := importCmd([]string{"strapi", "--from", other, "--dir", dir, "--force"}, &bytes.Buffer{}); err != nil {
		t.Errorf("--force: %v", err)
	}
	if err := importCmd([]string{"strapi", "--dir", dir}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "--from is required") {
		t.Errorf("without --from: %v", err)
	}
	if err := importCmd([]string{"strapi", "--from", filepath.Join(dir, "nothing.db"), "--dir", dir}, &bytes.Buffer{}); err == nil {
		t.Error("a missing Strapi database was accepted")
	}
}
