package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/webhooks"
)

func openStore(t *testing.T, db func(testing.TB) string) *Store {
	t.Helper()
	s, err := Open(db(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// emitEvents writes one transaction with an entry.create event per
// document id, which then fails with fail (nil: commits).
func emitEvents(s *Store, fail error, docs ...string) error {
	return s.Write(context.Background(), func(tx engine.Tx) error {
		for _, doc := range docs {
			if err := tx.Emit(&engine.Event{Name: "entry.create", UID: "api::x.x", DocumentID: doc, Payload: []byte(`{}`), At: time.Now()}); err != nil {
				return err
			}
		}
		return fail
	})
}

func countRows(t *testing.T, s *Store, q string) int {
	t.Helper()
	var n int
	if err := s.read.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEventsWrittenAtCommit: a transaction's events are written together
// before it commits (in statements of eventsPerStatement), in the order
// they were emitted, and not at all when it rolls back.
func TestEventsWrittenAtCommit(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		s := openStore(t, db)
		if err := emitEvents(s, fmt.Errorf("rolled back"), "a", "b", "c"); err == nil {
			t.Fatal("the failing transaction committed")
		}
		docs := make([]string, 2*eventsPerStatement+3)
		for i := range docs {
			docs[i] = fmt.Sprint("d", i)
		}
		if err := emitEvents(s, nil, docs...); err != nil {
			t.Fatal(err)
		}
		rows, err := s.read.QueryContext(context.Background(), "SELECT document_id FROM stratum_events ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		i := 0
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			if i >= len(docs) || id != docs[i] {
				t.Fatalf("event %d is %s, want %s", i, id, docs[min(i, len(docs)-1)])
			}
			i++
		}
		if i != len(docs) {
			t.Fatalf("%d events written, want %d", i, len(docs))
		}
	})
}

// TestDispatchWithoutWebhooks: while no webhook exists, dispatching leaves
// the events alone (no write per poll) and pruning removes the old ones; a
// webhook made later is sent only the events from its creation on, in
// batches until none is left.
func TestDispatchWithoutWebhooks(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		s := openStore(t, db)
		ctx := context.Background()
		if err := emitEvents(s, nil, "old1", "old2"); err != nil {
			t.Fatal(err)
		}
		if n, err := s.Dispatch(ctx, time.Now().UnixMilli()); err != nil || n != 0 {
			t.Fatalf("dispatch without webhooks: %d, %v", n, err)
		}
		if n := countRows(t, s, "SELECT COUNT(*) FROM stratum_events WHERE dispatched = false"); n != 2 {
			t.Fatalf("%d undispatched events, want 2 (left alone)", n)
		}
		if err := s.Prune(ctx, time.Now().Add(time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, s, "SELECT COUNT(*) FROM stratum_events"); n != 0 {
			t.Fatalf("%d events left after pruning without webhooks, want 0", n)
		}
		if err := emitEvents(s, nil, "before the webhook"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		now := time.Now().UnixMilli()
		if err := s.CreateWebhook(ctx, &webhooks.Webhook{Name: "w", URL: "http://127.0.0.1:1/", Events: []string{"entry.create"},
			IsEnabled: true, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		if err := emitEvents(s, nil, "after 1", "after 2", "after 3", "after 4", "after 5"); err != nil {
			t.Fatal(err)
		}
		saved := dispatchBatch
		dispatchBatch = 2
		defer func() { dispatchBatch = saved }()
		if n, err := s.Dispatch(ctx, time.Now().UnixMilli()); err != nil || n != 5 {
			t.Fatalf("dispatch with a webhook: %d deliveries, %v; want 5", n, err)
		}
		if n := countRows(t, s, "SELECT COUNT(*) FROM stratum_events WHERE dispatched = false"); n != 0 {
			t.Fatalf("%d undispatched events after a dispatch, want 0", n)
		}
		if n := countRows(t, s, "SELECT COUNT(*) FROM stratum_deliveries d JOIN stratum_events e ON e.id = d.event_id WHERE e.document_id LIKE 'after%'"); n != 5 {
			t.Fatalf("%d deliveries of the events after the webhook, want 5 (and none before)", n)
		}
	})
}
