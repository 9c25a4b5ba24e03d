package graphql

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// prepare rewrites a document so that graphql-go v0.8 can parse it the way
// the GraphQL spec reads it:
//
//   - graphql-go's parser has no `null` literal. `field: null` inside an
//     input object is blanked out and remembered (by the offset of the
//     object's `{`), so that mutation data can still clear a field; a null
//     argument, list item or variable default is blanked out (it means the
//     same as absent there).
//
// Blanking keeps the length and every other offset.
func prepare(src string) (string, map[int][]string, error) {
	type tok struct {
		kind  byte // 'n' name, 'p' punctuation (value in ch), 'v' other value
		ch    byte
		start int // offset in out
		name  string
	}
	type frame struct {
		ch    byte // ( [ {
		value bool // a `{` that opens an input object
		start int  // offset of the bracket in out
	}
	out := make([]byte, 0, len(src)+16)
	var stack []frame
	var prev, prev2 tok
	nulls := map[int][]string{}
	push := func(t tok) { prev2, prev = prev, t }
	inValue := func() bool {
		if len(stack) == 0 {
			return false
		}
		top := stack[len(stack)-1]
		return top.ch == '(' || top.ch == '[' || (top.ch == '{' && top.value)
	}
	blank := func(from int) { // overwrite out[from:] with spaces
		for k := from; k < len(out); k++ {
			out[k] = ' '
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			j := i
			for j < len(src) && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			out = append(out, strings.Repeat(" ", j-i)...)
			i = j
		case c == '"' && strings.HasPrefix(src[i:], `"""`):
			j := i + 3
			for j < len(src) && !strings.HasPrefix(src[j:], `"""`) {
				if strings.HasPrefix(src[j:], `\"""`) {
					j += 4
					continue
				}
				j++
			}
			j = min(j+3, len(src))
			start := len(out)
			out = append(out, src[i:j]...)
			push(tok{kind: 'v', start: start})
			i = j
		case c == '"':
			start := len(out)
			out = append(out, '"')
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) {
					out = append(out, src[j:j+2]...)
					j += 2
					continue
				}
				out = append(out, src[j])
				j++
			}
			if j < len(src) && src[j] == '"' {
				out = append(out, '"')
				j++
			}
			push(tok{kind: 'v', start: start})
			i = j
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(src) && (src[j] == '_' || src[j] >= '0' && src[j] <= '9' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 'a' && src[j] <= 'z') {
				j++
			}
			name := src[i:j]
			start := len(out)
			out = append(out, name...)
			i = j
			if name != "null" || !inValue() {
				push(tok{kind: 'n', start: start, name: name})
				continue
			}
			top := stack[len(stack)-1]
			switch {
			case prev.kind == 'p' && prev.ch == ':' && prev2.kind == 'n' && top.ch != '[':
				blank(prev2.start) // `name: null`
				if top.ch == '{' {
					nulls[top.start] = append(nulls[top.start], prev2.name)
				}
				prev, prev2 = tok{}, tok{}
			case prev.kind == 'p' && prev.ch == '=':
				blank(prev.start) // `$v: T = null`
				prev, prev2 = tok{}, tok{}
			case top.ch == '[':
				blank(start) // a null list item
			default:
				push(tok{kind: 'n', start: start, name: name})
			}
		case c == '(' || c == '[' || c == '{':
			if len(stack) >= maxNesting {
				return "", nil, fmt.Errorf("the document nests brackets more than %d levels deep", maxNesting)
			}
			f := frame{ch: c, start: len(out)}
			if c == '{' {
				f.value = inValue()
			}
			stack = append(stack, f)
			out = append(out, c)
			push(tok{kind: 'p', ch: c, start: f.start})
			i++
		case c == ')' || c == ']' || c == '}':
			var top frame
			if len(stack) > 0 {
				top = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
			start := len(out)
			if c == ')' && top.ch == '(' && strings.Trim(string(out[top.start+1:]), " \t\r\n,") == "" {
				// Every argument was a blanked null: `f(a: null)` means `f`,
				// and graphql-go refuses an empty `()`.
				out[top.start] = ' '
				out = append(out, ' ')
				prev, prev2 = tok{}, tok{}
				i++
				continue
			}
			out = append(out, c)
			push(tok{kind: 'p', ch: c, start: start})
			i++
		case c == ':' || c == '=' || c == '$' || c == '!' || c == '@' || c == '|' || c == '&':
			start := len(out)
			out = append(out, c)
			push(tok{kind: 'p', ch: c, start: start})
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			out = append(out, c)
			i++
		case c >= utf8.RuneSelf:
			// Not valid GraphQL outside strings: keep it for the parser's error.
			_, n := utf8.DecodeRuneInString(src[i:])
			out = append(out, src[i:i+n]...)
			i += n
		default:
			j := i + 1
			if c == '-' || c >= '0' && c <= '9' {
				for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == 'e' || src[j] == 'E' || src[j] == '+' || src[j] == '-') {
					j++
				}
			} else if c == '.' {
				for j < len(src) && src[j] == '.' {
					j++
				}
			}
			start := len(out)
			out = append(out, src[i:j]...)
			push(tok{kind: 'v', ch: c, start: start})
			i = j
		}
	}
	if len(nulls) == 0 {
		nulls = nil
	}
	return string(out), nulls, nil
}

// maxNesting bounds how deep brackets nest: the parser and the value
// converters recurse, and a 1 MiB document could otherwise nest 500,000
// input objects.
const maxNesting = 128
