package graphql

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testdb"
)

// The reference implementation (graphql-js from npm) builds a client schema
// from Stratum's introspection, then validates and runs the spec's
// operations against a live server. Skipped when node is missing or the
// npm packages cannot be installed.
func TestE2EReferenceImplementation(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	dir, _ := filepath.Abs("e2e")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm ci failed (offline?): %v\n%s", err, out)
	}
	// The playground's script is valid JavaScript.
	js := playgroundHTML[strings.Index(playgroundHTML, "<script>")+len("<script>") : strings.Index(playgroundHTML, "</script>")]
	jsFile := filepath.Join(t.TempDir(), "playground.js")
	if err := os.WriteFile(jsFile, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.CommandContext(ctx, node, "--check", jsFile).CombinedOutput(); err != nil {
		t.Fatalf("playground script: %v\n%s", err, out)
	}
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		acc := newFakeAccounts()
		acc.public = testdb.AllActions(t, "")
		acc.authed = append(testdb.AllActions(t, ""), MeAction)
		e := start(t, db(t), options{accounts: acc, authn: acc})
		cmd := exec.CommandContext(ctx, node, "e2e.mjs", e.URL+"/graphql")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		if err != nil {
			t.Fatalf("graphql-js end-to-end: %v", err)
		}
	})
}
