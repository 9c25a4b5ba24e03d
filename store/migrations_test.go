package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/store"
)

// systemTables are the tables migration 1 makes.
var systemTables = []string{"stratum_meta", "stratum_definitions", "stratum_counts", "stratum_versions",
	"up_roles", "up_permissions", "up_users", "stratum_admin_users", "stratum_api_tokens", "stratum_files"}

func open(t testing.TB, url string) *store.Store {
	t.Helper()
	st, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func checkRecorded(t *testing.T, st *store.Store) []store.Migration {
	t.Helper()
	ms, err := st.Migrations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != store.LatestMigration() {
		t.Fatalf("recorded %d migrations, want %d: %+v", len(ms), store.LatestMigration(), ms)
	}
	for i, m := range ms {
		if m.Version != i+1 || m.Name == "" || m.AppliedAt == "" {
			t.Fatalf("migration %d recorded as %+v", i+1, m)
		}
	}
	return ms
}

// TestMigrationsRunOnce: Open applies and records every migration; a
// second Open finds them recorded and changes nothing.
func TestMigrationsRunOnce(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		first := checkRecorded(t, open(t, url))
		st := open(t, url)
		if again := checkRecorded(t, st); !reflect.DeepEqual(first, again) {
			t.Fatalf("second Open changed the record: %+v then %+v", first, again)
		}
		// MigrateSystem on an up-to-date database is a no-op too.
		if err := st.MigrateSystem(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkRecorded(t, st)
		desc := describe(t, st.Dialect(), url)
		for _, tbl := range systemTables {
			if desc.columns[tbl] == "" {
				t.Errorf("table %s missing", tbl)
			}
		}
	})
}

// TestConcurrentOpens: nodes starting together on one database all come
// up and each migration is applied (and recorded) once.
func TestConcurrentOpens(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		const nodes = 6
		var wg sync.WaitGroup
		stores := make([]*store.Store, nodes)
		errs := make([]error, nodes)
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stores[i], errs[i] = store.Open(url)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("node %d: %v", i, err)
			}
			t.Cleanup(func() { stores[i].Close() })
		}
		want := checkRecorded(t, stores[0])
		for _, st := range stores[1:] {
			if got := checkRecorded(t, st); !reflect.DeepEqual(got, want) {
				t.Fatalf("nodes disagree: %+v vs %+v", got, want)
			}
		}
	})
}

// TestOldDatabase: a database made by the code before numbered migrations
// (AutoMigrate; testdata/old_*.sql) is adopted as it is: no table or index
// changes, the data stays, the migrations are recorded and the whole app
// works on it (users log in, the API token and the uploaded file are
// there). Its system tables are also exactly those a new database gets.
func TestOldDatabase(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		dialect := "sqlite"
		if strings.HasPrefix(url, "postgres") {
			dialect = "postgres"
		}
		script, err := os.ReadFile(filepath.Join("testdata", "old_"+dialect+".sql"))
		if err != nil {
			t.Fatal(err)
		}
		token := ""
		for _, line := range strings.Split(string(script), "\n") {
			if v, ok := strings.CutPrefix(line, "-- token: "); ok {
				token = v
			}
		}
		raw := rawDB(t, dialect, url)
		if _, err := raw.Exec(string(script)); err != nil {
			t.Fatalf("load the old database: %v", err)
		}
		before := describe(t, dialect, url)
		withoutCounters(before)
		rowsBefore := rowCounts(t, raw)

		st := open(t, url)
		checkRecorded(t, st)
		after := describe(t, dialect, url)
		delete(after.columns, "stratum_migrations")
		delete(after.indexes, "stratum_migrations")
		withoutLaterMigrations(t, after)
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("migrating changed the old tables:\nbefore %v\nafter  %v", before, after)
		}
		if got := rowCounts(t, raw); !reflect.DeepEqual(got, rowsBefore) {
			t.Fatalf("rows changed: %v then %v", rowsBefore, got)
		}

		// A new database's system tables are the old ones, column for column.
		freshURL := db(t)
		open(t, freshURL)
		fresh := describe(t, dialect, freshURL)
		withoutLaterMigrations(t, fresh)
		for _, tbl := range systemTables {
			if fresh.columns[tbl] != before.columns[tbl] || fresh.indexes[tbl] != before.indexes[tbl] {
				t.Errorf("%s differs from AutoMigrate's:\nold %s %s\nnew %s %s", tbl,
					before.columns[tbl], before.indexes[tbl], fresh.columns[tbl], fresh.indexes[tbl])
			}
		}

		// The app on the old database.
		e := testenv.Start(t, url, testenv.Options{Public: append(testenv.AllActions(t, ""),
			"plugin::upload.content-api.find", "plugin::upload.content-api.findOne")})
		if r := e.Do("POST", "/api/auth/local", map[string]any{"identifier": "ada", "password": "Lovelace1815"}); r.Status != 200 || r.JSON["jwt"] == nil {
			t.Fatalf("old user login: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/admin/login", map[string]any{"email": "root@example.com", "password": "Admin12345"}); r.Status != 200 {
			t.Fatalf("old admin login: %d %s", r.Status, r.Body)
		}
		r := e.Do("GET", "/api/articles?populate=cover", nil, "Authorization", "Bearer "+token)
		if r.Status != 200 || len(r.List()) != 1 || r.List()[0]["title"] != "Written before" {
			t.Fatalf("old article with the old token: %d %s", r.Status, r.Body)
		}
		if c, _ := r.List()[0]["cover"].(map[string]any); c == nil || c["alternativeText"] != "From before" {
			t.Fatalf("old article's cover: %s", r.Body)
		}
		if r := e.Do("GET", "/api/upload/files/1", nil); r.Status != 200 || r.JSON["name"] != "Old Photo.png" || r.JSON["width"] != 300.0 {
			t.Fatalf("old file: %d %s", r.Status, r.Body)
		}
		// New rows follow the old ones (sequences carried over).
		if r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "grace", "email": "grace@example.com", "password": "Hopper1906"}); r.Status != 200 {
			t.Fatalf("register on the old database: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/articles", map[string]any{"data": map[string]any{"title": "Written after", "cover": 1}}); r.Status != 201 {
			t.Fatalf("create on the old database: %d %s", r.Status, r.Body)
		}
	})
}

func rawDB(t testing.TB, dialect, url string) *sql.DB {
	t.Helper()
	driver := "sqlite"
	if dialect == "postgres" {
		driver = "pgx"
	}
	db, err := sql.Open(driver, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// withoutLaterMigrations takes out of a description what the migrations
// after the first (which adopts AutoMigrate's tables) add, after checking
// it is there: migration 2's up_users.tokens_valid_after.
func withoutLaterMigrations(t testing.TB, d schemaDesc) {
	t.Helper()
	withoutColumn(t, d, 2, "up_users", "tokens_valid_after")
	// Migration 3 adds the webhook tables.
	for _, tbl := range []string{"stratum_webhooks", "stratum_events", "stratum_deliveries"} {
		if _, ok := d.columns[tbl]; !ok {
			t.Fatalf("migration 3 did not add %s", tbl)
		}
		delete(d.columns, tbl)
		delete(d.indexes, tbl)
	}
	for _, c := range []string{"focal_point", "preview_url", "provider", "provider_metadata"} {
		withoutColumn(t, d, 4, "stratum_files", c)
	}
	for _, tbl := range []string{"up_users", "up_roles"} {
		for _, c := range []string{"data", "large", "extra"} {
			withoutColumn(t, d, 5, tbl, c)
		}
	}
	// Migration 6 puts a shard in the counters' keys; the tables are left
	// out of the comparisons (withoutCounters takes them out of the old
	// description too).
	for _, tbl := range counterTables {
		if !strings.Contains(d.indexes[tbl], "shard") || !strings.Contains(d.columns[tbl], "shard ") {
			t.Fatalf("migration 6 did not shard %s: %s %s", tbl, d.columns[tbl], d.indexes[tbl])
		}
	}
	withoutCounters(d)
}

var counterTables = []string{"stratum_counts", "stratum_versions"}

func withoutCounters(d schemaDesc) {
	for _, tbl := range counterTables {
		delete(d.columns, tbl)
		delete(d.indexes, tbl)
	}
}

// withoutColumn removes a column a migration added from a description.
func withoutColumn(t testing.TB, d schemaDesc, migration int, table, column string) {
	t.Helper()
	cols := strings.Split(d.columns[table], "; ")
	kept := cols[:0]
	found := false
	for _, c := range cols {
		if strings.HasPrefix(c, column+" ") {
			found = true
			continue
		}
		kept = append(kept, c)
	}
	if !found {
		t.Fatalf("migration %d did not add %s.%s: %s", migration, table, column, d.columns[table])
	}
	d.columns[table] = strings.Join(kept, "; ")
}

// schemaDesc is the shape of a database's tables: columns (name, type,
// nullability, default, key) and indexes (name, uniqueness, columns), as
// comparable text per table.
type schemaDesc struct{ columns, indexes map[string]string }

func describe(t testing.TB, dialect, url string) schemaDesc {
	t.Helper()
	db := rawDB(t, dialect, url)
	d := schemaDesc{columns: map[string]string{}, indexes: map[string]string{}}
	var colQ, idxQ string
	if dialect == "postgres" {
		colQ = `SELECT table_name, column_name || ' ' || data_type || COALESCE('(' || character_maximum_length || ')', '') ||
			' ' || is_nullable || ' ' || COALESCE(column_default, '') FROM information_schema.columns
			WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`
		idxQ = `SELECT tablename, replace(indexdef, current_schema() || '.', '') FROM pg_indexes
			WHERE schemaname = current_schema() ORDER BY tablename, indexname`
	} else {
		// GORM wrote string defaults in double quotes, which SQLite reads
		// as the same string literal: compare them as single-quoted.
		colQ = `SELECT m.name, p.name || ' ' || p.type || ' ' || p."notnull" || ' ' ||
			replace(COALESCE(p.dflt_value, ''), '"', '''') || ' ' || p.pk
			FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`
		idxQ = `SELECT m.name, i.name || ' ' || i."unique" || ' ' || i.origin || ' ' ||
			(SELECT COALESCE(group_concat(COALESCE(name, '<expr>')), '') FROM pragma_index_info(i.name))
			FROM sqlite_master m, pragma_index_list(m.name) i WHERE m.type = 'table' ORDER BY m.name, i.name`
	}
	for q, into := range map[string]map[string]string{colQ: d.columns, idxQ: d.indexes} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var tbl, item string
			if err := rows.Scan(&tbl, &item); err != nil {
				t.Fatal(err)
			}
			into[tbl] += item + "; "
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func rowCounts(t testing.TB, db *sql.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, tbl := range append(systemTables, "articles") {
		var n int
		if err := db.QueryRow(fmt.Sprintf("SELECT COUNT(*) FROM %s", tbl)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}

// TestFailedMigration: a migration that fails leaves nothing behind (its
// statements and its record are one transaction) and Open reports it; once
// fixed, the next Open applies it, once.
func TestFailedMigration(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		open(t, url)
		v, restore := store.AddMigrationForTest("broken", "CREATE TABLE zz_later (x integer)", "INSERT INTO zz_missing VALUES (1)")
		_, err := store.Open(url)
		restore()
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("system migration %d (broken)", v)) {
			t.Fatalf("broken migration: %v", err)
		}
		st := open(t, url)
		checkRecorded(t, st)
		raw := rawDB(t, st.Dialect(), url)
		if _, err := raw.Exec("SELECT * FROM zz_later"); err == nil {
			t.Fatal("the failed migration's table was kept")
		}

		_, restore = store.AddMigrationForTest("fixed", "CREATE TABLE zz_later (x integer)", "INSERT INTO zz_later VALUES (1)")
		defer restore()
		checkRecorded(t, open(t, url))
		checkRecorded(t, open(t, url))
		var n int
		if err := raw.QueryRow("SELECT COUNT(*) FROM zz_later").Scan(&n); err != nil || n != 1 {
			t.Fatalf("rows from the migration: %d %v", n, err)
		}
	})
}

// TestConcurrentLaterMigration: a migration that could not run twice (no
// IF NOT EXISTS, an INSERT) races between nodes starting together on a
// database that is behind: it runs once and every node comes up.
func TestConcurrentLaterMigration(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		url := db(t)
		st := open(t, url)
		_, restore := store.AddMigrationForTest("once", "CREATE TABLE zz_once (x integer)", "INSERT INTO zz_once VALUES (1)")
		defer restore()
		const nodes = 6
		var wg sync.WaitGroup
		errs := make([]error, nodes)
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var s *store.Store
				if s, errs[i] = store.Open(url); errs[i] == nil {
					s.Close()
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("node %d: %v", i, err)
			}
		}
		checkRecorded(t, st)
		var n int
		if err := rawDB(t, st.Dialect(), url).QueryRow("SELECT COUNT(*) FROM zz_once").Scan(&n); err != nil || n != 1 {
			t.Fatalf("the migration ran %d times: %v", n, err)
		}
	})
}
