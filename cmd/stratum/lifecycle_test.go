package main

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/glebarez/go-sqlite"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// copyBlog copies the example project to a temp dir and opens its
// permissions to writes.
func copyBlog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := scaffold([]string{dir}); err != nil {
		t.Fatal(err)
	}
	perms := `{"public":["api::article.article.find","api::article.article.create","api::tag.tag.find"]}`
	if err := os.WriteFile(filepath.Join(dir, "config", "permissions.json"), []byte(perms), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestStartupRefusesBadSchema(t *testing.T) {
	cases := []struct{ file, attr, want string }{
		{"article", `"title":{"type":"strang"}`, `attribute "title": unknown type "strang"`},
		{"article", `"id":{"type":"string"}`, `attribute "id": name is reserved`},
		{"article", `"writer":{"type":"relation","relation":"manyToOne","target":"api::nobody.nobody"}`, `attribute "writer": target "api::nobody.nobody" does not exist`},
	}
	for _, c := range cases {
		dir := t.TempDir()
		p := filepath.Join(dir, "src", "api", c.file, "content-types", c.file, "schema.json")
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		body := `{"kind":"collectionType","info":{"singularName":"article","pluralName":"articles"},"attributes":{` + c.attr + `}}`
		_ = os.WriteFile(p, []byte(body), 0o644)
		_, err := open(dir, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "src/api/article/content-types/article/schema.json") {
			t.Errorf("got %v, want the file and %q", err, c.want)
		}
	}
	dir := t.TempDir()
	_ = os.MkdirAll(filepath.Join(dir, "config"), 0o755)
	_ = os.WriteFile(filepath.Join(dir, "config", "api.json"), []byte(`{"rest":`), 0o644)
	if _, err := open(dir, slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil || !strings.Contains(err.Error(), "config/api.json") {
		t.Errorf("broken config: %v", err)
	}
}

func freePort(t *testing.T) int { return testenv.FreePort(t) }

func waitReady(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if r, err := http.Get(base + "/_health"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("server not ready")
}

// TestSIGTERMDrainsRequestsInFlight sends the headers of a POST, then
// SIGTERM, then the rest of the body: the request completes and is stored.
func TestSIGTERMDrainsRequestsInFlight(t *testing.T) {
	dir := copyBlog(t)
	port := freePort(t)
	done := make(chan error, 1)
	go func() { done <- serve([]string{"--dir", dir, "--host", "127.0.0.1", "--port", fmt.Sprint(port)}) }()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitReady(t, base)

	body := `{"data":{"title":"Written during shutdown"}}`
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	time.Sleep(100 * time.Millisecond) // the server is now reading our body
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
		t.Error("still accepting connections after SIGTERM")
	}
	fmt.Fprint(conn, body[10:])
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("request in flight was cut: %v", err)
	}
	if res.StatusCode != 201 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("in-flight request: %d %s", res.StatusCode, b)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not exit after SIGTERM")
	}
	// The port is free again.
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatalf("port not released: %v", err)
	}
	l.Close()
}

// TestKill9MidWriteLeavesWholeDocuments kills the server with SIGKILL while
// clients write, then checks every document has both its draft and its
// published row (each POST writes both in one transaction).
func TestKill9MidWriteLeavesWholeDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "stratum")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(testenv.Root(), "cmd", "stratum")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	dir := copyBlog(t)
	port := freePort(t)
	cmd := exec.Command(bin, "serve", "--dir", dir, "--host", "127.0.0.1", "--port", fmt.Sprint(port))
	cmd.Env = append(os.Environ(), "DATABASE_URL=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitReady(t, base)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil && i < 5000; i++ {
				body := fmt.Sprintf(`{"data":{"title":"w%d-%d","quotes":[{"body":"q"}]}}`, w, i)
				req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/articles", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if res, err := http.DefaultClient.Do(req); err == nil {
					res.Body.Close()
				}
			}
		}(w)
	}
	time.Sleep(400 * time.Millisecond)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	cancel()
	wg.Wait()

	db, err := sql.Open("sqlite", filepath.Join(dir, ".tmp", "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var docs, broken int
	if err := db.QueryRow(`SELECT COUNT(DISTINCT document_id) FROM articles`).Scan(&docs); err != nil {
		t.Fatal(err)
	}
	err = db.QueryRow(`SELECT COUNT(*) FROM (SELECT document_id FROM articles GROUP BY document_id
		HAVING COUNT(*) <> 2 OR SUM(published_at IS NULL) <> 1)`).Scan(&broken)
	if err != nil {
		t.Fatal(err)
	}
	if docs == 0 {
		t.Fatal("no document was written before the kill")
	}
	if broken != 0 {
		t.Fatalf("%d of %d documents are half written", broken, docs)
	}
	// The server starts again on the same file.
	cmd = exec.Command(bin, "serve", "--dir", dir, "--host", "127.0.0.1", "--port", fmt.Sprint(port))
	cmd.Env = append(os.Environ(), "DATABASE_URL=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	waitReady(t, base)
}
