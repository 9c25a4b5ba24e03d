package ids

import (
	"regexp"
	"testing"
)

func TestNewDocumentID(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z][a-z0-9]{23}$`)
	seen := map[string]bool{}
	digits, letters := false, false
	for i := 0; i < 20000; i++ {
		id := NewDocumentID()
		if !shape.MatchString(id) {
			t.Fatalf("%q is not 24 lowercase letters and digits starting with a letter", id)
		}
		if seen[id] {
			t.Fatalf("%q given twice", id)
		}
		seen[id] = true
		for _, r := range id[1:] {
			digits = digits || (r >= '0' && r <= '9')
			letters = letters || (r >= 'a' && r <= 'z')
		}
	}
	if !digits || !letters {
		t.Fatalf("ids use only part of the alphabet (digits %v, letters %v)", digits, letters)
	}
}

func TestSlugify(t *testing.T) {
	tests := map[string]string{
		"Hello World":          "hello-world",
		"  Hello,   World!  ":  "hello-world",
		"already-a-slug":       "already-a-slug",
		"keep.dots_and~tildes": "keep.dots_and~tildes",
		// Non-ASCII letters are dropped, not transliterated (Strapi's
		// slugify would give "unicode-letters").
		"Ünïcödé letters": "n-c-d-letters",
		"100% sure":       "100-sure",
		"---":             "",
		"":                "",
		"a--b":            "a-b",
		"CamelCase42":     "camelcase42",
	}
	for in, want := range tests {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}
