package strapiimport

import (
	"strings"
	"unicode"
)

// snake is lodash's snakeCase, which Strapi 5 uses for column and join
// table names: words split at case changes, digits and punctuation
// ("publishedDate" -> "published_date", "field2" -> "field_2").
func snake(s string) string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush() // "HTMLParser" -> html, parser
			}
		}
		cur = append(cur, r)
	}
	flush()
	return strings.Join(words, "_")
}
