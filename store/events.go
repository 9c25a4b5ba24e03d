package store

import (
	"context"
	"strings"

	"github.com/stratum-cms/stratum/engine"
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

// eventsPerStatement keeps an outbox INSERT's values well under SQLite's
// limit on bound parameters.
const eventsPerStatement = 500

// insertEvents writes events to the outbox on db (a transaction's), in
// their order, in as few statements as the limit allows.
func (s *Store) insertEvents(ctx context.Context, db querier, evs []*engine.Event) error {
	for len(evs) > 0 {
		chunk := evs[:min(len(evs), eventsPerStatement)]
		evs = evs[len(chunk):]
		q, args := s.eventsInsert(chunk, nil)
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// eventsInsert is the INSERT of events into the outbox, its values bound
// after args.
func (s *Store) eventsInsert(evs []*engine.Event, args []any) (string, []any) {
	values := make([]string, len(evs))
	for i, ev := range evs {
		n := len(args)
		values[i] = "(" + s.phs(n+1, n+6) + ")"
		args = append(args, ev.Name, ev.UID, ev.DocumentID, ev.Locale, string(ev.Payload), ev.At.UnixMilli())
	}
	return "INSERT INTO stratum_events (event, uid, document_id, locale, payload, created_at) VALUES " + strings.Join(values, ", "), args
}
