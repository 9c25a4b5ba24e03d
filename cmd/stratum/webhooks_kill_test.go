package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestKill9KeepsWebhookEvents: a server killed with SIGKILL after a write
// committed but before its webhook was delivered (the receiver was
// failing) loses nothing: the next server delivers it.
func TestKill9KeepsWebhookEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "stratum")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(testenv.Root(), "cmd", "stratum")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var failing atomic.Bool
	failing.Store(true)
	var mu sync.Mutex
	var delivered []string
	attempts := make(chan struct{}, 100)
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case attempts <- struct{}{}:
		default:
		}
		if failing.Load() {
			w.WriteHeader(503)
			return
		}
		mu.Lock()
		delivered = append(delivered, string(b))
		mu.Unlock()
	}))
	defer rec.Close()

	dir := copyBlog(t)
	start := func() (*exec.Cmd, string) {
		port := freePort(t)
		cmd := exec.Command(bin, "serve", "--dir", dir, "--host", "127.0.0.1", "--port", fmt.Sprint(port))
		cmd.Env = append(os.Environ(), "DATABASE_URL=", "STRATUM_ADMIN_EMAIL=ops@example.com", "STRATUM_ADMIN_PASSWORD=Kill-9-passw0rd")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		base := fmt.Sprintf("http://127.0.0.1:%d", port)
		waitReady(t, base)
		return cmd, base
	}
	post := func(url, body, token string) map[string]any {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		if res.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %v", url, res.StatusCode, out)
		}
		return out
	}
	cmd, base := start()
	login := post(base+"/admin/login", `{"email":"ops@example.com","password":"Kill-9-passw0rd"}`, "")
	tok := login["data"].(map[string]any)["token"].(string)
	post(base+"/admin/webhooks", fmt.Sprintf(`{"name":"rec","url":%q,"events":["entry.create"]}`, rec.URL), tok)
	post(base+"/api/articles", `{"data":{"title":"Survives the kill"}}`, "")
	select { // the first attempt failed: the event waits in the outbox
	case <-attempts:
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery attempt")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()

	failing.Store(false)
	cmd, _ = start()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(40 * time.Second) // a lease held by the killed node runs out first
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(delivered)
		got := strings.Join(delivered, "")
		mu.Unlock()
		if n > 0 {
			if n != 1 || !strings.Contains(got, "Survives the kill") {
				t.Fatalf("delivered %d: %s", n, got)
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the event written before the kill was never delivered")
}
