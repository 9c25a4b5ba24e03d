package testenv

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var (
	timeRe  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
	docIDRe = regexp.MustCompile(`^[a-z][a-z0-9]{23}$`)
)

// normalize replaces values that change between runs (timestamps, document
// ids, row ids) by placeholders, so response shapes can be compared.
func normalize(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = normalize(c, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = normalize(c, key)
		}
		return out
	case string:
		if timeRe.MatchString(x) {
			return "<time>"
		}
		if docIDRe.MatchString(x) && (key == "documentId" || key == "") {
			return "<documentId>"
		}
	case float64:
		if key == "id" {
			return "<id>"
		}
	}
	return v
}

// Golden compares a response body, normalised, with testdata/<name>.json
// (relative to the test's package); -update rewrites the file.
func Golden(t testing.TB, name string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("golden %s: body is not JSON: %s", name, body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(normalize(v, ""))
	got := buf.Bytes()
	path := filepath.Join("testdata", name+".json")
	if *update {
		_ = os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run go test -update to create it)", name, err)
	}
	if string(want) != string(got) {
		t.Errorf("golden %s differs\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}
