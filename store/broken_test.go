package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestBrokenPooledConnections: PostgreSQL connections of the pool that the
// server ended (a restart, a failover, an idle timeout, a killed backend)
// are discarded, and the reads that meet them are retried on a fresh one:
// no request fails because of them.
func TestBrokenPooledConnections(t *testing.T) {
	mk, ok := testdb.Databases(t)["postgres"]
	if !ok {
		t.Skip("PostgreSQL only: set TEST_DATABASE_URL")
	}
	// Only this test's connections are ended: other packages' tests share
	// the database.
	url := mk(t) + "&application_name=stratum_broken_test"
	e := testenv.Start(t, url, testenv.Options{Public: testenv.AllActions(t, "")})
	tok, err := e.Auth.CreateToken(context.Background(), auth.TokenInput{Name: "reader", Type: auth.TokenReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ { // fill the pool
		if r := e.Do("GET", "/api/articles?populate=*", nil); r.Status != 200 {
			t.Fatalf("warm-up: %d %s", r.Status, r.Body)
		}
	}
	admin, err := sql.Open("pgx", mk(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var killed int
	if err := admin.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'stratum_broken_test'`).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed == 0 {
		t.Fatal("no pooled connection to end")
	}
	for i := 0; i < 40; i++ {
		r := e.Do("GET", "/api/articles?populate=*", nil)
		switch i % 4 {
		case 1: // writes begin on a live connection too
			r = e.Do("POST", "/api/tags", map[string]any{"data": map[string]any{"name": fmt.Sprint("t", i)}})
		case 2: // and a credential is looked up on one
			r = e.Do("GET", "/api/tags", nil, "Authorization", "Bearer "+tok.AccessKey)
		}
		if r.Status >= 300 {
			t.Fatalf("request %d after %d connections were ended: %d %s", i, killed, r.Status, r.Body)
		}
		if i == 20 {
			killed = 0
			_ = admin.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
				WHERE datname = current_database() AND application_name = 'stratum_broken_test'`).Scan(&killed)
		}
	}
}
