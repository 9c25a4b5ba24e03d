package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/stratum-cms/stratum/models"
)

// Format is the response shape: Strapi 5's flat documents or, for the
// `Strapi-Response-Format: v4` header, the previous nested `attributes` shape.
type Format int

const (
	FormatV5 Format = iota
	FormatV4
)

// Document is a document version shaped for a response.
type Document struct {
	ID          int64
	DocumentID  string
	Locale      string
	Localized   bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	PublishedAt *time.Time
	// Fields holds the JSON object members of the scalar attributes to
	// show, without braces: `"title":"x","views":3`.
	Fields []byte
	// Hide lists the system fields a `fields` selection left out.
	Hide systemMask
	// Type is the document's type uid, shown as __type where a
	// polymorphic relation populated it.
	Type    string
	Related []Related
	// refs counts the populated relations that show this document (one
	// author for many articles); one shown more than once is written once
	// and its JSON copied (memo, in format memoFmt).
	refs    int
	memo    []byte
	memoFmt Format
}

// appendShared writes d as AppendJSON does, from its memo when it was
// written before in this format.
func (d *Document) appendShared(b []byte, f Format) []byte {
	if d.refs < 2 {
		return d.AppendJSON(b, f)
	}
	if d.memo != nil && d.memoFmt == f {
		return append(b, d.memo...)
	}
	start := len(b)
	b = d.AppendJSON(b, f)
	d.memo, d.memoFmt = append([]byte(nil), b[start:]...), f
	return b
}

type systemMask uint8

const (
	hideCreated systemMask = 1 << iota
	hideUpdated
	hidePublished
	hideLocale
)

// Related is a populated attribute: a relation (One/Many, IsList for
// to-many) or an inline value rendered as JSON (components, zones, media).
type Related struct {
	Name   string
	IsList bool
	One    *Document
	Many   []*Document
	Raw    []byte
	// Media marks Raw as file objects, which the v4 format wraps as
	// {data: {id, attributes}}.
	Media bool
}

// AppendJSON appends the document's JSON in format f.
func (d *Document) AppendJSON(b []byte, f Format) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, d.ID, 10)
	b = append(b, `,"documentId":`...)
	b = appendQuoted(b, d.DocumentID)
	if d.Type != "" {
		b = append(b, `,"__type":`...)
		b = appendQuoted(b, d.Type)
	}
	if f == FormatV4 {
		b = append(b, `,"attributes":{`...)
	} else {
		b = append(b, ',')
	}
	mark := len(b)
	sep := func() {
		if len(b) > mark {
			b = append(b, ',')
		}
	}
	if len(d.Fields) > 0 {
		b = append(b, d.Fields...)
	}
	for i := range d.Related {
		r := &d.Related[i]
		sep()
		b = appendQuoted(b, r.Name)
		b = append(b, ':')
		b = r.appendJSON(b, f)
	}
	if d.Hide&hideCreated == 0 {
		sep()
		b = appendTimeField(b, "createdAt", &d.CreatedAt)
	}
	if d.Hide&hideUpdated == 0 {
		sep()
		b = appendTimeField(b, "updatedAt", &d.UpdatedAt)
	}
	if d.Hide&hidePublished == 0 {
		sep()
		b = appendTimeField(b, "publishedAt", d.PublishedAt)
	}
	if d.Localized && d.Hide&hideLocale == 0 {
		sep()
		b = append(b, `"locale":`...)
		b = appendQuoted(b, d.Locale)
	}
	if f == FormatV4 {
		b = append(b, '}')
	} else if len(b) == mark { // nothing after the comma
		b = b[:mark-1]
	}
	return append(b, '}')
}

func (r *Related) appendJSON(b []byte, f Format) []byte {
	if r.Raw != nil {
		if f == FormatV4 && r.Media {
			return appendV4Media(b, r.Raw)
		}
		return append(b, r.Raw...)
	}
	if f == FormatV4 {
		b = append(b, `{"data":`...)
	}
	if r.IsList {
		b = append(b, '[')
		for i, d := range r.Many {
			if i > 0 {
				b = append(b, ',')
			}
			b = d.appendShared(b, f)
		}
		b = append(b, ']')
	} else if r.One != nil {
		b = r.One.appendShared(b, f)
	} else {
		b = append(b, "null"...)
	}
	if f == FormatV4 {
		b = append(b, '}')
	}
	return b
}

func appendTimeField(b []byte, name string, t *time.Time) []byte {
	b = append(b, '"')
	b = append(b, name...)
	b = append(b, `":`...)
	if t == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = appendTimestamp(b, *t)
	return append(b, '"')
}

// shape turns a row into a Document showing fields (nil: all).
func shape(ct *models.ContentType, r *Row, fields []string) *Document {
	d := &Document{ID: r.ID, DocumentID: r.DocumentID, Locale: r.Locale, Localized: ct.Localized,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, PublishedAt: r.PublishedAt}
	if fields == nil {
		d.Fields = innerObject(r.Data) // the hot path: no decoding
		return d
	}
	d.Hide = hideCreated | hideUpdated | hidePublished | hideLocale
	var m map[string]json.RawMessage
	_ = json.Unmarshal(r.Data, &m)
	var buf []byte
	for _, f := range fields {
		switch f {
		case "createdAt":
			d.Hide &^= hideCreated
			continue
		case "updatedAt":
			d.Hide &^= hideUpdated
			continue
		case "publishedAt":
			d.Hide &^= hidePublished
			continue
		case "locale":
			d.Hide &^= hideLocale
			continue
		case "id", "documentId":
			continue
		}
		if len(buf) > 0 {
			buf = append(buf, ',')
		}
		buf = appendQuoted(buf, f)
		buf = append(buf, ':')
		if v, ok := m[f]; ok {
			buf = append(buf, v...)
		} else {
			buf = append(buf, "null"...)
		}
	}
	d.Fields = buf
	return d
}

// innerObject strips the braces of a JSON object: {"a":1} -> "a":1.
func innerObject(obj []byte) []byte {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 {
		return nil
	}
	return bytes.TrimSpace(obj[1 : len(obj)-1])
}

// appendV4Media writes file objects as the v4 format writes related
// documents: {"data": {"id": 1, "documentId": "…", "attributes": {...}}},
// a list in data for multiple media, {"data": null} for none. The file's
// other keys keep their order.
func appendV4Media(b []byte, raw []byte) []byte {
	raw = bytes.TrimSpace(raw)
	b = append(b, `{"data":`...)
	switch {
	case len(raw) > 0 && raw[0] == '[':
		var list []json.RawMessage
		_ = json.Unmarshal(raw, &list)
		b = append(b, '[')
		for i, f := range list {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendV4File(b, f)
		}
		b = append(b, ']')
	case len(raw) > 0 && raw[0] == '{':
		b = appendV4File(b, raw)
	default:
		b = append(b, "null"...)
	}
	return append(b, '}')
}

func appendV4File(b []byte, f json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(f))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return append(b, "null"...)
	}
	var id, docID json.RawMessage
	var attrs []byte
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			break
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		switch k {
		case "id":
			id = v
		case "documentId":
			docID = v
		default:
			if len(attrs) > 0 {
				attrs = append(attrs, ',')
			}
			attrs = appendQuoted(attrs, k.(string))
			attrs = append(attrs, ':')
			attrs = append(attrs, v...)
		}
	}
	b = append(b, `{"id":`...)
	b = append(b, orNull(id)...)
	if docID != nil {
		b = append(b, `,"documentId":`...)
		b = append(b, docID...)
	}
	b = append(b, `,"attributes":{`...)
	b = append(b, attrs...)
	return append(b, "}}"...)
}

func orNull(v json.RawMessage) []byte {
	if v == nil {
		return []byte("null")
	}
	return v
}
