package engine

import (
	"context"
	"errors"

	"github.com/stratum-cms/stratum/errs"
)

// A document write is checked and shaped against the snapshot its request
// started with. If a schema change (on any node) commits in between, the
// store's fence tells the write transaction the newer stored version before
// it writes anything; the write then runs again, whole, on that version's
// snapshot: the type may have lost draft & publish, an attribute, or be
// gone (404). A schema change waits for writes in flight, and writes that
// begin during one wait for it.

// maxSchemaRetries bounds the runs of one write. Each run found a schema
// change that committed after the run before it began (and cost one BEGIN
// and ROLLBACK): ten in one write's life is a script hammering the
// content-type builder, not people editing types.
const maxSchemaRetries = 10

// schemaMoved says the stored schema is newer than the write's snapshot.
type schemaMoved struct{ stored int64 }

func (m *schemaMoved) Error() string { return "the schema changed while the write ran" }

// tx runs fn in a write transaction for a document of c, unless the stored
// schema moved past c's snapshot.
func (e *Engine) tx(ctx context.Context, c Collection, fn func(Tx) error) error {
	return e.store.Write(ctx, func(tx Tx) error {
		// Only forward: a database restored to an older schema is served
		// by the snapshot this node has (the restore path reloads it).
		if v := tx.SchemaVersion(); v > c.Schema.Version {
			return &schemaMoved{stored: v}
		}
		return fn(tx)
	})
}

// onCurrentSchema runs op, a whole document write over *c, and again over
// the newer snapshot while a schema change overtakes it.
func (e *Engine) onCurrentSchema(ctx context.Context, c *Collection, op func() (*Document, error)) (*Document, error) {
	for run := 1; ; run++ {
		doc, err := op()
		var moved *schemaMoved
		if !errors.As(err, &moved) {
			return doc, err
		}
		if run == maxSchemaRetries {
			return nil, errs.Errorf(errs.KindConflict, "The content-types changed while this write ran: send it again")
		}
		snap := e.Registry.Current()
		if snap.Version < moved.stored {
			// An error leaves the snapshot behind, which is said below.
			_ = e.Reload(ctx)
			if snap = e.Registry.Current(); snap.Version < moved.stored {
				return nil, errs.Errorf(errs.KindConflict, "The content-types changed and this server cannot serve them yet: send the write again")
			}
		}
		ct := snap.Schema.Type(c.Type.UID)
		if ct == nil {
			return nil, errs.NotFound()
		}
		*c = Collection{Schema: snap.Schema, Type: ct}
	}
}

// onCurrentSchemaErr is onCurrentSchema for writes that return no document.
func (e *Engine) onCurrentSchemaErr(ctx context.Context, c *Collection, op func() error) error {
	_, err := e.onCurrentSchema(ctx, c, func() (*Document, error) { return nil, op() })
	return err
}
