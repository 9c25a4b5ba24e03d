package openapi_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/openapi"
)

func schemaOf(t *testing.T, dir string) *models.Schema {
	t.Helper()
	types, comps, err := models.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := models.Build(types, comps)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDocumentIsValid: the documents of the example project and of the
// REST tests' project (every attribute type, components, zones, relations
// of every kind) pass the OpenAPI 3.1 specification's schema.
func TestDocumentIsValid(t *testing.T) {
	for _, dir := range []string{filepath.Join(testdb.Root(), "examples", "blog"), filepath.Join(testdb.Root(), "rest", "testdata", "project"),
		filepath.Join(testdb.Root(), "app", "testdata", "strapi-project")} {
		b, err := openapi.Build(schemaOf(t, dir), openapi.Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := libopenapi.NewDocument(b)
		if err != nil {
			t.Fatal(err)
		}
		v, errs := validator.NewValidator(doc)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", dir, errs)
		}
		if ok, verrs := v.ValidateDocument(); !ok {
			for _, e := range verrs {
				t.Errorf("%s: %s: %s", dir, e.Message, e.Reason)
			}
		}
		var d map[string]any
		_ = json.Unmarshal(b, &d)
		if d["openapi"] != "3.1.0" {
			t.Fatalf("version %v", d["openapi"])
		}
		// Every reference names a schema of the document (relations to
		// users and files name the users' and the media's).
		schemas := d["components"].(map[string]any)["schemas"].(map[string]any)
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if r, ok := x["$ref"].(string); ok {
					if name, found := strings.CutPrefix(r, "#/components/schemas/"); found && schemas[name] == nil {
						t.Errorf("%s: $ref %s names no schema", dir, r)
					}
				}
				for _, it := range x {
					walk(it)
				}
			case []any:
				for _, it := range x {
					walk(it)
				}
			}
		}
		walk(d)
	}
}
