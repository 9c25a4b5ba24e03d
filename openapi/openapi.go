// Package openapi describes a schema's REST API as an OpenAPI 3.1
// document: every content type's endpoints with Strapi's query
// parameters, request and response schemas per attribute type, the error
// envelope, the auth schemes, and the users-permissions and upload
// endpoints. It is built with every schema snapshot, so it changes at
// once with the schema.
package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/tsgen"
)

// Options are what the document says of the server.
type Options struct {
	Title   string
	Version string
	Prefix  string // "/api"
}

type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

func nullable(s obj) obj { return obj{"anyOf": []any{s, obj{"type": "null"}}} }

// Build makes the document of a schema.
func Build(s *models.Schema, o Options) ([]byte, error) {
	if o.Prefix == "" {
		o.Prefix = "/api"
	}
	if o.Title == "" {
		o.Title = "Stratum content API"
	}
	if o.Version == "" {
		o.Version = "1"
	}
	schemas := baseSchemas()
	paths := obj{}
	for _, c := range s.Components {
		name := tsgen.ComponentName(c.UID)
		props := obj{"id": obj{"type": "integer"}}
		inProps := obj{"id": obj{"type": "integer"}}
		for _, a := range c.Attributes {
			if !a.IsHidden() {
				props[a.Name] = attrSchema(s, a)
			}
			if a.IsWritable() {
				inProps[a.Name] = inputSchema(a)
			}
		}
		schemas[name] = obj{"type": "object", "description": "Component " + c.UID, "properties": props, "required": []any{"id"}}
		schemas[name+"Input"] = obj{"type": "object", "properties": inProps}
	}
	for _, ct := range s.Types {
		name := tsgen.TypeName(ct)
		props := obj{"id": obj{"type": "integer"}, "documentId": obj{"type": "string"},
			"createdAt": obj{"type": "string", "format": "date-time"}, "updatedAt": obj{"type": "string", "format": "date-time"},
			"publishedAt": obj{"type": []any{"string", "null"}, "format": "date-time"}}
		if ct.Localized {
			props["locale"] = obj{"type": []any{"string", "null"}}
			props["localizations"] = obj{"type": "array", "items": obj{"type": "object"}}
		}
		inProps := obj{}
		for _, a := range ct.Attributes {
			if !a.IsHidden() {
				props[a.Name] = attrSchema(s, a)
			}
			if a.IsWritable() {
				inProps[a.Name] = inputSchema(a)
			}
		}
		desc := ct.Info.Description
		if desc == "" {
			desc = ct.Info.DisplayName
		}
		// A populated relation is described by its target's scalar
		// attributes: the populate tree can go on at any depth, and a
		// schema that refers to itself is one many tools cannot read.
		refProps := obj{}
		for k, v := range props {
			if a := ct.Attr(k); a == nil || a.IsScalar() {
				refProps[k] = v
			}
		}
		schemas[name+"Ref"] = obj{"type": "object", "description": desc + " (populated as a relation; its own relations and media as objects)",
			"properties": refProps, "required": []any{"id", "documentId"}}
		schemas[name] = obj{"type": "object", "description": desc, "properties": props, "required": []any{"id", "documentId"}}
		schemas[name+"Input"] = obj{"type": "object", "properties": inProps}
		schemas[name+"Request"] = obj{"type": "object", "required": []any{"data"}, "properties": obj{"data": ref(name + "Input")}}
		schemas[name+"Response"] = obj{"type": "object", "required": []any{"data"}, "properties": obj{"data": ref(name), "meta": obj{"type": "object"}}}
		schemas[name+"ListResponse"] = obj{"type": "object", "required": []any{"data", "meta"}, "properties": obj{
			"data": obj{"type": "array", "items": ref(name)}, "meta": ref("ListMeta")}}
		addTypePaths(paths, o.Prefix, ct, name)
	}
	addPluginPaths(paths, o.Prefix)
	doc := obj{
		"openapi": "3.1.0",
		"info": obj{"title": o.Title, "version": o.Version,
			"description": "Strapi 5's REST contract for this project's content types, served by Stratum."},
		"servers":  []any{obj{"url": "/"}},
		"security": []any{obj{}, obj{"bearerAuth": []any{}}},
		"paths":    paths,
		"components": obj{"schemas": schemas, "parameters": parameters(), "responses": errorResponses(), "securitySchemes": obj{
			"bearerAuth": obj{"type": "http", "scheme": "bearer",
				"description": "A user's JWT (POST /api/auth/local) or an API token issued by an admin."}}},
	}
	return json.Marshal(doc)
}

// attrSchema is an attribute's schema in answers.
func attrSchema(s *models.Schema, a *models.Attribute) obj {
	scalar := func(sc obj) obj {
		if a.Required {
			return sc
		}
		t := sc["type"]
		sc["type"] = []any{t, "null"}
		if e, ok := sc["enum"].([]any); ok {
			sc["enum"] = append(e, nil)
		}
		return sc
	}
	switch a.Type {
	case models.TypeString, models.TypeText, models.TypeRichText, models.TypeUID, models.TypeTime, models.TypePassword:
		return scalar(obj{"type": "string"})
	case models.TypeEmail:
		return scalar(obj{"type": "string", "format": "email"})
	case models.TypeEnumeration:
		e := make([]any, len(a.Enum))
		for i, v := range a.Enum {
			e[i] = v
		}
		return scalar(obj{"type": "string", "enum": e})
	case models.TypeDate:
		return scalar(obj{"type": "string", "format": "date"})
	case models.TypeDateTime, models.TypeTimestamp:
		return scalar(obj{"type": "string", "format": "date-time"})
	case models.TypeInteger:
		return scalar(obj{"type": "integer"})
	case models.TypeBigInteger:
		return scalar(obj{"type": "string", "pattern": `^-?\d+$`})
	case models.TypeFloat, models.TypeDecimal:
		return scalar(obj{"type": "number"})
	case models.TypeBoolean:
		return scalar(obj{"type": "boolean"})
	case models.TypeJSON:
		return obj{}
	case models.TypeBlocks:
		return scalar(obj{"type": "array", "items": obj{"type": "object", "required": []any{"type"}}})
	case models.TypeMedia:
		if a.Multiple {
			return obj{"type": []any{"array", "null"}, "items": ref("Media"), "description": "Present when populated."}
		}
		return nullable(ref("Media"))
	case models.TypeRelation:
		target := obj{"type": "object"}
		switch t := s.Type(a.Target); {
		case a.Target == models.UserUID:
			target = ref("User")
		case a.Target == models.FileUID:
			target = ref("Media")
		case t != nil && !t.System:
			target = ref(tsgen.TypeName(t) + "Ref")
		}
		if a.IsToMany() {
			return obj{"anyOf": []any{obj{"type": "array", "items": target}, ref("RelationCount")}, "description": "Present when populated."}
		}
		return nullable(target)
	case models.TypeComponent:
		c := ref(tsgen.ComponentName(a.Component))
		if a.Repeatable {
			return obj{"type": "array", "items": c}
		}
		return nullable(c)
	case models.TypeDynamicZone:
		var alts []any
		for _, uid := range a.Components {
			alts = append(alts, obj{"allOf": []any{ref(tsgen.ComponentName(uid)),
				obj{"type": "object", "required": []any{"__component"}, "properties": obj{"__component": obj{"const": uid}}}}})
		}
		items := obj{"type": "object"}
		if len(alts) > 0 {
			items = obj{"anyOf": alts}
		}
		return obj{"type": "array", "items": items}
	}
	return obj{}
}

// inputSchema is an attribute's schema in create and update bodies.
func inputSchema(a *models.Attribute) obj {
	switch a.Type {
	case models.TypeMedia:
		id := obj{"type": []any{"integer", "string"}}
		if a.Multiple {
			return obj{"type": []any{"array", "null"}, "items": id, "description": "File ids."}
		}
		return obj{"anyOf": []any{id, obj{"type": "null"}}, "description": "A file id."}
	case models.TypeRelation:
		return ref("RelationInput")
	case models.TypeComponent:
		c := ref(tsgen.ComponentName(a.Component) + "Input")
		if a.Repeatable {
			return obj{"type": "array", "items": c}
		}
		return nullable(c)
	case models.TypeDynamicZone:
		return obj{"type": "array", "items": obj{"type": "object", "required": []any{"__component"},
			"properties": obj{"__component": obj{"type": "string", "enum": toAny(a.Components)}}}}
	case models.TypePassword:
		return obj{"type": "string", "writeOnly": true}
	}
	sc := attrSchema(nil, a)
	if !a.Required {
		return sc
	}
	// Required values may still be left out of a draft or a partial update.
	return obj{"anyOf": []any{sc, obj{"type": "null"}}}
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// Served is the document as a node serves it: its bytes and their ETag.
type Served struct {
	Body []byte
	ETag string
}

// Serve builds the served form of a schema's document.
func Serve(s *models.Schema, o Options) (*Served, error) {
	b, err := Build(s, o)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return &Served{Body: b, ETag: `"` + hex.EncodeToString(sum[:8]) + `"`}, nil
}
