// Package ids makes the identifiers Stratum hands out: document ids in the
// shape of Strapi's, and uid values slugified from text.
package ids

import (
	"crypto/rand"
	"strings"
	"unicode"
)

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// NewDocumentID returns 24 lowercase letters and digits starting with a
// letter, the shape of Strapi's cuid2 document ids.
func NewDocumentID() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		if i == 0 {
			b[i] = idAlphabet[int(b[i])%26]
		} else {
			b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
		}
	}
	return string(b[:])
}

// Slugify makes a uid value from text: lower case, dashes between words.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case r == '.' || r == '_' || r == '~':
			b.WriteRune(r)
			dash = false
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.Trim(b.String(), "-")
}
