package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DefinitionError says what is wrong with a schema definition, naming the
// file (or source) and the attribute.
type DefinitionError struct {
	Source    string
	Attribute string
	Message   string
}

func (e *DefinitionError) Error() string {
	if e.Attribute != "" {
		return fmt.Sprintf("%s: attribute %q: %s", e.Source, e.Attribute, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Source, e.Message)
}

func defErr(src, attr, format string, args ...any) *DefinitionError {
	return &DefinitionError{Source: src, Attribute: attr, Message: fmt.Sprintf(format, args...)}
}

type rawDefinition struct {
	Kind           Kind            `json:"kind"`
	CollectionName string          `json:"collectionName"`
	Info           Info            `json:"info"`
	Options        Options         `json:"options"`
	PluginOptions  PluginOptions   `json:"pluginOptions"`
	Attributes     json.RawMessage `json:"attributes"`
}

// ParseContentType reads a content-type schema file. uid is derived from the
// file's place (api::<api>.<name>); src names it in errors.
func ParseContentType(uid, src string, b []byte) (*ContentType, error) {
	var raw rawDefinition
	if err := decodeStrict(b, &raw); err != nil {
		return nil, defErr(src, "", "invalid JSON: %v", err)
	}
	attrs, warnings, err := parseAttributes(src, raw.Attributes)
	if err != nil {
		return nil, err
	}
	if raw.Kind == "" {
		raw.Kind = CollectionType
	}
	ct := &ContentType{
		UID: uid, Kind: raw.Kind, CollectionName: raw.CollectionName, Info: raw.Info,
		Options: raw.Options, Localized: raw.PluginOptions.I18n.Localized,
		Attributes: attrs, Source: src, Raw: append(json.RawMessage(nil), b...), Warnings: warnings,
	}
	ct.byName = indexAttrs(attrs)
	return ct, nil
}

// ParseComponent reads a component file; uid is <category>.<name>.
func ParseComponent(uid, category, src string, b []byte) (*Component, error) {
	var raw rawDefinition
	if err := decodeStrict(b, &raw); err != nil {
		return nil, defErr(src, "", "invalid JSON: %v", err)
	}
	attrs, warnings, err := parseAttributes(src, raw.Attributes)
	if err != nil {
		return nil, err
	}
	c := &Component{
		UID: uid, Category: category, CollectionName: raw.CollectionName, Info: raw.Info,
		Attributes: attrs, Source: src, Raw: append(json.RawMessage(nil), b...), Warnings: warnings,
	}
	c.byName = indexAttrs(attrs)
	return c, nil
}

// decodeStrict decodes one JSON value and refuses trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			line, col := Position(b, int64(len(b)))
			return fmt.Errorf("line %d, column %d: unexpected end of the file", line, col)
		}
		return JSONError(b, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		for off < int64(len(b)) && (b[off] == ' ' || b[off] == '\n' || b[off] == '\r' || b[off] == '\t') {
			off++
		}
		line, col := Position(b, off+1) // the first byte of the extra data
		return fmt.Errorf("line %d, column %d: unexpected data after the JSON object", line, col)
	}
	return nil
}

// parseAttributes keeps the file's attribute order, which a map would lose.
func parseAttributes(src string, b json.RawMessage) ([]*Attribute, []string, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, defErr(src, "", "missing \"attributes\" object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, nil, defErr(src, "", "\"attributes\" must be an object")
	}
	var attrs []*Attribute
	var warnings []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, defErr(src, "", "invalid attributes: %v", err)
		}
		name := tok.(string)
		a := &Attribute{}
		if err := dec.Decode(a); err != nil {
			return nil, nil, defErr(src, name, "invalid definition: %v", err)
		}
		if seen[name] {
			return nil, nil, defErr(src, name, "defined twice")
		}
		seen[name] = true
		a.Name = name
		if w := resolveCustomField(a); w != "" {
			warnings = append(warnings, src+": "+w)
		}
		attrs = append(attrs, a)
	}
	return attrs, warnings, nil
}
