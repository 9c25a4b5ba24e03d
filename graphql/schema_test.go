package graphql

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// updateGolden is the -update flag that internal/testenv registers.
var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func updateGolden() bool { return *update }

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updateGolden() {
		_ = os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run go test ./graphql -update to create it)", name, err)
	}
	if string(want) != got {
		t.Errorf("golden %s differs (run go test ./graphql -update after checking the change)\n%s", name, diffLines(string(want), got))
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			out = append(out, "- "+a, "+ "+b)
			if len(out) > 40 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

func (e *env) sdl() string {
	e.t.Helper()
	d := e.ok(IntrospectionQuery, nil)
	return PrintSDL(d)
}

// The example project's schema, printed from introspection, is checked in.
func TestSchemaGolden(t *testing.T) {
	e := start(t, testdb.Databases(t)["sqlite"](t), options{accounts: newFakeAccounts()})
	golden(t, "blog.graphql", e.sdl())
	// The build is deterministic: a second server prints the same schema.
	e2 := start(t, testdb.Databases(t)["sqlite"](t), options{accounts: newFakeAccounts()})
	if e.sdl() != e2.sdl() {
		t.Fatal("two builds of the same schema print differently")
	}
}
