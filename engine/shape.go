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
	b = strconv.AppendQuote(b, d.DocumentID)
	if d.Type != "" {
		b = append(b, `,"__type":`...)
		b = strconv.AppendQuote(b, d.Type)
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
		b = strconv.AppendQuote(b, r.Name)
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
		b = strconv.AppendQuote(b, d.Locale)
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
			b = d.AppendJSON(b, f)
		}
		b = append(b, ']')
	} else if r.One != nil {
		b = r.One.AppendJSON(b, f)
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
	b = t.UTC().AppendFormat(b, timeLayout)
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
		buf = strconv.AppendQuote(buf, f)
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

// appendV4Media writes file objects as Strapi 4 answered media:
// {"data": {"id": 1, "attributes": {...}}}, a list in data for multiple
// media, {"data": null} for none.
func appendV4Media(b []byte, raw []byte) []byte {
	wrap := func(file map[string]json.RawMessage) map[string]any {
		id := file["id"]
		delete(file, "id")
		return map[string]any{"id": id, "attributes": file}
	}
	var out any
	var list []map[string]json.RawMessage
	var one map[string]json.RawMessage
	switch {
	case json.Unmarshal(raw, &list) == nil && list != nil:
		items := make([]any, len(list))
		for i, f := range list {
			items[i] = wrap(f)
		}
		out = map[string]any{"data": items}
	case json.Unmarshal(raw, &one) == nil && one != nil:
		out = map[string]any{"data": wrap(one)}
	default:
		out = map[string]any{"data": nil}
	}
	j, _ := json.Marshal(out)
	return append(b, j...)
}
