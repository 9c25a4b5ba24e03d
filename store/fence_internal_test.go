package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testdb"
)

// TestFenceQueueLeavesConnections: a writer holds the fence, a schema
// change waits for it, and many more writers queue behind the change. The
// first writer then needs a pooled connection for a read (as a media
// file's check does): with every connection held by queued writers it
// would wait for ever, the change for it, and they for the change.
func TestFenceQueueLeavesConnections(t *testing.T) {
	url := testdb.Databases(t)["postgres"]
	if url == nil {
		t.Skip("PostgreSQL only (set TEST_DATABASE_URL): SQLite has one write connection and its own read pool")
	}
	s, err := Open(url(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	holding, release := make(chan bool), make(chan bool)
	var wg sync.WaitGroup
	errs := make(chan error, 3*maxConns)
	wg.Add(1)
	go func() { // the writer that holds the fence
		defer wg.Done()
		errs <- s.Write(ctx, func(engine.Tx) error {
			close(holding)
			<-release
			var one int
			return s.read.QueryRowContext(ctx, "SELECT 1").Scan(&one)
		})
	}()
	<-holding
	wg.Add(1)
	go func() { // the change, waiting for the writer
		defer wg.Done()
		errs <- s.Evolve(ctx, func(engine.SchemaTx) error { return nil })
	}()
	time.Sleep(200 * time.Millisecond)
	for i := 0; i < 2*maxConns; i++ { // writers queued behind the change
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Write(ctx, func(engine.Tx) error { return nil })
		}()
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	done := make(chan bool)
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("writers, the change and the fence's holder wait on each other")
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
