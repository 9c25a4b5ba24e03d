package store_test

import (
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestLargeColumnBecomesJSON: on PostgreSQL a table made when the large
// column was JSONB gets a JSON one at start while it is small, and a big
// one (by the planner's estimate) is left as it is and still works:
// documents read back whole and filters on long fields match.
func TestLargeColumnBecomesJSON(t *testing.T) {
	pg := testenv.Databases(t)["postgres"]
	if pg == nil {
		t.Skip("TEST_DATABASE_URL is not set: this checks a PostgreSQL column type")
	}
	url := pg(t)
	e := testenv.Start(t, url, testenv.Options{Public: testenv.AllActions(t, "")})
	content := "A long body with a needle in it"
	if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Old", "body": content}}); r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	typeOf := func(e *testenv.Env) string {
		var typ string
		if err := e.Store.GORM().Raw("SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() " +
			"AND table_name = 'articles' AND column_name = 'large'").Scan(&typ).Error; err != nil {
			t.Fatal(err)
		}
		return typ
	}
	if typ := typeOf(e); typ != "json" {
		t.Fatalf("a new table's large column: %s", typ)
	}
	check := func(e *testenv.Env) {
		t.Helper()
		r := e.Do("GET", "/api/articles?filters[body][$contains]=needle", nil)
		if l := r.List(); len(l) != 1 || l[0]["body"] != content {
			t.Fatalf("read back: %d %s", r.Status, r.Body)
		}
	}
	check(e)
	for _, tc := range []struct {
		name  string
		rows  string // the planner's estimate set before the start
		wants string
	}{
		{"small", "-1", "json"},
		{"big", "200000", "jsonb"},
	} {
		if err := e.Store.GORM().Exec("ALTER TABLE articles ALTER COLUMN large TYPE jsonb USING large::jsonb").Error; err != nil {
			t.Fatal(err)
		}
		if err := e.Store.GORM().Exec("UPDATE pg_class SET reltuples = " + tc.rows + " WHERE oid = 'articles'::regclass").Error; err != nil {
			t.Fatal(err)
		}
		again := testenv.Start(t, url, testenv.Options{Public: testenv.AllActions(t, "")})
		if typ := typeOf(again); typ != tc.wants {
			t.Errorf("%s table after a start: large is %s, want %s", tc.name, typ, tc.wants)
		}
		check(again)
		if r := again.Do("PUT", "/api/articles/"+strings.TrimSpace(firstID(t, again)), map[string]any{"data": map[string]any{"body": content + "!"}}); r.Status != 200 {
			t.Fatalf("%s: update: %d %s", tc.name, r.Status, r.Body)
		}
		if r := again.Do("PUT", "/api/articles/"+firstID(t, again), map[string]any{"data": map[string]any{"body": content}}); r.Status != 200 {
			t.Fatalf("%s: update back: %d %s", tc.name, r.Status, r.Body)
		}
		e = again
	}
}

func firstID(t *testing.T, e *testenv.Env) string {
	t.Helper()
	l := e.Do("GET", "/api/articles", nil).List()
	if len(l) == 0 {
		t.Fatal("no article")
	}
	return l[0]["documentId"].(string)
}
