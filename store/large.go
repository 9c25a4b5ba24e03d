package store

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// splitData stores a row's public attributes in two columns: data (small
// scalars, kept inline by PostgreSQL, read by most filters) and large (long
// texts, rich text, blocks, JSON). Only writes pay for the split; reads
// join the two objects as bytes.
func splitData(ct *models.ContentType, obj []byte) (string, string) {
	hasLarge := false
	for _, a := range ct.Attributes {
		if engine.Column(a) == "large" {
			hasLarge = true
			break
		}
	}
	if !hasLarge {
		return string(obj), "{}"
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return string(obj), "{}"
	}
	var small, large bytes.Buffer
	small.WriteByte('{')
	large.WriteByte('{')
	for _, a := range ct.Attributes { // schema order, so responses keep it
		v, ok := m[a.Name]
		if !ok {
			continue
		}
		buf := &small
		if engine.Column(a) == "large" {
			buf = &large
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		buf.WriteString(strconv.Quote(a.Name))
		buf.WriteByte(':')
		buf.Write(v)
	}
	small.WriteByte('}')
	large.WriteByte('}')
	return small.String(), large.String()
}

// joinedCopy is joinObjects(a, b) in new memory: a and b are the driver's
// buffers, valid until its next row.
func joinedCopy(a, b []byte) []byte {
	switch {
	case len(bytes.TrimSpace(b)) <= 2:
		return bytes.Clone(a)
	case len(bytes.TrimSpace(a)) <= 2:
		return bytes.Clone(b)
	}
	return joinObjects(a, b) // a new slice when both have members
}

// joinObjects concatenates two JSON objects' members into one object.
func joinObjects(a, b []byte) []byte {
	ai, bi := bytes.TrimSpace(a), bytes.TrimSpace(b)
	if len(bi) <= 2 || bytes.Equal(bi, []byte("{}")) {
		return a
	}
	if len(ai) <= 2 || bytes.Equal(ai, []byte("{}")) {
		return b
	}
	out := make([]byte, 0, len(ai)+len(bi))
	out = append(out, ai[:len(ai)-1]...)
	out = append(out, ',')
	out = append(out, bytes.TrimSpace(bi[1:])...)
	return out
}
