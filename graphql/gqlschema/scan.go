package gqlschema

import (
	"encoding/json"
)

// scanMembers splits the members of a JSON object written without its
// braces (engine.Document.Fields: `"title":"x","views":3`) into raw values,
// without decoding them: a resolver decodes only the fields a query asks
// for. The input comes from the engine and is valid JSON; anything odd
// falls back to encoding/json.
func scanMembers(b []byte) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, 16)
	i, n := 0, len(b)
	skipSpace := func() {
		for i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
	}
	fallback := func() map[string]json.RawMessage {
		m := map[string]json.RawMessage{}
		buf := make([]byte, 0, len(b)+2)
		buf = append(append(append(buf, '{'), b...), '}')
		_ = json.Unmarshal(buf, &m)
		return m
	}
	for {
		skipSpace()
		if i >= n {
			return out
		}
		if b[i] != '"' {
			return fallback()
		}
		start := i
		i++
		escaped := false
		for i < n && b[i] != '"' {
			if b[i] == '\\' {
				escaped = true
				i++
			}
			i++
		}
		if i >= n {
			return fallback()
		}
		i++
		var key string
		if escaped {
			if json.Unmarshal(b[start:i], &key) != nil {
				return fallback()
			}
		} else {
			key = string(b[start+1 : i-1])
		}
		skipSpace()
		if i >= n || b[i] != ':' {
			return fallback()
		}
		i++
		skipSpace()
		vstart := i
		var end int
		i, end = valueEnd(b, i)
		out[key] = json.RawMessage(b[vstart:end])
		if i < n {
			i++ // the comma
		}
	}
}

// findMember returns the raw value of one member of a braceless JSON
// object, scanning it without allocating; ok false means the input needs
// the general path (escaped keys, unexpected bytes).
func findMember(b []byte, key string) (v json.RawMessage, ok bool) {
	i, n := 0, len(b)
	for {
		for i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		if i >= n {
			return nil, true
		}
		if b[i] != '"' {
			return nil, false
		}
		ks := i + 1
		i++
		for i < n && b[i] != '"' {
			if b[i] == '\\' {
				return nil, false
			}
			i++
		}
		if i >= n {
			return nil, false
		}
		k := b[ks:i]
		i++
		for i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		if i >= n || b[i] != ':' {
			return nil, false
		}
		i++
		for i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		vs := i
		var end int
		i, end = valueEnd(b, i)
		if string(k) == key {
			return json.RawMessage(b[vs:end]), true
		}
		if i < n {
			i++
		}
	}
}

// valueEnd scans one JSON value of a member list from i: next is where the
// member ends (its comma or the input's end), end where the value ends
// without trailing space.
func valueEnd(b []byte, i int) (next, end int) {
	n, depth, start := len(b), 0, i
	for i < n {
		switch b[i] {
		case '"':
			i++
			for i < n && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				return i, trimEnd(b, start, i)
			}
		}
		i++
	}
	return i, trimEnd(b, start, min(i, n))
}

func trimEnd(b []byte, start, end int) int {
	for end > start && (b[end-1] == ' ' || b[end-1] == '\n' || b[end-1] == '\t' || b[end-1] == '\r') {
		end--
	}
	return end
}
