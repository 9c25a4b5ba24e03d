package graphql

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/graphql-go/graphql/language/ast"
)

// graphql-go returns results as Go maps, whose order is lost. The encoder
// writes each object's keys in the order the query selected them, as the
// GraphQL spec asks and as Strapi's (Apollo's) answers come.

func (rq *request) encode(b []byte, v any, sets []*ast.SelectionSet) []byte {
	switch x := v.(type) {
	case map[string]any:
		return rq.encodeObject(b, x, sets)
	case []any:
		b = append(b, '[')
		for i, it := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = rq.encode(b, it, sets)
		}
		return append(b, ']')
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case json.Number:
		if x == "" {
			return append(b, '0')
		}
		return append(b, x...)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return append(b, "null"...)
		}
		return strconv.AppendFloat(b, x, 'f', -1, 64)
	}
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}

func (rq *request) encodeObject(b []byte, m map[string]any, sets []*ast.SelectionSet) []byte {
	b = append(b, '{')
	n := 0
	done := make(map[string]bool, len(m))
	var fields []*ast.Field
	if len(sets) > 0 {
		fields = rq.collect(sets)
	}
	for _, f := range fields {
		key := f.Name.Value
		if f.Alias != nil {
			key = f.Alias.Value
		}
		v, ok := m[key]
		if !ok || done[key] {
			continue
		}
		done[key] = true
		var sub []*ast.SelectionSet
		for _, g := range fields {
			gk := g.Name.Value
			if g.Alias != nil {
				gk = g.Alias.Value
			}
			if gk == key && g.SelectionSet != nil {
				sub = append(sub, g.SelectionSet)
			}
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, key)
		b = append(b, ':')
		b = rq.encode(b, v, sub)
	}
	if len(done) < len(m) { // values the selection does not name (JSON scalars)
		rest := make([]string, 0, len(m)-len(done))
		for k := range m {
			if !done[k] {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		for _, k := range rest {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendString(b, k)
			b = append(b, ':')
			b = rq.encode(b, m[k], nil)
		}
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		j, _ := json.Marshal(s)
		return append(b, j...)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
