package store_test

import (
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// The whole-column containment indexes of earlier versions served no
// statement and cost every write: a start drops them.
func TestStartDropsContainmentIndexes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		e := testenv.Start(t, url, testenv.Options{})
		if e.DB != "postgres" {
			t.Skip("PostgreSQL only: SQLite never had them")
		}
		g := e.Store.GORM()
		for _, stmt := range []string{
			"CREATE INDEX articles_extra_gin ON articles USING GIN (extra jsonb_path_ops)",
			"CREATE INDEX articles_data_gin ON articles USING GIN (data jsonb_path_ops)",
		} {
			if err := g.Exec(stmt).Error; err != nil {
				t.Fatal(err)
			}
		}
		count := func() int64 {
			var n int64
			if err := g.Raw("SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE '%\\_gin'").Scan(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := count(); n != 2 {
			t.Fatalf("%d containment indexes before the restart, want 2", n)
		}
		testenv.Start(t, url, testenv.Options{})
		if n := count(); n != 0 {
			t.Errorf("%d containment indexes after a start, want 0", n)
		}
	})
}
