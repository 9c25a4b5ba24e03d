package engine

import (
	"context"

	"github.com/stratum-cms/stratum/models"
)

// Definition is a content-type or component defined at run time (through
// the admin API) and kept in the database, as the JSON of a schema file.
type Definition struct {
	UID  string
	Kind string // "content-type" or "component"
	Body []byte
}

// Definition kinds.
const (
	KindContentType = "content-type"
	KindComponent   = "component"
)

// SchemaStore is the part of a backend that keeps runtime definitions,
// changes tables, and tells nodes about changes.
type SchemaStore interface {
	// Definitions returns the stored definitions and the schema version.
	Definitions(ctx context.Context) ([]Definition, int64, error)
	// SchemaVersion returns the version of the stored schema.
	SchemaVersion(ctx context.Context) (int64, error)
	// Evolve runs fn in one transaction that may change tables; the
	// version bump it makes reaches the other nodes when it commits.
	Evolve(ctx context.Context, fn func(tx SchemaTx) error) error
	// Watch calls changed whenever the stored schema version may have
	// moved (a notification, or a poll where there are none), until ctx ends.
	Watch(ctx context.Context, changed func())
}

// SchemaTx is a transaction of a schema change.
type SchemaTx interface {
	Tx
	// LoadDefinitions reads the stored definitions inside the transaction.
	LoadDefinitions() ([]Definition, error)
	SaveDefinition(d Definition) error
	DeleteDefinition(uid string) error
	// BumpVersion increments and returns the schema version.
	BumpVersion() (int64, error)
	// CreateType creates the table and indexes of a type if missing.
	CreateType(ct *models.ContentType) error
	DropType(ct *models.ContentType) error
	RenameTable(from, to string) error
	// SyncIndexes drops the indexes old had and cur has not, and creates cur's.
	SyncIndexes(old, cur *models.ContentType) error
	// Rows returns every row of a type, with Extra.
	Rows(ct *models.ContentType) ([]Row, error)
	// CountRows counts the rows of a type.
	CountRows(ct *models.ContentType) (int64, error)
	// DeleteRow removes one row by id.
	DeleteRow(ct *models.ContentType, id int64) error
	// SetLocale moves every row of a type from one locale to another.
	SetLocale(ct *models.ContentType, from, to string) error
	// Recount sets a type's row counters from its rows.
	Recount(ct *models.ContentType) error
}
