package engine

import (
	"context"
	"errors"
	"time"

	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Row is one stored version of a document. Data holds the public scalar
// attributes exactly as they are served (a JSON object), so a plain read
// copies it to the response without decoding it; Extra holds everything
// else (private and password attributes, relations, media, components,
// dynamic zones).
type Row struct {
	ID          int64
	DocumentID  string
	Locale      string
	PublishedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Data        []byte
	Extra       []byte
}

// Version picks rows by publication state in Backend lookups.
type Version int

const (
	VersionPublished Version = iota
	VersionDraft
	VersionAny
)

// ErrUniqueViolation is returned by a Backend when a unique index refused a
// write (two writers raced past the engine's own check).
var ErrUniqueViolation = errors.New("unique constraint violated")

// ListQuery is a resolved read: what the store compiles to one SQL query.
type ListQuery struct {
	Version Version
	Locale  string // "" matches the empty locale; AllLocales matches all
	Filter  query.Filter
	Sort    []query.Sort // resolved: every Sort has Steps
	Start   int
	Limit   int // < 0: no limit
	// WithExtra asks for the Extra column too.
	WithExtra bool
	// DocumentIDs restricts the read to these documents when non-nil.
	DocumentIDs []string
	// RefAttr and RefIDs restrict the read to rows whose relation RefAttr
	// points at one of RefIDs (the inverse side of a relation).
	RefAttr *models.Attribute
	RefIDs  []string
	// RefType is the type of RefIDs when RefAttr is polymorphic.
	RefType string
}

// BatchItem is one list of a ListBatch.
type BatchItem struct {
	Type  *models.ContentType
	Query *ListQuery
}

// BatchLister is a Backend that reads several lists of content types in
// one round trip (the relations of one populate level); answers are in
// the items' order. limit (< 0: none) bounds the rows of all the lists
// together.
type BatchLister interface {
	ListBatch(ctx context.Context, items []BatchItem, limit int) ([][]Row, error)
}

// ListCounter is a Backend that can read a page and its total together;
// counted is false when it did not (the engine then counts).
type ListCounter interface {
	ListCounted(ctx context.Context, ct *models.ContentType, q *ListQuery) (rows []Row, total int64, counted bool, err error)
}

// Backend is what the engine needs from storage; the store package
// implements it for PostgreSQL and SQLite.
type Backend interface {
	// Migrate creates or alters tables and indexes for a schema.
	Migrate(ctx context.Context, s *models.Schema) error
	List(ctx context.Context, ct *models.ContentType, q *ListQuery) ([]Row, error)
	Count(ctx context.Context, ct *models.ContentType, q *ListQuery) (int64, error)
	// FilterItems filters and orders the items of inline component lists,
	// answering the kept items in order (list by list).
	FilterItems(ctx context.Context, q *ItemQuery) ([]ItemRef, error)
	// Write runs fn in one transaction; an error rolls everything back.
	Write(ctx context.Context, fn func(tx Tx) error) error
	Close() error
}

// IDSet is document ids of one type.
type IDSet struct {
	Type        *models.ContentType
	DocumentIDs []string
}

// Tx is a write transaction.
type Tx interface {
	// Get returns the row of a document version, or nil.
	Get(ct *models.ContentType, documentID, locale string, v Version) (*Row, error)
	// Insert writes new rows of the type, in one statement, and sets
	// their ids.
	Insert(ct *models.ContentType, rows ...*Row) error
	Update(ct *models.ContentType, r *Row) error
	// Delete removes the document's rows of a locale (every locale for
	// AllLocales) in the versions v and says how many went.
	Delete(ct *models.ContentType, documentID, locale string, v Version) (int64, error)
	// Taken reports whether a published row other than documentID's holds
	// value for the unique attribute.
	Taken(ct *models.ContentType, attr *models.Attribute, value any, locale, documentID string) (bool, error)
	// Exists reports which of the document ids exist in the type.
	Exists(ct *models.ContentType, documentIDs []string) (map[string]bool, error)
	// ExistAll is Exists for several sets at once, in one statement: the
	// i-th map answers the i-th set.
	ExistAll(sets []IDSet) ([]map[string]bool, error)
	// RemoveReference removes documentID from the relation attribute of
	// every row of the owner type that points at it.
	RemoveReference(ref models.Reference, documentID string) error
	// Referencing lists the documents of the owner type whose relation
	// attribute points at documentID.
	Referencing(ref models.Reference, documentID string) ([]string, error)
	// RemoveMorphReference removes the items naming (uid, documentID)
	// from a polymorphic relation of every row of the owner type.
	RemoveMorphReference(ref models.Reference, uid, documentID string) error
	// AllRows returns every row (each version and locale) of the documents.
	AllRows(ct *models.ContentType, documentIDs []string) ([]Row, error)
	// DocumentIDs maps numeric row ids of a type to their document ids.
	DocumentIDs(ct *models.ContentType, ids []int64) (map[int64]string, error)
	// Lock serialises writers of one type until the transaction ends (the
	// create-or-update of a single type).
	Lock(ct *models.ContentType) error
	// FirstDocumentID returns the document of a single type, or "".
	FirstDocumentID(ct *models.ContentType) (string, error)
	// Emit writes an event to the outbox, committed with the change.
	Emit(ev *Event) error
	// Meta reads and writes the key/value table of system settings.
	Meta(key string) (string, bool, error)
	SetMeta(key, value string) error
	// SchemaVersion is the stored schema version, read when the
	// transaction began under a lock a schema change takes exclusively:
	// no schema change commits before this transaction ends.
	SchemaVersion() int64
}
