package models

import "encoding/json"

// Kind tells a collection type (many documents) from a single type (one).
type Kind string

const (
	CollectionType Kind = "collectionType"
	SingleType     Kind = "singleType"
)

// Info is the `info` block of a schema file.
type Info struct {
	SingularName string `json:"singularName,omitempty"`
	PluralName   string `json:"pluralName,omitempty"`
	DisplayName  string `json:"displayName,omitempty"`
	Description  string `json:"description,omitempty"`
	Icon         string `json:"icon,omitempty"`
}

// Options is the `options` block of a schema file.
type Options struct {
	DraftAndPublish bool `json:"draftAndPublish"`
}

// PluginOptions is the part of `pluginOptions` that Stratum reads.
type PluginOptions struct {
	I18n struct {
		Localized bool `json:"localized"`
	} `json:"i18n"`
}

// ContentType is a collection or single type. It is immutable once part of a
// Schema: a change builds a new one.
type ContentType struct {
	UID            string // api::article.article
	Kind           Kind
	CollectionName string
	Info           Info
	Options        Options
	Localized      bool
	Attributes     []*Attribute // in file order
	// Source is where the definition came from (a file path, or "database").
	Source string
	// Raw is the definition as read, so it can be written back unchanged.
	Raw json.RawMessage
	// Warnings are what loading it accepted with a change (a custom field
	// kept as JSON, ...), for the start's log and `stratum check`.
	Warnings []string
	// System marks one of Strapi's own types (users, roles) that auth
	// keeps in its tables: relations may point at it and the engine reads
	// it, but no content-API route serves it.
	System bool

	byName    map[string]*Attribute
	ext       *ContentType
	actionUID string // the permissions' prefix, when it is not the uid
}

// Component is a reusable group of attributes, stored inline in documents.
type Component struct {
	UID            string // category.name
	Category       string
	CollectionName string
	Info           Info
	Attributes     []*Attribute
	Source         string
	Raw            json.RawMessage
	Warnings       []string

	byName map[string]*Attribute
}

// Attr returns the named attribute or nil.
func (c *ContentType) Attr(name string) *Attribute { return c.byName[name] }

// Attr returns the named attribute or nil.
func (c *Component) Attr(name string) *Attribute { return c.byName[name] }

// IsSingle reports whether the type is a single type.
func (c *ContentType) IsSingle() bool { return c.Kind == SingleType }

// HasDraftAndPublish reports whether documents have draft and published versions.
func (c *ContentType) HasDraftAndPublish() bool { return c.Options.DraftAndPublish }

// Action is the permission name of an action on the type: api::article.article.find.
func (c *ContentType) Action(action string) string {
	if c.actionUID != "" {
		return c.actionUID + "." + action
	}
	return c.UID + "." + action
}

// Table is the SQL table that holds the type's documents.
func (c *ContentType) Table() string { return c.CollectionName }

func indexAttrs(attrs []*Attribute) map[string]*Attribute {
	m := make(map[string]*Attribute, len(attrs))
	for _, a := range attrs {
		m[a.Name] = a
	}
	return m
}
