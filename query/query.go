// Package query is the HTTP-independent description of a read: filters,
// sort, fields, populate, pagination, status and locale. rest and graphql
// parse their inputs into it; the engine resolves it against the schema
// and the reader's permissions, and the store compiles it to SQL.
package query

import "github.com/stratum-cms/stratum/models"

// Status selects the draft or the published version of documents.
type Status int

const (
	Published Status = iota
	Draft
)

// AllLocales is the locale value that selects every locale (`locale=*`).
const AllLocales = "*"

// Query is the HTTP-independent description of a read. rest and graphql
// parse their inputs into it; the engine validates it against the schema and
// the store compiles it to SQL.
type Query struct {
	Status Status
	// Locale is the requested locale; "" means the default for localized
	// types and is ignored for the others.
	Locale string
	Filter Filter
	Sort   []Sort
	Page   Pagination
	// Fields lists the scalar attributes to return; nil means all.
	Fields []string
	// Populate names the relations, media, components and dynamic zones to
	// include, each with its own nested query; nil means none.
	Populate map[string]*Populate
}

// Pagination as requested; the engine resolves defaults and clamps.
type Pagination struct {
	// OffsetMode is true when start/limit were used rather than page/pageSize.
	OffsetMode bool
	Page       int // 1-based; 0 means unset
	PageSize   int // 0 means unset
	Start      int
	Limit      int // 0 means unset; -1 means "as many as allowed"
	// WithCount nil means the configured default.
	WithCount *bool
}

// Sort is one ordering key: a path of attribute names (through relations
// and components) or a system field.
type Sort struct {
	Path []string
	Desc bool
	// Steps is set by the engine when it resolves the path.
	Steps []Step
}

// Populate is a nested read of one populatable attribute.
type Populate struct {
	Fields   []string
	Filter   Filter
	Sort     []Sort
	Populate map[string]*Populate
	// On holds per-component populates of a dynamic zone.
	On map[string]*Populate
	// All populates every populatable attribute one level deep (`*`).
	All bool
	// Count returns {"count": n} for a to-many relation instead of its documents.
	Count bool
	// Page limits each document's to-many relation list; zero means all.
	Page Pagination
}

// Filter is a node of a filter tree.
type Filter interface{ isFilter() }

// And holds when every child holds.
type And []Filter

// Or holds when any child holds.
type Or []Filter

// Not negates its child.
type Not struct{ Filter Filter }

// Cond compares one field with a value. Path names attributes from the
// queried type through relations and components down to a scalar or a
// system field ("id", "documentId", "createdAt", ...).
type Cond struct {
	Path []string
	Op   Op
	// Value is a string, a []string for array operators, or nil for
	// $null/$notNull (Bool holds their truth). The engine coerces it when it
	// resolves the condition.
	Value  any
	Values []any
	Bool   bool

	// Set by the engine when it resolves the condition against the schema.
	Steps []Step
}

func (And) isFilter()   {}
func (Or) isFilter()    {}
func (Not) isFilter()   {}
func (*Cond) isFilter() {}

// Op is a filter operator.
type Op string

const (
	OpEq           Op = "$eq"
	OpEqi          Op = "$eqi"
	OpNe           Op = "$ne"
	OpNei          Op = "$nei"
	OpLt           Op = "$lt"
	OpLte          Op = "$lte"
	OpGt           Op = "$gt"
	OpGte          Op = "$gte"
	OpIn           Op = "$in"
	OpNotIn        Op = "$notIn"
	OpContains     Op = "$contains"
	OpNotContains  Op = "$notContains"
	OpContainsi    Op = "$containsi"
	OpNotContainsi Op = "$notContainsi"
	OpNull         Op = "$null"
	OpNotNull      Op = "$notNull"
	OpBetween      Op = "$between"
	OpStartsWith   Op = "$startsWith"
	OpStartsWithi  Op = "$startsWithi"
	OpEndsWith     Op = "$endsWith"
	OpEndsWithi    Op = "$endsWithi"
)

// Operators is the fixed table of comparison operators.
var Operators = map[Op]bool{
	OpEq: true, OpEqi: true, OpNe: true, OpNei: true, OpLt: true, OpLte: true, OpGt: true,
	OpGte: true, OpIn: true, OpNotIn: true, OpContains: true, OpNotContains: true,
	OpContainsi: true, OpNotContainsi: true, OpNull: true, OpNotNull: true, OpBetween: true,
	OpStartsWith: true, OpStartsWithi: true, OpEndsWith: true, OpEndsWithi: true,
}

// Step is one resolved element of a condition or sort path.
type Step struct {
	// Type is set when the step is a field of a content-type row; Component
	// when it is a field inside a component value.
	Type      *models.ContentType
	Component *models.Component
	// Attr is the attribute, or nil for a system field.
	Attr   *models.Attribute
	System string // "id", "documentId", "createdAt", "updatedAt", "publishedAt", "locale"
}
