package store

import (
	"context"

	"github.com/stratum-cms/stratum/realtime"
)

// The event outbox as realtime streams read it.

var _ realtime.Store = (*Store)(nil)

func (s *Store) EventsAfter(ctx context.Context, after int64, limit int) ([]realtime.Event, error) {
	p := s.d.Placeholder
	rows, err := s.read.QueryContext(ctx, "SELECT id, event, uid, document_id, locale, payload, created_at FROM stratum_events WHERE id > "+
		p(1)+" ORDER BY id LIMIT "+p(2), after, limit)
	return all(rows, err, func(r scanner) (*realtime.Event, error) {
		var e realtime.Event
		var payload string
		err := r.Scan(&e.ID, &e.Name, &e.UID, &e.DocumentID, &e.Locale, &payload, &e.CreatedAt)
		e.Payload = []byte(payload)
		return &e, err
	})
}

func (s *Store) LastEventID(ctx context.Context) (int64, error) {
	var id int64
	err := s.read.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM stratum_events").Scan(&id)
	return id, err
}
