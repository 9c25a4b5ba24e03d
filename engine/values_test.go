package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/models"
)

// parseType reads a collection type with the given attributes (the JSON
// of a schema file's "attributes" object).
func parseType(t *testing.T, attrs string) *models.ContentType {
	t.Helper()
	ct, err := models.ParseContentType("api::thing.thing", "test", []byte(`{"kind":"collectionType","collectionName":"things",
		"info":{"singularName":"thing","pluralName":"things"},"options":{"draftAndPublish":false},"attributes":`+attrs+`}`))
	if err != nil {
		t.Fatal(err)
	}
	return ct
}

// scalarType is built (so regexes are compiled) with one attribute per case family.
func scalarType(t *testing.T) *models.ContentType {
	ct := parseType(t, `{
		"s": {"type":"string"},
		"sl": {"type":"string","minLength":2,"maxLength":5},
		"sr": {"type":"string","regex":"^[a-z]+$"},
		"txt": {"type":"text"},
		"email": {"type":"email"},
		"uid": {"type":"uid"},
		"enum": {"type":"enumeration","enum":["news","tutorial"]},
		"pw": {"type":"password"},
		"int": {"type":"integer"},
		"intr": {"type":"integer","min":0,"max":10},
		"big": {"type":"biginteger"},
		"bigr": {"type":"biginteger","max":"9000000000"},
		"fl": {"type":"float"},
		"flr": {"type":"float","min":-1.5},
		"dec": {"type":"decimal"},
		"date": {"type":"date"},
		"time": {"type":"time"},
		"dt": {"type":"datetime"},
		"ts": {"type":"timestamp"},
		"bool": {"type":"boolean"},
		"json": {"type":"json"},
		"blocks": {"type":"blocks"}}`)
	s, err := models.Build([]*models.ContentType{ct}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Type("api::thing.thing")
}

type n = json.Number

func TestNormalizeScalar(t *testing.T) {
	ct := scalarType(t)
	block := map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "x"}}}
	tests := []struct {
		attr string
		in   any
		want any
		err  string // a part of the message; "" when the value is accepted
	}{
		// strings
		{"s", "x", "x", ""},
		{"s", "", "", ""},
		{"s", n("1"), nil, "must be a `string` type"},
		{"s", true, nil, "must be a `string` type"},
		{"s", []any{"x"}, nil, "must be a `string` type"},
		{"txt", "long\ntext", "long\ntext", ""},
		{"sl", "a", nil, "must be at least 2 characters"},
		{"sl", "", "", ""}, // minLength does not refuse the empty string
		{"sl", "héllo", "héllo", ""},
		{"sl", "héllo!", nil, "must be at most 5 characters"},
		{"sr", "abc", "abc", ""},
		{"sr", "ab1", nil, `must match the following: "/^[a-z]+$/"`},
		{"sr", "", "", ""},
		{"email", "ann@example.com", "ann@example.com", ""},
		{"email", "", nil, "cannot be empty"},
		{"email", "Ann <ann@example.com>", nil, "must be a valid email"},
		{"email", "example.com", nil, "must be a valid email"},
		{"email", "ann@", nil, "must be a valid email"},
		{"uid", "a-b_c.d~E9", "a-b_c.d~E9", ""},
		{"uid", "", "", ""},
		{"uid", "a b", nil, "must match the following"},
		{"uid", "é", nil, "must match the following"},
		{"uid", "a/b", nil, "must match the following"},
		{"enum", "news", "news", ""},
		{"enum", "News", nil, "must be one of the following values: news, tutorial"},
		{"enum", "", nil, "must be one of the following values"},
		{"pw", strings.Repeat("x", 72), strings.Repeat("x", 72), ""},
		{"pw", strings.Repeat("x", 73), nil, "must be less than 73 bytes"},
		// integers: 32 bits
		{"int", n("10"), int64(10), ""},
		{"int", n("-2147483648"), int64(-2147483648), ""},
		{"int", n("2147483647"), int64(2147483647), ""},
		{"int", n("2147483648"), nil, "must be an integer between -2147483648 and 2147483647"},
		{"int", n("-2147483649"), nil, "must be an integer between"},
		{"int", n("1.5"), nil, "must be an integer"},
		{"int", n("1e3"), int64(1000), ""},
		{"int", "12", int64(12), ""}, // numeric strings are accepted, as Strapi does
		{"int", " 12 ", int64(12), ""},
		{"int", "abc", nil, "must be a `number` type, but the final value was: `NaN` (cast from the value `\"abc\"`)."},
		{"int", true, nil, "must be a `number` type, but the final value was: `NaN` (cast from the value `true`)."},
		{"s", n("5"), nil, "must be a `string` type, but the final value was: `5`."},
		{"s", map[string]any{"a": n("1")}, nil, "must be a `string` type, but the final value was: `{\n  \"a\": \"1\"\n}`."},
		{"s", []any{"<b>", n("2")}, nil, "must be a `string` type, but the final value was: `[\n  \"\\\"<b>\\\"\",\n  \"2\"\n]`."},
		{"bool", "maybe", nil, "must be a `boolean` type, but the final value was: `\"maybe\"`."},
		{"intr", n("0"), int64(0), ""},
		{"intr", n("10"), int64(10), ""},
		{"intr", n("-1"), nil, "must be greater than or equal to 0"},
		{"intr", n("11"), nil, "must be less than or equal to 10"},
		// bigintegers: 64 bits, returned as strings
		{"big", n("9223372036854775807"), "9223372036854775807", ""},
		{"big", n("-9223372036854775808"), "-9223372036854775808", ""},
		{"big", n("9223372036854775808"), nil, "between -9223372036854775808 and 9223372036854775807"},
		{"big", "+5", "5", ""},
		{"big", n("007"), "7", ""},
		{"big", n("1.0"), nil, "must be an integer"},
		{"big", n("1e3"), nil, "must be an integer"},
		{"big", false, nil, "must be a `number` type"},
		{"bigr", n("9000000000"), "9000000000", ""},
		{"bigr", n("9000000001"), nil, "must be less than or equal to 9000000000"},
		// floats and decimals
		{"fl", n("1.5"), 1.5, ""},
		{"fl", n("-0.25"), -0.25, ""},
		{"fl", n("1e3"), 1000.0, ""},
		{"fl", "2.5", 2.5, ""},
		{"fl", "abc", nil, "must be a `number` type, but the final value was: `NaN` (cast from the value `\"abc\"`)."},
		{"fl", "NaN", nil, "must be a `number` type"},
		{"fl", "Inf", nil, "must be a `number` type"},
		{"fl", n("1e400"), nil, "must be a `number` type"},
		{"flr", n("-1.5"), -1.5, ""},
		{"flr", n("-1.6"), nil, "must be greater than or equal to -1.5"},
		{"dec", n("9.99"), n("9.99"), ""},
		{"dec", n("1.50"), n("1.5"), ""},
		{"dec", n("1e2"), n("100"), ""},
		{"dec", n("0.123456789012345678"), n("0.123456789012345678"), ""}, // more digits than a float64 keeps
		// From 1e6 up the digits are kept in exponent form (big.Float's
		// shortest 'g'); PostgreSQL's jsonb prints them back in full.
		{"dec", n("12345678.123456789"), n("1.2345678123456789e+07"), ""},
		{"dec", n("1000000"), n("1e+06"), ""},
		{"dec", n("999999.5"), n("999999.5"), ""},
		{"dec", "0.1", n("0.1"), ""},
		// dates and times
		{"date", "2024-02-29", "2024-02-29", ""},
		{"date", "2023-02-29", nil, "Invalid date"},
		{"date", "2024-1-5", nil, "Invalid format, expected yyyy-MM-dd"},
		{"date", "2024-01-15T00:00:00Z", nil, "Invalid format, expected yyyy-MM-dd"},
		{"date", n("20240115"), nil, "Invalid format, expected yyyy-MM-dd"},
		{"time", "10:30", "10:30:00.000", ""},
		{"time", "10:30:15", "10:30:15.000", ""},
		{"time", "10:30:15.5", "10:30:15.500", ""},
		{"time", "23:59:59.999", "23:59:59.999", ""},
		{"time", "00:00", "00:00:00.000", ""},
		{"time", "24:00", nil, "Invalid time format, expected HH:mm:ss.SSS"},
		{"time", "9:30", nil, "Invalid time format, expected HH:mm:ss.SSS"},
		{"time", "10:60", nil, "Invalid time format, expected HH:mm:ss.SSS"},
		{"time", "10:30:60", nil, "Invalid time format, expected HH:mm:ss.SSS"},
		{"time", "10:30:15.1234", nil, "Invalid time format, expected HH:mm:ss.SSS"},
		{"time", n("1030"), nil, "Expected a string, got a number"},
		{"dt", "2024-01-15T10:00:00Z", "2024-01-15T10:00:00.000Z", ""},
		{"dt", "2024-01-15T10:00:00.000Z", "2024-01-15T10:00:00.000Z", ""},
		{"dt", "2024-01-15T11:00:00+01:00", "2024-01-15T10:00:00.000Z", ""},
		{"dt", "2024-01-15T10:00:00.123456Z", "2024-01-15T10:00:00.123Z", ""},
		{"dt", n("1705312800000"), "2024-01-15T10:00:00.000Z", ""}, // milliseconds
		{"dt", "1705312800000", "2024-01-15T10:00:00.000Z", ""},
		{"dt", n("-1000"), "1969-12-31T23:59:59.000Z", ""},
		{"dt", "2024-01-15", "2024-01-15T00:00:00.000Z", ""},
		{"dt", "2024-01-15 10:00:00", "2024-01-15T10:00:00.000Z", ""},
		{"dt", "2024-01-15T10:00", "2024-01-15T10:00:00.000Z", ""},
		{"dt", " 2024-01-15T10:00:00Z ", "2024-01-15T10:00:00.000Z", ""},
		{"dt", "nope", nil, "Invalid format, expected a timestamp or an ISO date"},
		{"dt", "2024-13-01", nil, "Invalid format, expected a timestamp or an ISO date"},
		{"dt", true, nil, "Invalid format, expected a timestamp or an ISO date"},
		{"ts", n("0"), "1970-01-01T00:00:00.000Z", ""},
		// booleans
		{"bool", true, true, ""},
		{"bool", false, false, ""},
		{"bool", "true", true, ""},
		{"bool", "T", true, ""},
		{"bool", " false ", false, ""},
		{"bool", "f", false, ""},
		{"bool", "1", true, ""},
		{"bool", "0", false, ""},
		{"bool", n("1"), true, ""},
		{"bool", n("0"), false, ""},
		{"bool", n("2"), nil, "must be a `boolean` type"},
		{"bool", "yes", nil, "must be a `boolean` type"},
		{"bool", "", nil, "must be a `boolean` type"},
		// JSON passes through; blocks are checked
		{"json", map[string]any{"a": n("1")}, map[string]any{"a": n("1")}, ""},
		{"json", []any{"x"}, []any{"x"}, ""},
		{"json", "text", "text", ""},
		{"blocks", []any{block}, []any{block}, ""},
		{"blocks", []any{}, []any{}, ""},
		{"blocks", block, nil, "must be an array of blocks"},
		{"blocks", []any{"x"}, nil, "[0]: a node must be an object"},
		{"blocks", []any{map[string]any{"children": []any{}}}, nil, "[0]: a block needs a `type`"},
		{"blocks", []any{map[string]any{"type": ""}}, nil, "[0]: a block needs a `type`"},
		{"blocks", []any{map[string]any{"type": "p", "children": "x"}}, nil, "[0]: unknown block `type` \"p\""},
		{"blocks", []any{map[string]any{"type": "paragraph", "children": "x"}}, nil, "[0]: children must be an array"},
	}
	for _, tc := range tests {
		a := ct.Attr(tc.attr)
		got, msg := normalizeScalar(a, tc.in)
		if tc.err == "" {
			if msg != "" || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s %#v: got %#v %q, want %#v", tc.attr, tc.in, got, msg, tc.want)
			}
			continue
		}
		if !strings.Contains(string(msg), tc.err) || got != nil {
			t.Errorf("%s %#v: got %#v %q, want an error with %q", tc.attr, tc.in, got, msg, tc.err)
		}
	}
	// null is accepted for every type
	for _, a := range ct.Attributes {
		if got, msg := normalizeScalar(a, nil); got != nil || msg != "" {
			t.Errorf("%s null: %#v %q", a.Name, got, msg)
		}
	}
}

func TestParseDateTime(t *testing.T) {
	want := time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)
	for _, in := range []any{1705312800000.0, want, "2024-01-15T10:00:00Z", n("1705312800000"), "2024-01-15T05:00:00-05:00"} {
		got, err := ParseDateTime(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("%#v: %v %v", in, got, err)
		}
	}
	for _, in := range []any{nil, true, int64(5), "", "15/01/2024"} {
		if _, err := ParseDateTime(in); err == nil {
			t.Errorf("%#v: accepted", in)
		}
	}
}

// TestPrintValueOfGoValues: a value that did not come from a JSON body (a
// Go int from a GraphQL argument) prints as JSON; it once recursed until
// the stack overflowed.
func TestPrintValueOfGoValues(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{7, "7"},
		{int64(-3), "-3"},
		{[]any{1, "a"}, "[\n  1,\n  \"\\\"a\\\"\"\n]"},
		{map[string]any{"n": 2}, "{\n  \"n\": 2\n}"},
		{json.Number("1.50"), "1.5"},
	} {
		if got := printValue(tc.in); got != tc.want {
			t.Errorf("printValue(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
