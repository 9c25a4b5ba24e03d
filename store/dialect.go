package store

import (
	"strconv"
	"strings"
	"time"
)

// Dialect holds what differs between PostgreSQL and SQLite. Identifiers it
// receives come from the validated schema, never from requests; values are
// always bound parameters.
type Dialect interface {
	Name() string
	// Placeholder is the n-th (1-based) bind parameter.
	Placeholder(n int) string
	CreateTable(table string) string
	// JSONText extracts key of a JSON object expression as text (or the
	// native scalar on SQLite).
	JSONText(base, key string) string
	// JSONValue extracts key as a JSON value, for further navigation.
	JSONValue(base, key string) string
	// Number casts a text extraction to a number for comparison and order.
	Number(expr string) string
	// Prefix is the first prefixChars characters of a text expression.
	Prefix(expr string) string
	// Bool casts a boolean extraction.
	Bool(expr string) string
	// ArrayElements is a FROM item listing a JSON array's elements as a
	// column named value (JSON values) under alias.
	ArrayElements(jsonExpr, alias string) string
	// ItemElements is like ArrayElements but also takes a single object as
	// a list of one (polymorphic relations store morphToOne as an object).
	ItemElements(jsonExpr, alias string) string
	// ListItems is the FROM list that turns a bound JSON array of arrays
	// into rows lists.value (one list) and alias.value (one item), with
	// the 0-based positions of both.
	ListItems(param, lists, alias string) (from, listIndex, itemIndex string)
	// ArrayText is the text of an ArrayElements element.
	ArrayText(alias string) string
	// ArrayObjectText extracts key of an ArrayElements object element.
	ArrayObjectText(alias, key string) string
	// ArrayObjectValue extracts key of an element as JSON.
	ArrayObjectValue(alias, key string) string
	// Time converts a time to the bound value of a timestamp column.
	Time(t time.Time) any
	// IsUniqueViolation tells a unique-index refusal from other errors.
	IsUniqueViolation(err error) bool
}

// TimeLayout is how timestamps are written in JSON and SQLite text columns:
// fixed width, UTC, so text order is time order.
const TimeLayout = "2006-01-02T15:04:05.000Z"

func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// postgresDialect speaks PostgreSQL. lz4 is set when the server can
// compress columns with it: documents over ~2 KB are stored compressed, and
// lz4 unpacks several times faster than the default pglz when filters read
// them.
type postgresDialect struct{ lz4 bool }

func (postgresDialect) Name() string             { return "postgres" }
func (postgresDialect) Placeholder(n int) string { return "$" + strconv.Itoa(n) }
func (d postgresDialect) CreateTable(t string) string {
	comp := ""
	if d.lz4 {
		comp = " COMPRESSION lz4"
	}
	return `CREATE TABLE IF NOT EXISTS ` + quote(t) + ` (
	id BIGSERIAL PRIMARY KEY,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TIMESTAMPTZ NULL,
	created_at TIMESTAMPTZ NOT NULL,
	updated_at TIMESTAMPTZ NOT NULL,
	created_by_id BIGINT NULL,
	updated_by_id BIGINT NULL,
	data JSONB` + comp + ` NOT NULL DEFAULT '{}',
	large JSON` + comp + ` NOT NULL DEFAULT '{}',
	extra JSONB` + comp + ` NOT NULL DEFAULT '{}')`
}
func (postgresDialect) JSONText(base, key string) string  { return base + "->>" + lit(key) }
func (postgresDialect) JSONValue(base, key string) string { return base + "->" + lit(key) }
func (postgresDialect) Number(e string) string            { return "(" + e + ")::numeric" }
func (postgresDialect) Prefix(e string) string {
	return "left(" + e + ", " + strconv.Itoa(prefixChars) + ")"
}
func (postgresDialect) Bool(e string) string { return "(" + e + ")::boolean" }
func (postgresDialect) ArrayElements(j, alias string) string {
	return "jsonb_array_elements(CASE WHEN jsonb_typeof(" + j + ") = 'array' THEN " + j + " ELSE '[]'::jsonb END) AS " + alias + "(value)"
}
func (postgresDialect) ItemElements(j, alias string) string {
	return "jsonb_array_elements(CASE jsonb_typeof(" + j + ") WHEN 'array' THEN " + j + " WHEN 'object' THEN jsonb_build_array(" + j + ") ELSE '[]'::jsonb END) AS " + alias + "(value)"
}
func (postgresDialect) ListItems(param, l, a string) (string, string, string) {
	return "jsonb_array_elements(" + param + "::jsonb) WITH ORDINALITY AS " + l + "(value, ord) CROSS JOIN LATERAL " +
		"jsonb_array_elements(" + l + ".value) WITH ORDINALITY AS " + a + "(value, ord)", l + ".ord - 1", a + ".ord - 1"
}
func (postgresDialect) ArrayText(alias string) string { return "(" + alias + ".value #>> '{}')" }
func (postgresDialect) ArrayObjectText(alias, key string) string {
	return alias + ".value->>" + lit(key)
}
func (postgresDialect) ArrayObjectValue(alias, key string) string {
	return alias + ".value->" + lit(key)
}
func (postgresDialect) Time(t time.Time) any { return t.UTC() }
func (postgresDialect) IsUniqueViolation(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "SQLSTATE 23505") || strings.Contains(err.Error(), "duplicate key"))
}

type sqliteDialect struct{}

func (sqliteDialect) Name() string           { return "sqlite" }
func (sqliteDialect) Placeholder(int) string { return "?" }
func (sqliteDialect) CreateTable(t string) string {
	return `CREATE TABLE IF NOT EXISTS ` + quote(t) + ` (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	document_id TEXT NOT NULL,
	locale TEXT NOT NULL DEFAULT '',
	published_at TEXT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	created_by_id INTEGER NULL,
	updated_by_id INTEGER NULL,
	data TEXT NOT NULL DEFAULT '{}',
	large TEXT NOT NULL DEFAULT '{}',
	extra TEXT NOT NULL DEFAULT '{}')`
}
func (sqliteDialect) JSONText(base, key string) string  { return base + "->>" + lit(key) }
func (sqliteDialect) JSONValue(base, key string) string { return base + "->" + lit(key) }
func (sqliteDialect) Number(e string) string            { return "CAST(" + e + " AS NUMERIC)" }
func (sqliteDialect) Prefix(e string) string {
	return "substr(" + e + ", 1, " + strconv.Itoa(prefixChars) + ")"
}
func (sqliteDialect) Bool(e string) string { return e }
func (sqliteDialect) ArrayElements(j, alias string) string {
	return "json_each(CASE WHEN json_type(" + j + ") = 'array' THEN " + j + " ELSE '[]' END) AS " + alias
}
func (sqliteDialect) ItemElements(j, alias string) string {
	return "json_each(CASE json_type(" + j + ") WHEN 'array' THEN " + j + " WHEN 'object' THEN json_array(json(" + j + ")) ELSE '[]' END) AS " + alias
}
func (sqliteDialect) ListItems(param, l, a string) (string, string, string) {
	return "json_each(" + param + ") AS " + l + ", json_each(" + l + ".value) AS " + a, l + ".key", a + ".key"
}
func (sqliteDialect) ArrayText(alias string) string { return alias + ".value" }
func (sqliteDialect) ArrayObjectText(alias, key string) string {
	return alias + ".value->>" + lit(key)
}
func (sqliteDialect) ArrayObjectValue(alias, key string) string {
	return alias + ".value->" + lit(key)
}
func (sqliteDialect) Time(t time.Time) any { return t.UTC().Format(TimeLayout) }
func (sqliteDialect) IsUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
