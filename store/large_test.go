package store_test

import (
	"database/sql"
	"fmt"
	neturl "net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestLargeColumnBecomesJSON: on PostgreSQL a table made when the large
// column was JSONB gets a JSON one at start while it is small and no other
// session uses the database; a big one (by the planner's estimate), or one
// another node uses, is left as it is and works: documents read back whole,
// filters on long fields match, writes go through.
func TestLargeColumnBecomesJSON(t *testing.T) {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL is not set: this checks a PostgreSQL column type")
	}
	// A database of its own: "alone" means no other session in it, and the
	// other tests' schemas share TEST_DATABASE_URL's.
	url, sessions := ownDatabase(t, base)
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
	running := []*testenv.Env{e}
	for _, tc := range []struct {
		name  string
		rows  string // the planner's estimate set before the start
		alone bool   // the node that ran before is stopped first
		wants string
	}{
		{"small, another node running", "10", false, "jsonb"},
		{"small, alone", "10", true, "json"},
		{"never analyzed (size unknown), alone", "-1", true, "jsonb"},
		{"big, alone", "200000", true, "jsonb"},
	} {
		if err := e.Store.GORM().Exec("ALTER TABLE articles ALTER COLUMN large TYPE jsonb USING large::jsonb").Error; err != nil {
			t.Fatal(err)
		}
		if err := e.Store.GORM().Exec("UPDATE pg_class SET reltuples = " + tc.rows + " WHERE oid = 'articles'::regclass").Error; err != nil {
			t.Fatal(err)
		}
		check(e) // the older node has its statements prepared
		if tc.alone {
			for _, old := range running {
				old.App.Close()
			}
			running = nil
			// A closed connection's backend leaves a moment later.
			for deadline := time.Now().Add(10 * time.Second); sessions() > 0 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
		}
		again := testenv.Start(t, url, testenv.Options{Public: testenv.AllActions(t, "")})
		if typ := typeOf(again); typ != tc.wants {
			t.Errorf("%s: large is %s after a start, want %s", tc.name, typ, tc.wants)
		}
		check(again)
		if !tc.alone {
			// The older node reads on.
			check(e)
			if r := e.Do("GET", "/api/articles/"+firstID(t, e), nil); r.Status != 200 || r.Data()["body"] != content {
				t.Fatalf("%s: one article on the older node: %d %s", tc.name, r.Status, r.Body)
			}
		}
		for _, body := range []string{content + "!", content} {
			if r := again.Do("PUT", "/api/articles/"+firstID(t, again), map[string]any{"data": map[string]any{"body": body}}); r.Status != 200 {
				t.Fatalf("%s: update: %d %s", tc.name, r.Status, r.Body)
			}
		}
		e = again
		running = append(running, again)
	}
}

// ownDatabase creates a database for the test on base's server and drops
// it at the end; sessions counts the sessions connected to it.
func ownDatabase(t *testing.T, base string) (string, func() int) {
	t.Helper()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := fmt.Sprintf("stratum_large_%d", time.Now().UnixNano())
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	u, err := neturl.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	sessions := func() int {
		var n int
		if err := admin.QueryRow("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = $1", name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return u.String(), sessions
}

func firstID(t *testing.T, e *testenv.Env) string {
	t.Helper()
	l := e.Do("GET", "/api/articles", nil).List()
	if len(l) == 0 {
		t.Fatal("no article")
	}
	return l[0]["documentId"].(string)
}
