package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, name, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUploadConfig: upload.config's limits reach the media library, and a
// type pattern that could never match is refused at start.
func TestUploadConfig(t *testing.T) {
	noenv := func(string) string { return "" }
	dir := writeConfig(t, "plugins.json", `{"upload":{"config":{"sizeLimit":1000,"maxConcurrentPixels":5000000,
		"allowedTypes":["image/*","application/pdf"],"deniedTypes":["image/svg+xml"]}}}`)
	c, err := LoadConfig(dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Upload
	if u.MaxBytes != 1000 || u.MaxConcurrentPixels != 5_000_000 || !slices.Equal(u.AllowedTypes, []string{"image/*", "application/pdf"}) ||
		!slices.Equal(u.DeniedTypes, []string{"image/svg+xml"}) {
		t.Fatalf("upload config: %+v", u)
	}
	for _, bad := range []string{`"image"`, `"image/png; charset=x"`, `"/png"`, `"images"`} {
		dir := writeConfig(t, "plugins.json", `{"upload":{"config":{"deniedTypes":[`+bad+`]}}}`)
		if _, err := LoadConfig(dir, noenv); err == nil || !strings.Contains(err.Error(), "not a MIME type pattern") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
