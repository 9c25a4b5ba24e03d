package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The first hour of a new user: commands on a wrong folder fail with a
// message and create nothing; health finds the project's server; seeding
// twice says so.

func TestCommandsRefuseAFolderWithoutAProject(t *testing.T) {
	clearSecrets(t)
	root := t.TempDir()
	missing := filepath.Join(root, "typo")
	empty := filepath.Join(root, "empty")
	_ = os.Mkdir(empty, 0o755)
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	_ = os.Chdir(empty) // commands without --dir use "."
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"serve missing", func() error { return serve([]string{"--dir", missing}) }, "does not exist: create a project with `stratum new"},
		{"serve empty", func() error { return serve([]string{"--dir", empty}) }, "holds no project"},
		{"admin create", func() error {
			return adminCmd([]string{"create", "--email", "a@example.com", "--password", "Passw0rd-long"})
		}, "holds no project"},
		{"token create", func() error { return tokenCmd([]string{"create", "--name", "ci", "--type", "read-only"}, os.Stdout) }, "holds no project"},
		{"seed", func() error { return seed([]string{"--dir", missing}) }, "does not exist"},
	} {
		if err := c.run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, p := range []string{missing, filepath.Join(empty, ".tmp")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

func TestHealthDefaultsToTheProject(t *testing.T) {
	clearSecrets(t)
	t.Setenv("HOST", "")
	t.Setenv("PORT", "")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/_health" {
			w.WriteHeader(404)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	dir := copyBlog(t)
	_ = os.WriteFile(filepath.Join(dir, "config", "server.json"), []byte(`{"host":"0.0.0.0","port":`+u.Port()+`}`), 0o644)
	if got := healthURL(dir); got != "http://127.0.0.1:"+u.Port()+"/_health" {
		t.Fatalf("health URL %q", got)
	}
	if err := health([]string{"--dir", dir}); err != nil {
		t.Fatalf("health of the project's server: %v", err)
	}
	t.Setenv("PORT", "1")
	if err := health([]string{"--dir", dir}); err == nil {
		t.Fatal("PORT is the project's port too: port 1 must not answer")
	}
}

func TestSeedTwice(t *testing.T) {
	clearSecrets(t)
	dir := copyBlog(t)
	var out bytes.Buffer
	progressOut = &out
	t.Cleanup(func() { progressOut = os.Stderr })
	if err := seed([]string{"--dir", dir, "--articles", "20"}); err != nil {
		t.Fatal(err)
	}
	// Not a terminal: plain lines, one when a step starts and one when it ends.
	for _, want := range []string{"seed: articles: 20 to write\n", "seed: articles: 20 written in ", "seed: authors, categories and tags: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, out.String())
		}
	}
	if err := seed([]string{"--dir", dir, "--articles", "20"}); err != nil {
		t.Fatalf("a second seed: %v (want a message, not an error)", err)
	}
}
