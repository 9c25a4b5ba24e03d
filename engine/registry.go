package engine

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
)

// Snapshot is one immutable state of the schema and of everything derived
// from it (the GraphQL schema, ...). Requests take the current snapshot once
// and use it to the end, so a swap never changes a request in flight.
type Snapshot struct {
	Schema  *models.Schema
	Version int64
	// parts holds what each registered Deriver built, by Part.
	parts []any
}

// Part is the handle of one registered Deriver.
type Part struct{ id int }

// Part returns what the deriver of p built for this snapshot, or nil when
// the snapshot was made before the deriver was registered.
func (s *Snapshot) Part(p Part) any {
	if p.id < len(s.parts) {
		return s.parts[p.id]
	}
	return nil
}

// Deriver builds something served from a schema. It must not change the
// schema and may run concurrently with itself.
type Deriver func(*models.Schema) (any, error)

type namedDeriver struct {
	name  string
	build Deriver
}

// BuildError says which derived part could not be built from a schema.
type BuildError struct {
	Part string
	Err  error
}

func (e *BuildError) Error() string { return e.Part + ": " + e.Err.Error() }
func (e *BuildError) Unwrap() error { return e.Err }

// StaleSchema records a stored schema version this node could not build: it
// keeps serving the snapshot it has.
type StaleSchema struct {
	Version int64
	Err     error
}

// Registry holds the current snapshot behind an atomic pointer, and the
// derivers every new snapshot is built with.
type Registry struct {
	cur atomic.Pointer[Snapshot]

	mu       sync.Mutex // guards derivers
	derivers []namedDeriver
	stale    atomic.Pointer[StaleSchema]
}

// NewRegistry starts a registry at a schema.
func NewRegistry(s *models.Schema) *Registry { return NewRegistryAt(s, 0) }

// NewRegistryAt starts a registry at a schema of a stored version.
func NewRegistryAt(s *models.Schema, version int64) *Registry {
	r := &Registry{}
	s.Version = version
	r.cur.Store(&Snapshot{Schema: s, Version: version})
	return r
}

// Derive registers a deriver under a name (used in error messages) and
// builds its part for the current snapshot at once, so a schema it cannot
// serve stops the start. From then on every snapshot is built with it, and
// a schema change it cannot build is refused.
func (r *Registry) Derive(name string, build Deriver) (Part, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := Part{id: len(r.derivers)}
	for {
		old := r.cur.Load()
		v, err := build(old.Schema)
		if err != nil {
			return Part{}, &BuildError{Part: name, Err: err}
		}
		next := *old
		next.parts = make([]any, p.id+1)
		copy(next.parts, old.parts)
		next.parts[p.id] = v
		if r.cur.CompareAndSwap(old, &next) {
			r.derivers = append(r.derivers, namedDeriver{name, build})
			return p, nil
		}
	}
}

// Build makes a complete snapshot of a schema, every derived part
// included, without installing it. The first part that fails is returned
// as a *BuildError.
func (r *Registry) Build(s *models.Schema, version int64) (*Snapshot, error) {
	r.mu.Lock()
	ds := append([]namedDeriver(nil), r.derivers...)
	r.mu.Unlock()
	snap := &Snapshot{Schema: s, Version: version, parts: make([]any, len(ds))}
	for i, d := range ds {
		v, err := d.build(s)
		if err != nil {
			return nil, &BuildError{Part: d.name, Err: err}
		}
		snap.parts[i] = v
	}
	return snap, nil
}

// Install swaps in a built snapshot with one pointer store, unless a newer
// version is already installed (notifications may arrive out of order).
// It returns the snapshot that is current afterwards.
func (r *Registry) Install(next *Snapshot) *Snapshot {
	next.Schema.Version = next.Version // not yet shared: nobody reads it before the swap
	for {
		old := r.cur.Load()
		if old.Version >= next.Version {
			return old
		}
		if r.cur.CompareAndSwap(old, next) {
			if st := r.stale.Load(); st != nil && st.Version <= next.Version {
				r.stale.CompareAndSwap(st, nil)
			}
			return next
		}
	}
}

// Swap builds the snapshot of a schema and installs it; nothing changes
// when a part cannot be built.
func (r *Registry) Swap(s *models.Schema, version int64) (*Snapshot, error) {
	snap, err := r.Build(s, version)
	if err != nil {
		return nil, err
	}
	return r.Install(snap), nil
}

// Current is the snapshot to use for one request.
func (r *Registry) Current() *Snapshot { return r.cur.Load() }

// Stale reports the newest stored schema this node could not build, or nil
// when it serves the latest one it has seen.
func (r *Registry) Stale() *StaleSchema { return r.stale.Load() }

func (r *Registry) markStale(version int64, err error) {
	r.stale.Store(&StaleSchema{Version: version, Err: err})
}

// buildError turns a derived part's failure into the 400 of the change
// that caused it.
func buildError(err *BuildError) *errs.Error {
	return &errs.Error{Kind: errs.KindValidation,
		Message: fmt.Sprintf("The change cannot be served by %s: %v", err.Part, err.Err),
		Details: map[string]any{"part": err.Part}}
}
