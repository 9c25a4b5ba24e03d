// Package models holds the schema model: content-types, components and their
// attributes, read from Strapi's schema files and validated as one set.
package models

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// AttrType is a Strapi attribute type name, as written in schema files.
type AttrType string

const (
	TypeString      AttrType = "string"
	TypeText        AttrType = "text"
	TypeRichText    AttrType = "richtext"
	TypeBlocks      AttrType = "blocks"
	TypeEmail       AttrType = "email"
	TypePassword    AttrType = "password"
	TypeUID         AttrType = "uid"
	TypeEnumeration AttrType = "enumeration"
	TypeInteger     AttrType = "integer"
	TypeBigInteger  AttrType = "biginteger"
	TypeFloat       AttrType = "float"
	TypeDecimal     AttrType = "decimal"
	TypeDate        AttrType = "date"
	TypeTime        AttrType = "time"
	TypeDateTime    AttrType = "datetime"
	TypeTimestamp   AttrType = "timestamp"
	TypeBoolean     AttrType = "boolean"
	TypeJSON        AttrType = "json"
	TypeMedia       AttrType = "media"
	TypeRelation    AttrType = "relation"
	TypeComponent   AttrType = "component"
	TypeDynamicZone AttrType = "dynamiczone"
)

var knownTypes = map[AttrType]bool{
	TypeString: true, TypeText: true, TypeRichText: true, TypeBlocks: true, TypeEmail: true,
	TypePassword: true, TypeUID: true, TypeEnumeration: true, TypeInteger: true,
	TypeBigInteger: true, TypeFloat: true, TypeDecimal: true, TypeDate: true, TypeTime: true,
	TypeDateTime: true, TypeTimestamp: true, TypeBoolean: true, TypeJSON: true, TypeMedia: true,
	TypeRelation: true, TypeComponent: true, TypeDynamicZone: true,
}

// Relation kinds of Strapi schema files.
const (
	OneToOne    = "oneToOne"
	OneToMany   = "oneToMany"
	ManyToOne   = "manyToOne"
	ManyToMany  = "manyToMany"
	OneWay      = "oneWay"
	ManyWay     = "manyWay"
	MorphToOne  = "morphToOne"
	MorphToMany = "morphToMany"
	MorphOne    = "morphOne"
	MorphMany   = "morphMany"
)

var knownRelations = map[string]bool{
	OneToOne: true, OneToMany: true, ManyToOne: true, ManyToMany: true, OneWay: true,
	ManyWay: true, MorphToOne: true, MorphToMany: true, MorphOne: true, MorphMany: true,
}

// Limit is a numeric bound (min, max) that schema files write either as a
// number or as a numeric string (bigintegers).
type Limit struct {
	Value float64
	Raw   string
}

func (l *Limit) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	l.Value, l.Raw = f, s
	return nil
}

// Attribute is one attribute of a content-type or component.
type Attribute struct {
	Name string   `json:"-"`
	Type AttrType `json:"type"`

	Required     bool            `json:"required,omitempty"`
	Unique       bool            `json:"unique,omitempty"`
	Private      bool            `json:"private,omitempty"`
	Configurable *bool           `json:"configurable,omitempty"`
	Writable     *bool           `json:"writable,omitempty"`
	Default      json.RawMessage `json:"default,omitempty"`
	MinLength    *int            `json:"minLength,omitempty"`
	MaxLength    *int            `json:"maxLength,omitempty"`
	Min          *Limit          `json:"min,omitempty"`
	Max          *Limit          `json:"max,omitempty"`
	Regex        string          `json:"regex,omitempty"`

	Enum        []string `json:"enum,omitempty"`
	EnumName    string   `json:"enumName,omitempty"`
	TargetField string   `json:"targetField,omitempty"`

	Relation   string `json:"relation,omitempty"`
	Target     string `json:"target,omitempty"`
	MappedBy   string `json:"mappedBy,omitempty"`
	InversedBy string `json:"inversedBy,omitempty"`
	MorphBy    string `json:"morphBy,omitempty"`

	Component  string   `json:"component,omitempty"`
	Repeatable bool     `json:"repeatable,omitempty"`
	Components []string `json:"components,omitempty"`

	Multiple     bool     `json:"multiple,omitempty"`
	AllowedTypes []string `json:"allowedTypes,omitempty"`

	// RenamedFrom, in a definition sent to the admin API, names the
	// attribute this one replaces, so its values move instead of being lost.
	RenamedFrom string `json:"renamedFrom,omitempty"`

	CustomField   string          `json:"customField,omitempty"`
	PluginOptions json.RawMessage `json:"pluginOptions,omitempty"`

	// Column is the SQL column of a system type's built-in attribute
	// (users' username, role_id, ...); empty for every other attribute.
	Column string `json:"-"`

	pattern *regexp.Regexp
}

// Pattern is the compiled regex of the attribute, or nil.
func (a *Attribute) Pattern() *regexp.Regexp { return a.pattern }

// IsScalar reports whether the attribute holds a plain value (not a relation,
// media, component or dynamic zone).
func (a *Attribute) IsScalar() bool {
	switch a.Type {
	case TypeMedia, TypeRelation, TypeComponent, TypeDynamicZone:
		return false
	}
	return true
}

// IsPopulatable reports whether `populate` may name the attribute.
func (a *Attribute) IsPopulatable() bool { return !a.IsScalar() }

// IsToMany reports whether a relation or media attribute holds a list.
func (a *Attribute) IsToMany() bool {
	switch a.Type {
	case TypeMedia:
		return a.Multiple
	case TypeRelation:
		switch a.Relation {
		case OneToMany, ManyToMany, ManyWay, MorphToMany, MorphMany:
			return true
		}
	}
	return false
}

// IsOwner reports whether a relation is stored on this side. The side
// carrying `mappedBy` is derived from the other side by a reverse lookup.
func (a *Attribute) IsOwner() bool {
	return a.Type == TypeRelation && a.MappedBy == "" && !a.IsMorphInverse()
}

// IsMorph reports a polymorphic owning relation (morphToOne, morphToMany):
// each item names its type.
func (a *Attribute) IsMorph() bool {
	return a.Type == TypeRelation && (a.Relation == MorphToOne || a.Relation == MorphToMany)
}

// IsMorphInverse reports the inverse side of a polymorphic relation
// (morphOne, morphMany), read through the target's morphBy attribute.
func (a *Attribute) IsMorphInverse() bool {
	return a.Type == TypeRelation && (a.Relation == MorphOne || a.Relation == MorphMany)
}

// IsUnique reports whether values must differ between documents: declared
// unique, or a uid (which Strapi always keeps unique).
func (a *Attribute) IsUnique() bool { return a.Unique || a.Type == TypeUID }

// Localized reports whether a localized type keeps a separate value per
// locale (the default) or shares it (pluginOptions.i18n.localized: false).
func (a *Attribute) Localized() bool {
	if len(a.PluginOptions) == 0 {
		return true
	}
	var o struct {
		I18n struct {
			Localized *bool `json:"localized"`
		} `json:"i18n"`
	}
	if json.Unmarshal(a.PluginOptions, &o) != nil || o.I18n.Localized == nil {
		return true
	}
	return *o.I18n.Localized
}

// IsHidden reports whether the attribute never appears in responses.
func (a *Attribute) IsHidden() bool { return a.Private || a.Type == TypePassword }

// IsWritable reports whether a request body may set the attribute.
func (a *Attribute) IsWritable() bool { return a.Writable == nil || *a.Writable }

// IsNumeric reports whether the attribute compares as a number.
func (a *Attribute) IsNumeric() bool {
	switch a.Type {
	case TypeInteger, TypeBigInteger, TypeFloat, TypeDecimal:
		return true
	}
	return false
}

// IsText reports whether the attribute holds a string value.
func (a *Attribute) IsText() bool {
	switch a.Type {
	case TypeString, TypeText, TypeRichText, TypeEmail, TypeUID, TypeEnumeration, TypePassword:
		return true
	}
	return false
}
