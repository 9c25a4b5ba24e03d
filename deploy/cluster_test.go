// Package deploy holds the deployment files (docker-compose.yml's nginx
// configuration, the local cluster script); its test runs the script.
package deploy

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/tests3"
)

// TestLocalCluster runs deploy/local-cluster.sh: PostgreSQL (a fresh
// database on TEST_DATABASE_URL's server), versitygw, two nodes and the
// load balancer as processes, and its checks (an upload on one node
// served through the other, a type created on one serving on the other
// within a second, a node killed without losing a GET at the load
// balancer).
func TestLocalCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a whole cluster (-short)")
	}
	pg := os.Getenv("TEST_DATABASE_URL")
	if pg == "" {
		t.Skip("TEST_DATABASE_URL is not set: the cluster needs PostgreSQL")
	}
	vgw := tests3.Binary()
	if vgw == "" {
		t.Skipf("versitygw not found: %s", tests3.Install)
	}
	for _, tool := range []string{"bash", "psql", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: the cluster script needs it", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "local-cluster.sh")
	cmd.Env = append(os.Environ(), "PG_URL="+pg, "VERSITYGW="+vgw)
	// SIGTERM, not SIGKILL, so that the script stops what it started.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 20 * time.Second
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("local-cluster.sh: %v", err)
	}
	for _, want := range []string{"PASS upload on node 1 served through node 2", "PASS type created on node 1 serves on node 2",
		"PASS node 1 killed", "all checks passed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in the output", want)
		}
	}
}
