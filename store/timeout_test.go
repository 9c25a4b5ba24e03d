package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/store"
)

// TestStatementTimeout: on PostgreSQL every pooled connection has a
// statement timeout (30 s unless the URL sets one); the server cancels a
// statement past it and the connection keeps serving.
func TestStatementTimeout(t *testing.T) {
	mk, ok := testdb.Databases(t)["postgres"]
	if !ok {
		t.Skip("PostgreSQL only: set TEST_DATABASE_URL")
	}
	url := mk(t)
	st, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v string
	if err := st.GORM().Raw("SHOW statement_timeout").Row().Scan(&v); err != nil || v != "30s" {
		t.Fatalf("default statement_timeout: %q %v", v, err)
	}
	short, err := store.Open(url + "&statement_timeout=150")
	if err != nil {
		t.Fatal(err)
	}
	defer short.Close()
	db := short.GORM()
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(1) // the same connection must serve after the timeout
	if _, err := sqlDB.ExecContext(context.Background(), "SELECT pg_sleep(2)"); err == nil || !strings.Contains(err.Error(), "statement timeout") {
		t.Fatalf("a slow statement: %v", err)
	}
	var one int
	if err := sqlDB.QueryRowContext(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("after the timeout: %d %v", one, err)
	}
}
