package engine

import (
	"bytes"
	"encoding/json"
)

// Populating reads stored JSON (a row's extra, component items, relation
// ids) that the store wrote and the database hands back valid. Decoding it
// with encoding/json into maps, once per row and per item, was most of the
// server's CPU on populate=*; these helpers only find the members' bounds.
// On input that is not valid JSON they give up (nil, false), never panic.

// rawMember is one member of a JSON object: its key (unescaped) and value.
type rawMember struct{ key, val []byte }

// rawObject is an object's members in stored order.
type rawObject []rawMember

// get returns the value of member name, nil when absent. The last of
// repeated keys wins, as with json.Unmarshal into a map.
func (o rawObject) get(name string) json.RawMessage {
	for i := len(o) - 1; i >= 0; i-- {
		if string(o[i].key) == name {
			return o[i].val
		}
	}
	return nil
}

// parseObject splits a JSON object into its members; nil when b is not an
// object (null, a list, malformed).
func parseObject(b []byte) rawObject {
	return parseObjectInto(make(rawObject, 0, 8), b)
}

// parseObjectInto is parseObject appending to out[:0] (a reused buffer).
func parseObjectInto(out rawObject, b []byte) rawObject {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	out = out[:0]
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return out
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil
		}
		end := skipString(b, i)
		if end < 0 {
			return nil
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if json.Unmarshal(b[i:end], &k) != nil {
				return nil
			}
			key = []byte(k)
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return nil
		}
		out = append(out, rawMember{key: key, val: b[i:vend]})
		i = skipSpace(b, vend)
		if i >= len(b) {
			return nil
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return out
		default:
			return nil
		}
	}
	return nil
}

// rawField is parseObject(b).get(name) without keeping the members.
func rawField(b []byte, name string) json.RawMessage {
	return parseObject(b).get(name)
}

// eachElement calls fn with each element of a JSON array and reports
// whether b was one.
func eachElement(b []byte, fn func(json.RawMessage)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	var buf [16][]byte // most lists are short: no allocation
	elems := buf[:0]
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for i < len(b) {
		end := skipValue(b, i)
		if end < 0 {
			return false
		}
		elems = append(elems, b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
			continue
		case ']':
			// fn runs only on a whole, well-formed array, as
			// json.Unmarshal into a slice would have it.
			for _, e := range elems {
				fn(e)
			}
			return true
		}
		return false
	}
	return false
}

// rawString decodes a JSON string value; ok is false for anything else.
func rawString(b []byte) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '"' || skipString(b, 0) != len(b) {
		return "", false
	}
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b[1 : len(b)-1]), true
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i] ('"'),
// -1 if it does not end. It jumps from quote to quote (long text fields
// are most of a row): a quote ends the string unless an odd number of
// backslashes stands before it.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
	}
	return -1
}

// appendQuoted appends s as a JSON string. Names, ids and locales are
// plain ASCII and are copied as they are; anything else is escaped as
// encoding/json does (strconv.AppendQuote writes Go escapes such as \x01
// that JSON does not have, and was a hot spot besides).
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			v, _ := json.Marshal(s)
			return append(b, v...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// skipValue returns the index after the value that starts at b[i], -1 if
// it does not end. Brackets are matched by kind.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		stack := make([]byte, 0, 8)
		for j := i; j < len(b); j++ {
			switch c := b[j]; c {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
					return -1
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return j + 1
				}
			}
		}
		return -1
	case ',', '}', ']', ':':
		return -1
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\n', '\t', '\r':
			return j
		}
		j++
	}
	return j
}
