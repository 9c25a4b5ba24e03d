package adminui_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/adminui"
	"github.com/stratum-cms/stratum/app"
	"github.com/stratum-cms/stratum/internal/testenv"
)

func get(t *testing.T, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	// Without a transport that adds Accept-Encoding itself, the body is
	// what the server sent.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// The panel and the admin API share /admin: a browser's navigation gets the
// page, an API call the API.
func TestRoutes(t *testing.T) {
	env := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{})
	html := "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	cases := []struct {
		name, path, accept string
		status             int
		page               bool // the panel's page, or JSON otherwise
	}{
		{"the panel", "/admin", html, 200, true},
		{"the panel with a slash", "/admin/", "", 200, true},
		{"the panel without Accept", "/admin", "", 200, true},
		{"a client route, from a browser", "/admin/content-manager/collection-types/api::article.article", html, 200, true},
		{"a client route of the API, from a browser", "/admin/api-tokens", html, 200, true},
		{"the API's answer for an API call", "/admin/api-tokens", "application/json", 401, false},
		{"the API's answer for */*", "/admin/content-manager/collection-types/api::article.article", "*/*", 401, false},
		{"an open API route", "/admin/init", "application/json", 200, false},
		{"an unknown asset", "/admin/_app/nope.js", "*/*", 404, false},
		{"the page is no asset", "/admin/_app/index.html", "*/*", 404, false},
		{"a path that only starts like the panel", "/administrator", html, 404, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, body := get(t, env.URL+c.path, "Accept", c.accept)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, body)
			}
			isPage := bytes.Contains(body, []byte(`<script type="module" src="/admin/_app/js/app.js">`))
			if isPage != c.page {
				t.Fatalf("page = %v, want %v: %.200s", isPage, c.page, body)
			}
			if c.page {
				csp := res.Header.Get("Content-Security-Policy")
				for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} {
					if !strings.Contains(csp, want) {
						t.Errorf("CSP %q lacks %q", csp, want)
					}
				}
				if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
					t.Errorf("CSP allows inline code: %q", csp)
				}
				if res.Header.Get("X-Frame-Options") != "DENY" {
					t.Errorf("X-Frame-Options = %q", res.Header.Get("X-Frame-Options"))
				}
			}
		})
	}
	// Other methods go to the API: the admin's login is not the page.
	res, err := http.Post(env.URL+"/admin/login", "application/json", strings.NewReader(`{"email":"x@example.com","password":"nope"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 && res.StatusCode != 401 {
		t.Errorf("POST /admin/login: %d", res.StatusCode)
	}
}

// Assets are served gzip-compressed when asked, with an ETag that answers
// 304, and the first load stays far under 300 KB.
func TestAssets(t *testing.T) {
	env := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{})
	res, body := get(t, env.URL+"/admin/_app/js/app.js", "Accept-Encoding", "gzip, br")
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("app.js: %d %v", res.StatusCode, res.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Contains(plain, []byte("export function navigate")) {
		t.Errorf("app.js decompressed: %.100s", plain)
	}
	res2, _ := get(t, env.URL+"/admin/_app/js/app.js", "If-None-Match", res.Header.Get("ETag"))
	if res2.StatusCode != 304 {
		t.Errorf("If-None-Match: %d", res2.StatusCode)
	}
	res3, plain3 := get(t, env.URL+"/admin/_app/js/app.js", "Accept-Encoding", "gzip;q=0")
	if res3.Header.Get("Content-Encoding") != "" || !bytes.Equal(plain3, plain) {
		t.Errorf("gzip;q=0 still compressed: %v", res3.Header)
	}

	// The first load: the page, its style, and every module it may
	// import (all of them, as an upper bound), compressed.
	total := 0
	_ = fs.WalkDir(os.DirFS("web"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		url := "/admin/_app/" + p
		if p == "index.html" {
			url = "/admin"
		}
		r, b := get(t, env.URL+url, "Accept-Encoding", "gzip")
		if r.StatusCode != 200 {
			t.Errorf("%s: %d", url, r.StatusCode)
		}
		total += len(b)
		return nil
	})
	if total == 0 || total > 300<<10 {
		t.Errorf("the whole panel is %d bytes compressed, want under 300 KB", total)
	}
	t.Logf("the whole panel: %d bytes compressed", total)
}

var (
	inlineScript = regexp.MustCompile(`<script(?:[^>]*)>\s*[^<\s]`)
	unsafeJS     = regexp.MustCompile(`\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\('on|javascript:`)
)

// The sources keep to the rules the CSP enforces and to the escaping rule:
// no inline script or style, and no HTML parsed from strings.
func TestSourcesAreSafe(t *testing.T) {
	err := filepath.WalkDir("web", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".html":
			if inlineScript.Match(b) || bytes.Contains(b, []byte("<style")) || bytes.Contains(b, []byte(" style=")) || bytes.Contains(b, []byte(" on")) && regexp.MustCompile(` on[a-z]+=`).Match(b) {
				t.Errorf("%s has inline script or style", p)
			}
		case ".js":
			for i, line := range strings.Split(string(b), "\n") {
				if unsafeJS.MatchString(line) {
					t.Errorf("%s:%d parses HTML or code from a string: %s", p, i+1, strings.TrimSpace(line))
				}
				if strings.Contains(line, "style:") || strings.Contains(line, ".style.") {
					t.Errorf("%s:%d sets an inline style (the CSP refuses it): %s", p, i+1, strings.TrimSpace(line))
				}
				if strings.Contains(line, "localStorage") {
					t.Errorf("%s:%d uses localStorage: the JWT stays in sessionStorage", p, i+1)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// serveAdminPanel: false (config/admin.json, as Strapi's) leaves the API.
func TestPanelOff(t *testing.T) {
	env := testenv.Start(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Tune: func(c *app.Config) { c.AdminPanelOff = true }})
	res, body := get(t, env.URL+"/admin", "Accept", "text/html")
	if res.StatusCode == 200 || bytes.Contains(body, []byte("<script")) {
		t.Errorf("the panel is served while off: %d %.100s", res.StatusCode, body)
	}
	res, _ = get(t, env.URL+"/admin/init")
	if res.StatusCode != 200 {
		t.Errorf("the admin API: %d", res.StatusCode)
	}
	_ = adminui.CSP
}
