package tsgen_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/tsgen"
)

var update = flag.Bool("update", false, "rewrite testdata/blog.ts")

// TestGolden: the example project's definitions are checked in; the e2e
// test compiles them with tsc against the server's real answers.
func TestGolden(t *testing.T) {
	types, comps, err := models.ReadDir(filepath.Join(testdb.Root(), "examples", "blog"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := models.Build(types, comps)
	if err != nil {
		t.Fatal(err)
	}
	got := tsgen.Generate(s)
	path := filepath.Join("testdata", "blog.ts")
	if *update {
		_ = os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tsgen -update)", err)
	}
	if string(want) != got {
		t.Fatalf("testdata/blog.ts differs from the output (run go test ./tsgen -update after checking)")
	}
	// Private and password attributes are not in documents, only in inputs.
	doc := got[strings.Index(got, "export interface Article {"):strings.Index(got, "export interface ArticleInput {")]
	if strings.Contains(doc, "secretNote") {
		t.Fatal("a private attribute in the document type")
	}
}
