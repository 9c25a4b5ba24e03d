package graphql

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
		depth := 0
	value:
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
					break value
				}
			}
			i++
		}
		end := i
		for end > vstart && (b[end-1] == ' ' || b[end-1] == '\n' || b[end-1] == '\t' || b[end-1] == '\r') {
			end--
		}
		out[key] = json.RawMessage(b[vstart:end])
		if i < n {
			i++ // the comma
		}
	}
}
