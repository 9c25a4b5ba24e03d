package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
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
