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
func NewRegistry(s *models.Schema) *Registry { return NewRegistryAt(s, 0) }

// NewRegistryAt starts a registry at a schema of a stored version.
func NewRegistryAt(s *models.Schema, version int64) *Registry {
	r := &Registry{}
	r.cur.Store(&Snapshot{Schema: s, Version: version})
	return r
}

// Install swaps in a schema of a stored version, unless a newer one is
// already installed (notifications may arrive out of order).
func (r *Registry) Install(s *models.Schema, version int64) *Snapshot {
	next := &Snapshot{Schema: s, Version: version}
	for {
		old := r.cur.Load()
		if old.Version >= version {
			return old
		}
		if r.cur.CompareAndSwap(old, next) {
			return next
		}
	}
}

// Current is the snapshot to use for one request.
func (r *Registry) Current() *Snapshot { return r.cur.Load() }
