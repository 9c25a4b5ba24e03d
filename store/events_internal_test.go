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

// TestEventsWrittenAtCommit: a transaction's events are written together
// before it commits (in statements of eventsPerStatement), in the order
// they were emitted, and not at all when it rolls back.
func TestEventsWrittenAtCommit(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		s, err := Open(db(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		emit := func(n int, fail error) error {
			return s.Write(ctx, func(tx engine.Tx) error {
				for i := 0; i < n; i++ {
					ev := &engine.Event{Name: "entry.create", UID: "api::x.x", DocumentID: fmt.Sprint("d", i), Payload: []byte(`{}`), At: time.Now()}
					if err := tx.Emit(ev); err != nil {
						return err
					}
				}
				return fail
			})
		}
		if err := emit(3, fmt.Errorf("rolled back")); err == nil {
			t.Fatal("the failing transaction committed")
		}
		n := 2*eventsPerStatement + 3
		if err := emit(n, nil); err != nil {
			t.Fatal(err)
		}
		rows, err := s.read.QueryContext(ctx, "SELECT document_id FROM stratum_events ORDER BY id")
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
			if want := fmt.Sprint("d", i); id != want {
				t.Fatalf("event %d is %s, want %s", i, id, want)
			}
			i++
		}
		if i != n {
			t.Fatalf("%d events written, want %d", i, n)
		}
	})
}

// TestDispatchWithoutWebhooks: while no webhook exists, dispatching leaves
// the events alone (no write per poll) and pruning removes the old ones; a
// webhook made later is sent only the events from its creation on.
func TestDispatchWithoutWebhooks(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db func(testing.TB) string) {
		s, err := Open(db(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		emit := func(doc string) {
			t.Helper()
			err := s.Write(ctx, func(tx engine.Tx) error {
				return tx.Emit(&engine.Event{Name: "entry.create", UID: "api::x.x", DocumentID: doc, Payload: []byte(`{}`), At: time.Now()})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		count := func(q string) int {
			t.Helper()
			var n int
			if err := s.read.QueryRowContext(ctx, q).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		emit("old1")
		emit("old2")
		if n, err := s.Dispatch(ctx, time.Now().UnixMilli()); err != nil || n != 0 {
			t.Fatalf("dispatch without webhooks: %d, %v", n, err)
		}
		if n := count("SELECT COUNT(*) FROM stratum_events WHERE dispatched = false"); n != 2 {
			t.Fatalf("%d undispatched events, want 2 (left alone)", n)
		}
		if err := s.Prune(ctx, time.Now().Add(time.Hour).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		if n := count("SELECT COUNT(*) FROM stratum_events"); n != 0 {
			t.Fatalf("%d events left after pruning without webhooks, want 0", n)
		}
		emit("before the webhook")
		time.Sleep(5 * time.Millisecond)
		now := time.Now().UnixMilli()
		if err := s.CreateWebhook(ctx, &webhooks.Webhook{Name: "w", URL: "http://127.0.0.1:1/", Events: []string{"entry.create"},
			IsEnabled: true, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
		emit("after the webhook")
		if n, err := s.Dispatch(ctx, time.Now().UnixMilli()); err != nil || n != 1 {
			t.Fatalf("dispatch with a webhook: %d deliveries, %v; want 1", n, err)
		}
		if n := count("SELECT COUNT(*) FROM stratum_events WHERE dispatched = false"); n != 0 {
			t.Fatalf("%d undispatched events after a dispatch, want 0", n)
		}
		var doc string
		if err := s.read.QueryRowContext(ctx, "SELECT e.document_id FROM stratum_deliveries d JOIN stratum_events e ON e.id = d.event_id").Scan(&doc); err != nil || doc != "after the webhook" {
			t.Fatalf("delivered %q (%v), want the event after the webhook", doc, err)
		}
	})
}
