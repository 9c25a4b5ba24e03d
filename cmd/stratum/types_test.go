package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/query"
)

// TestTypesExport: a type made through the admin path becomes a schema file;
// after a restart it is served from the file with its documents.
func TestTypesExport(t *testing.T) {
	dir := copyBlog(t)
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	body := `{"kind":"collectionType","collectionName":"memos","info":{"singularName":"memo","pluralName":"memos"},
	"attributes":{"text":{"type":"text","renamedFrom":"body"}}}`
	ctx := context.Background()
	if _, err := a.Engine.ChangeSchema(ctx, engine.SchemaChange{Mode: engine.ChangeCreate, Kind: engine.KindContentType, UID: "api::memo.memo", Body: []byte(body)}); err != nil {
		t.Fatal(err)
	}
	memos, _ := a.Engine.Route("memos")
	if _, err := a.Engine.Create(ctx, engine.AllowAll{}, memos, map[string]any{"text": "kept"}, engine.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Exported while the server runs: it keeps serving the type (its
	// schema version does not move).
	_, before, _ := a.Store.Definitions(ctx)
	if err := typesCmd([]string{"export", "--dir", dir}); err != nil {
		t.Fatal(err)
	}
	if _, after, _ := a.Store.Definitions(ctx); after != before {
		t.Fatalf("schema version moved by the export: %d -> %d", before, after)
	}
	if err := a.Engine.Reload(ctx); err != nil {
		t.Fatalf("a running node reloading after the export: %v", err)
	}
	if _, ok := a.Engine.Route("memos"); !ok {
		t.Fatal("the running server lost memos")
	}
	a.Store.Close()
	b, err := os.ReadFile(filepath.Join(dir, "src", "api", "memo", "content-types", "memo", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "renamedFrom") || !strings.Contains(string(b), `"collectionName": "memos"`) {
		t.Fatalf("exported file:\n%s", b)
	}
	a, err = open(dir, quietLog())
	if err != nil {
		t.Fatalf("restart with the exported file: %v", err)
	}
	defer a.Store.Close()
	memos, ok := a.Engine.Route("memos")
	if !ok || memos.Type.Source == "database" {
		t.Fatalf("memos after export: %+v", memos.Type)
	}
	res, err := a.Engine.Find(ctx, engine.AllowAll{}, memos, &query.Query{})
	if err != nil || len(res.Docs) != 1 || !strings.Contains(string(res.Docs[0].Fields), "kept") {
		t.Fatalf("documents after export: %v %+v", err, res)
	}
}

func TestLocalesFromPluginsConfig(t *testing.T) {
	dir := copyBlog(t)
	_ = os.WriteFile(filepath.Join(dir, "config", "plugins.json"), []byte(`{"i18n":{"config":{"locales":["fr","en"],"defaultLocale":"fr"}}}`), 0o644)
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Store.Close()
	if got := strings.Join(a.Engine.Locales(), ","); got != "fr,en" {
		t.Fatalf("locales %q", got)
	}
}
