package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestBackupValues: what each database's driver hands back becomes one
// portable value, and that value binds as each database wants it.
func TestBackupValues(t *testing.T) {
	at := time.Date(2026, 11, 24, 5, 6, 7, 123000000, time.UTC)
	cases := []struct {
		name  string
		kind  ColumnKind
		in    any    // as a driver returns it
		json  string // in the archive
		sqlD  any    // bound on SQLite, document table
		sqlS  any    // bound on SQLite, system table
		pgS   any    // bound on PostgreSQL, system table
		isErr bool
	}{
		{name: "null", kind: KindInt, in: nil, json: "null"},
		{name: "int", kind: KindInt, in: int64(1 << 60), json: "1152921504606846976", sqlD: int64(1 << 60), sqlS: int64(1 << 60), pgS: int64(1 << 60)},
		{name: "int as text", kind: KindInt, in: []byte("42"), json: "42", sqlD: int64(42), sqlS: int64(42), pgS: int64(42)},
		{name: "float", kind: KindFloat, in: "12.5", json: "12.5", sqlD: 12.5, sqlS: 12.5, pgS: 12.5},
		{name: "bool from SQLite", kind: KindBool, in: int64(1), json: "true", sqlD: true, sqlS: true, pgS: true},
		{name: "false from SQLite", kind: KindBool, in: int64(0), json: "false", sqlD: false, sqlS: false, pgS: false},
		{name: "bool from PostgreSQL", kind: KindBool, in: true, json: "true", sqlD: true, sqlS: true, pgS: true},
		{name: "time", kind: KindTime, in: at, json: `"2026-11-24T05:06:07.123Z"`, sqlD: "2026-11-24T05:06:07.123Z", sqlS: at, pgS: at},
		{name: "time as SQLite text", kind: KindTime, in: "2026-11-24T05:06:07.123Z", json: `"2026-11-24T05:06:07.123Z"`,
			sqlD: "2026-11-24T05:06:07.123Z", sqlS: at, pgS: at},
		{name: "time as modernc text", kind: KindTime, in: "2026-11-24 07:06:07.123+02:00", json: `"2026-11-24T05:06:07.123Z"`,
			sqlD: "2026-11-24T05:06:07.123Z", sqlS: at, pgS: at},
		{name: "JSON", kind: KindJSON, in: []byte(`{"a": [1, "x"]}`), json: `{"a":[1,"x"]}`, sqlD: `{"a":[1,"x"]}`, sqlS: `{"a":[1,"x"]}`, pgS: `{"a":[1,"x"]}`},
		{name: "text", kind: KindText, in: "caf\u00e9 \"q\"\n", json: `"café \"q\"\n"`, sqlD: "caf\u00e9 \"q\"\n", sqlS: "caf\u00e9 \"q\"\n", pgS: "caf\u00e9 \"q\"\n"},
		{name: "text that SQLite kept as a number", kind: KindText, in: int64(7), json: `"7"`, sqlD: "7", sqlS: "7", pgS: "7"},
	}
	sqlite := &Store{d: sqliteDialect{}}
	pg := &Store{d: postgresDialect{}}
	for _, c := range cases {
		b, err := json.Marshal(portable(c.kind, c.in))
		if err != nil || string(b) != c.json {
			t.Errorf("%s: portable %s (%v), want %s", c.name, b, err, c.json)
			continue
		}
		for _, x := range []struct {
			s    *Store
			docs bool
			want any
		}{{sqlite, true, c.sqlD}, {sqlite, false, c.sqlS}, {pg, false, c.pgS}} {
			tx := &RestoreTx{s: x.s, cur: &BackupTable{Documents: x.docs}}
			got, err := tx.bind(c.kind, json.RawMessage(b))
			if err != nil || !reflect.DeepEqual(got, x.want) {
				t.Errorf("%s: bound on %s (documents %v): %#v (%v), want %#v", c.name, x.s.d.Name(), x.docs, got, err, x.want)
			}
		}
	}
	bad := []struct {
		kind ColumnKind
		raw  string
		want string
	}{
		{KindInt, `"x"`, "is not an integer"},
		{KindInt, `1.5`, "is not an integer"},
		{KindInt, `1e300`, "is not an integer"},
		{KindFloat, `"1"`, "is not a number"},
		{KindBool, `"yes"`, "is not a boolean"},
		{KindTime, `"yesterday"`, "is not a time"},
		{KindTime, `12`, "is not a time"},
		{KindJSON, `{"a":`, "unexpected end"},
	}
	for _, c := range bad {
		tx := &RestoreTx{s: sqlite, cur: &BackupTable{}}
		if v, err := tx.bind(c.kind, json.RawMessage(c.raw)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s as kind %d: %#v, %v; want an error with %q", c.raw, c.kind, v, err, c.want)
		}
	}
}
