// Package e2e drives Stratum with real clients from npm.
package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// needNode returns the node binary, or skips (fails in CI, where the
// machine has Node and the npm registry).
func needNode(t *testing.T, dir string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			skipOrFail(t, "npm ci failed: "+err.Error()+"\n"+string(out))
		}
	}
	return node
}

func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// TestStrapiClient runs the official @strapi/client against the example
// project: find with filters, sort, pagination and populate, findOne,
// create, update, delete, and a single type.
func TestStrapiClient(t *testing.T) {
	dir := filepath.Join(testenv.Root(), "e2e", "strapi-client")
	node := needNode(t, dir)
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Public: testenv.AllActions(t, "")})
		cmd := exec.Command(node, "client.mjs", e.URL)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("@strapi/client run failed: %v\n%s", err, out)
		}
		t.Logf("%s", out)
	})
}
