package engine

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/stratum-cms/stratum/errs"
)

// PostgreSQL refuses NUL in text and in JSONB, and invalid UTF-8 anywhere;
// SQLite would keep them and hand them back to clients. Both are refused as
// input, the same on both databases, before anything reaches SQL.

func badText(s string) bool { return strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) }

// BadTextError is the 400 for a NUL byte or invalid UTF-8 in where.
func BadTextError(where string) *errs.Error {
	return &errs.Error{Kind: errs.KindValidation, Message: fmt.Sprintf("Invalid %s: NUL bytes and invalid UTF-8 are not allowed", where),
		Details: map[string]any{"source": where}}
}

// CheckString refuses a NUL byte or invalid UTF-8 in s (CheckText for a
// string, without the conversion to an interface a hot path would pay).
func CheckString(s, where string) error {
	if badText(s) {
		return BadTextError(where)
	}
	return nil
}

// CheckText refuses a NUL byte or invalid UTF-8 in any string (keys
// included) of a decoded JSON value.
func CheckText(v any, where string) error {
	switch x := v.(type) {
	case string:
		if badText(x) {
			return BadTextError(where)
		}
	case map[string]any:
		for k, it := range x {
			if badText(k) {
				return BadTextError(where)
			}
			if err := CheckText(it, where); err != nil {
				return err
			}
		}
	case []any:
		for _, it := range x {
			if err := CheckText(it, where); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckJSONText refuses raw JSON that is not UTF-8 or that writes a NUL as
// \u0000 (encoding/json would turn the first into U+FFFD silently).
func CheckJSONText(b []byte, where string) error {
	if !utf8.Valid(b) {
		return BadTextError(where)
	}
	for i := 0; i+5 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] == 'u' && string(b[i+2:i+6]) == "0000" {
			return BadTextError(where)
		}
		i++ // skip the escaped character, so \\u0000 is text
	}
	return nil
}
