// Package adminui serves the admin panel: a web app of plain ES modules,
// embedded in the binary, over the admin API (/admin/...). It holds no data
// and no secret: the page is the same for everyone, and everything it shows
// comes from the admin API with the admin's JWT, which the page keeps in
// sessionStorage and sends in the Authorization header only.
//
// The panel and the admin API share /admin. The panel answers:
//   - GET|HEAD /admin/_app/*: its files (scripts, styles, icons);
//   - GET|HEAD /admin and /admin/: the page;
//   - GET|HEAD of any other /admin/... path from a browser navigation (an
//     Accept header that names text/html): the page, which routes on the
//     client (a reload of /admin/content-manager/... opens that screen).
//
// Everything else under /admin (API calls, which send Accept:
// application/json, and every other method) goes on to the admin API.
package adminui

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed web
var webFS embed.FS

// Prefix is where the panel lives; Assets where its files are served.
const (
	Prefix = "/admin"
	Assets = "/admin/_app/"
)

// CSP is the Content-Security-Policy of the panel: its own scripts and
// styles only (no inline script or style, no eval), images from this origin
// (the media library's /uploads) and data/blob URLs (previews of files not
// yet uploaded), requests to this origin only, no frames, no plugins.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"media-src 'self' blob:; connect-src 'self'; font-src 'self'; manifest-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"

type asset struct {
	body, gz []byte
	typ      string
	etag     string
}

// UI is the embedded panel, compressed once when built.
type UI struct {
	files map[string]*asset // by path under web/, "index.html" for the page
}

// New reads the embedded files.
func New() *UI {
	u := &UI{files: map[string]*asset{}}
	err := fs.WalkDir(webFS, "web", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := webFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		a := &asset{body: b, typ: mime.TypeByExtension(path.Ext(p)), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if a.typ == "" {
			a.typ = "application/octet-stream"
		}
		if strings.HasSuffix(p, ".js") {
			a.typ = "text/javascript; charset=utf-8"
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		if buf.Len() < len(b) {
			a.gz = buf.Bytes()
		}
		u.files[strings.TrimPrefix(p, "web/")] = a
		return nil
	})
	if err != nil {
		panic("adminui: " + err.Error()) // the embedded tree is part of the binary
	}
	return u
}

// Middleware answers the panel's requests (see the package comment) and
// passes every other request on. It is meant for echo's Pre stage, so that
// the API's routes under /admin never see a browser navigation.
func (u *UI) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return next(c)
		}
		p := r.URL.Path
		switch {
		case strings.HasPrefix(p, Assets):
			return u.serve(c, strings.TrimPrefix(p, Assets), true)
		case p == Prefix || p == Prefix+"/":
			return u.serve(c, "index.html", false)
		case strings.HasPrefix(p, Prefix+"/") && wantsHTML(r):
			return u.serve(c, "index.html", false)
		}
		return next(c)
	}
}

// wantsHTML tells a browser's navigation (Accept names text/html) from an
// API call (application/json, */*, or nothing).
func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

func (u *UI) serve(c echo.Context, name string, isAsset bool) error {
	a := u.files[name]
	if a == nil || name == "index.html" && isAsset {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	h.Add("Vary", "Accept-Encoding")
	h.Add("Vary", "Accept")
	h.Set("Content-Type", a.typ)
	if match := c.Request().Header.Get("If-None-Match"); match != "" && match == a.etag {
		return c.NoContent(http.StatusNotModified)
	}
	body := a.body
	if a.gz != nil && acceptsGzip(c.Request()) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	return c.Blob(http.StatusOK, a.typ, body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
