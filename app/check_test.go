package app_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
)

// TestCheckStrapiProject: a Strapi project's custom code and JavaScript
// configuration are named with what is skipped; core factories count as
// run; custom fields map to base types or JSON with a warning.
func TestCheckStrapiProject(t *testing.T) {
	r := app.Check(filepath.Join("testdata", "strapi-project"))
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %v", r.Errors)
	}
	if !slices.Equal(r.Types, []string{"api::product.product"}) || !slices.Equal(r.Components, []string{"shop.address", "shop.badge"}) {
		t.Fatalf("runs: %v %v", r.Types, r.Components)
	}
	if !slices.Equal(r.Core, []string{"src/api/product/controllers/product.js", "src/api/product/routes/product.js"}) {
		t.Fatalf("core: %v", r.Core)
	}
	var skipped []string
	for _, s := range r.Skipped {
		skipped = append(skipped, s.Path)
		if s.Why == "" {
			t.Errorf("%s: no reason", s.Path)
		}
	}
	want := []string{"config/database.js", "config/server.js", "src/api/product/policies/is-owner.js",
		"src/api/product/services/product.js", "src/extensions/users-permissions/strapi-server.js", "src/index.js",
		"src/middlewares/timer.js"}
	if !slices.Equal(skipped, want) {
		t.Fatalf("skipped:\n%v\nwant\n%v", skipped, want)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `custom field "global::dimension-picker" is not known`) {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	if !slices.Equal(r.Extensions, []string{"src/extensions/users-permissions/content-types/user/schema.json"}) {
		t.Fatalf("extensions: %v", r.Extensions)
	}
	var out strings.Builder
	r.Print(&out)
	if !strings.Contains(out.String(), "src/api/product/services/product.js: custom service is not run") {
		t.Fatalf("printed:\n%s", out.String())
	}
}

func TestCheckBrokenProject(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "src", "api", "a", "content-types", "a", "schema.json")
	_ = os.MkdirAll(filepath.Dir(p), 0o755)
	_ = os.WriteFile(p, []byte(`{"kind": "collectionType",`), 0o644)
	r := app.Check(dir)
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "schema.json") || !strings.Contains(r.Errors[0], "line 1") {
		t.Fatalf("errors: %v", r.Errors)
	}
	if r := app.Check(filepath.Join(dir, "nope")); len(r.Errors) != 1 {
		t.Fatalf("missing folder: %v", r.Errors)
	}
}
