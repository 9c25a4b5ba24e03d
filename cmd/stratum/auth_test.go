package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/app"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func clearSecrets(t *testing.T) {
	for _, n := range []string{"JWT_SECRET", "ADMIN_JWT_SECRET", "API_TOKEN_SALT", "STRATUM_ADMIN_EMAIL", "STRATUM_ADMIN_PASSWORD", "DATABASE_URL", "STRATUM_ENV"} {
		t.Setenv(n, "")
	}
}

func call(t *testing.T, h http.Handler, method, path string, body any, tok string) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var out map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, out
}

// TestProductionRequiresSecrets: start refuses, naming what is missing.
func TestProductionRequiresSecrets(t *testing.T) {
	clearSecrets(t)
	dir := copyBlog(t)
	t.Setenv("STRATUM_ENV", "production")
	_, err := open(dir, quietLog())
	if err == nil || !strings.Contains(err.Error(), "JWT_SECRET, ADMIN_JWT_SECRET, API_TOKEN_SALT are not set") {
		t.Fatalf("no secrets: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".tmp", "data.db")); !os.IsNotExist(err) {
		t.Fatalf("the refused start touched the database: %v", err)
	}
	t.Setenv("JWT_SECRET", "j-secret-Qm9vZ2x5IHdvb2dseSB3b29nbHkgMTIz")
	t.Setenv("API_TOKEN_SALT", "salt-ZHJhZ29ucyBhbmQgZGluZ29zIGFuZCBtb3Jl")
	_, err = open(dir, quietLog())
	if err == nil || !strings.Contains(err.Error(), "production: ADMIN_JWT_SECRET is not set;") {
		t.Fatalf("one missing: %v", err)
	}
	// Short secrets and placeholders from examples are refused.
	for _, weak := range []string{"a-secret", "tobemodified", "toBeModified-and-then-some-more-bytes-42", strings.Repeat("ab", 20)} {
		t.Setenv("ADMIN_JWT_SECRET", weak)
		if _, err := open(dir, quietLog()); err == nil || !strings.Contains(err.Error(), "ADMIN_JWT_SECRET must be at least 32 bytes and not a placeholder") {
			t.Fatalf("weak secret %q: %v", weak, err)
		}
	}
	t.Setenv("ADMIN_JWT_SECRET", "a-secret-c3VwZXIgc2VjcmV0IGFkbWluIGtleSAxMjM0")
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatalf("all set: %v", err)
	}
	defer a.Store.Close()
	var n int64
	a.Store.GORM().Raw("SELECT COUNT(*) FROM stratum_meta WHERE key LIKE 'secret:%'").Row().Scan(&n)
	if n != 0 {
		t.Fatalf("production stored %d generated secrets", n)
	}
	if _, err := tokenCmdOut(t, "create", "--dir", dir, "--name", "x"); err != nil {
		t.Fatalf("token create with the secrets: %v", err)
	}
	t.Setenv("API_TOKEN_SALT", "")
	if _, err := tokenCmdOut(t, "create", "--dir", dir, "--name", "y"); err == nil || !strings.Contains(err.Error(), "API_TOKEN_SALT") {
		t.Fatalf("token create without the salt: %v", err)
	}
}

// TestDevelopmentSecretsAreKept: generated once, the same after a restart.
func TestDevelopmentSecretsAreKept(t *testing.T) {
	clearSecrets(t)
	dir := copyBlog(t)
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	_, admin := call(t, a.HTTP, "POST", "/admin/register-admin", map[string]any{"email": "a@example.com", "password": "Admin-Passw0rd"}, "")
	tok := admin["data"].(map[string]any)["token"].(string)
	a.Store.Close()
	b, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Store.Close()
	if code, _ := call(t, b.HTTP, "GET", "/admin/api-tokens", nil, tok); code != 200 {
		t.Fatalf("admin JWT after a restart: %d", code)
	}
}

func tokenCmdOut(t *testing.T, args ...string) (string, error) {
	var out bytes.Buffer
	err := tokenCmd(args, &out)
	return strings.TrimSpace(out.String()), err
}

func TestAdminAndTokenCommands(t *testing.T) {
	clearSecrets(t)
	dir := copyBlog(t)
	if err := adminCmd([]string{"create", "--dir", dir, "--email", "Ops@Example.com", "--password", "Admin-Passw0rd"}); err != nil {
		t.Fatal(err)
	}
	if err := adminCmd([]string{"create", "--dir", dir, "--email", "ops@example.com", "--password", "Admin-Passw0rd"}); err == nil || !strings.Contains(err.Error(), "Email already taken") {
		t.Fatalf("second create: %v", err)
	}
	if err := adminCmd([]string{"create", "--dir", dir, "--email", "weak@example.com", "--password", "weak"}); err == nil || !strings.Contains(err.Error(), "at least 8") {
		t.Fatalf("weak password: %v", err)
	}
	full, err := tokenCmdOut(t, "create", "--dir", dir, "--name", "ci", "--type", "full-access", "--lifespan", "30d")
	if err != nil || len(full) != 256 {
		t.Fatalf("token create: %q %v", full, err)
	}
	custom, err := tokenCmdOut(t, "create", "--dir", dir, "--name", "tags", "--type", "custom", "--permission", "api::tag.tag.find", "--permission", "api::tag.tag.create")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"create", "--dir", dir, "--name", "ci"},
		{"create", "--dir", dir, "--name", "z", "--lifespan", "12d"},
		{"create", "--dir", dir, "--name", "z", "--type", "custom", "--permission", "api::nope.nope.find"},
		{"create", "--dir", dir, "--name", "z", "--permission", "api::tag.tag.find"},
		{"create", "--dir", dir},
		{"list"},
	} {
		if _, err := tokenCmdOut(t, c...); err == nil {
			t.Errorf("%v: no error", c)
		}
	}
	a, err := open(dir, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer a.Store.Close()
	if code, body := call(t, a.HTTP, "POST", "/admin/login", map[string]any{"email": "ops@example.com", "password": "Admin-Passw0rd"}, ""); code != 200 {
		t.Fatalf("login of the created admin: %d %v", code, body)
	}
	if code, _ := call(t, a.HTTP, "POST", "/api/articles", map[string]any{"data": map[string]any{"title": "From CI"}}, full); code != 201 {
		t.Fatalf("full-access token from the command: %d", code)
	}
	if code, _ := call(t, a.HTTP, "POST", "/api/tags", map[string]any{"data": map[string]any{"name": "t"}}, custom); code != 201 {
		t.Fatalf("custom token: %d", code)
	}
	if code, _ := call(t, a.HTTP, "DELETE", "/api/articles/x", nil, custom); code != 403 {
		t.Fatalf("custom token outside its actions: %d", code)
	}
}

func TestAdminFromEnvironment(t *testing.T) {
	clearSecrets(t)
	dir := copyBlog(t)
	t.Setenv("STRATUM_ADMIN_EMAIL", "boot@example.com")
	if _, err := open(dir, quietLog()); err == nil || !strings.Contains(err.Error(), "STRATUM_ADMIN_PASSWORD") {
		t.Fatalf("email without password: %v", err)
	}
	t.Setenv("STRATUM_ADMIN_PASSWORD", "weak")
	if _, err := open(dir, quietLog()); err == nil || !strings.Contains(err.Error(), "STRATUM_ADMIN") {
		t.Fatalf("weak password: %v", err)
	}
	t.Setenv("STRATUM_ADMIN_PASSWORD", "Boot-Passw0rd")
	for range 2 { // the second start finds the admin and does nothing
		a, err := open(dir, quietLog())
		if err != nil {
			t.Fatal(err)
		}
		code, _ := call(t, a.HTTP, "POST", "/admin/login", map[string]any{"email": "boot@example.com", "password": "Boot-Passw0rd"}, "")
		a.Store.Close()
		if code != 200 {
			t.Fatalf("login of the boot admin: %d", code)
		}
	}
	a, _ := open(dir, quietLog())
	defer a.Store.Close()
	if code, body := call(t, a.HTTP, "POST", "/admin/register-admin", map[string]any{"email": "x@example.com", "password": "Admin-Passw0rd"}, ""); code != 400 {
		t.Fatalf("register-admin after the boot admin: %d %v", code, body)
	}
}

func TestAuthConfig(t *testing.T) {
	clearSecrets(t)
	for _, c := range []struct{ file, body, want string }{
		{"plugins.json", `{"users-permissions":{"config":{"jwt":{"expiresIn":"soon"}}}}`, "users-permissions.config.jwt.expiresIn"},
		{"plugins.json", `{"users-permissions":{"config":{"ratelimit":{"max":0}}}}`, "ratelimit.max"},
		{"admin.json", `{"auth":{"options":{"expiresIn":-5}}}`, "auth.options.expiresIn"},
	} {
		dir := copyBlog(t)
		writeConfig(t, dir, c.file, c.body)
		if _, err := open(dir, quietLog()); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.file) {
			t.Errorf("%s %s: %v", c.file, c.body, err)
		}
	}
	dir := copyBlog(t)
	writeConfig(t, dir, "plugins.json", `{"users-permissions":{"config":{"jwt":{"expiresIn":"2h"},"ratelimit":{"interval":60000,"max":25}}}}`)
	cfg, err := app.LoadConfig(dir, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Auth.JWTExpiresIn.Hours() != 2 || cfg.Auth.RateLimit.Max != 25 {
		t.Fatalf("config: %+v", cfg)
	}
}

func writeConfig(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "config", name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
