package engine

import (
	"sync/atomic"

	"github.com/stratum-cms/stratum/models"
)

// Snapshot is one immutable state of the schema. Requests take the current
// snapshot once and use it to the end, so a swap never changes a request
// in flight.
type Snapshot struct {
	Schema  *models.Schema
	Version int64
}

// Registry holds the current snapshot behind an atomic pointer.
type Registry struct {
	cur atomic.Pointer[Snapshot]
}

// NewRegistry starts a registry at a schema.
func NewRegistry(s *models.Schema) *Registry {
	r := &Registry{}
	r.cur.Store(&Snapshot{Schema: s, Version: 1})
	return r
}

// Current is the snapshot to use for one request.
func (r *Registry) Current() *Snapshot { return r.cur.Load() }

// Swap installs a new schema; the caller has migrated the database for it.
func (r *Registry) Swap(s *models.Schema) *Snapshot {
	for {
		old := r.cur.Load()
		next := &Snapshot{Schema: s, Version: old.Version + 1}
		if r.cur.CompareAndSwap(old, next) {
			return next
		}
	}
}
