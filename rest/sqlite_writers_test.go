package rest_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestTwoServersOneSQLiteFile: two servers (or a server and a command)
// writing one SQLite file at once never answer 500: a write transaction
// waits for the other's lock instead of failing its upgrade.
func TestTwoServersOneSQLiteFile(t *testing.T) {
	dbURL := testenv.Databases(t)["sqlite"](t)
	a := testenv.Start(t, dbURL, testenv.Options{Public: articleWrites, Tune: fastWebhooks(time.Hour)})
	b := testenv.Start(t, dbURL, testenv.Options{Public: articleWrites, Tune: fastWebhooks(time.Hour)})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := a
			if i%2 == 1 {
				node = b
			}
			if r := node.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprintf("tag %d", i)}}); r.Status != 201 {
				t.Errorf("write %d: %d %s", i, r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
}
