package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/models"
)

func testAttr(t *testing.T, def string) *models.Attribute {
	t.Helper()
	var a models.Attribute
	if err := json.Unmarshal([]byte(def), &a); err != nil {
		t.Fatalf("%s: %v", def, err)
	}
	a.Name = "x"
	return &a
}

// TestConvertValue covers how a stored value follows its attribute's change
// of definition (live.go, the admin API's schema changes).
func TestConvertValue(t *testing.T) {
	const (
		str     = `{"type":"string"}`
		short   = `{"type":"string","maxLength":3}`
		text    = `{"type":"text"}`
		integer = `{"type":"integer"}`
		big     = `{"type":"biginteger"}`
		float   = `{"type":"float"}`
		boolean = `{"type":"boolean"}`
		enum    = `{"type":"enumeration","enum":["news","tutorial"]}`
		date    = `{"type":"date"}`
		dt      = `{"type":"datetime"}`
		pw      = `{"type":"password"}`
		jsonT   = `{"type":"json"}`
		toOne   = `{"type":"relation","relation":"manyToOne","target":"api::t.t"}`
		toMany  = `{"type":"relation","relation":"manyToMany","target":"api::t.t"}`
		oneWay  = `{"type":"relation","relation":"oneWay","target":"api::t.t"}`
		other   = `{"type":"relation","relation":"manyToMany","target":"api::o.o"}`
		inverse = `{"type":"relation","relation":"oneToMany","target":"api::t.t","mappedBy":"x"}`
		comp    = `{"type":"component","component":"parts.a"}`
		comps   = `{"type":"component","component":"parts.a","repeatable":true}`
		compB   = `{"type":"component","component":"parts.b"}`
		zone    = `{"type":"dynamiczone","components":["parts.a","parts.b"]}`
		zoneA   = `{"type":"dynamiczone","components":["parts.a"]}`
		media   = `{"type":"media","multiple":true}`
	)
	itemA := map[string]any{"id": n("1"), "label": "a"}
	itemA2 := map[string]any{"id": n("2"), "label": "b"}
	zoneItems := []any{map[string]any{"id": n("1"), "__component": "parts.a"}, map[string]any{"id": n("2"), "__component": "parts.b"}}
	tests := []struct {
		name     string
		from, to string
		in       any
		want     any
		problem  string // a part of the problem; "" when the value converts
	}{
		{"integer to float", integer, float, n("3"), 3.0, ""},
		{"float to integer", float, integer, n("3"), int64(3), ""},
		{"float with a fraction to integer", float, integer, n("3.5"), nil, "values that do not become integer: must be an integer"},
		{"string to integer", str, integer, "12", int64(12), ""},
		{"non-numeric string to integer", str, integer, "abc", nil, "values that do not become integer"},
		{"integer to biginteger", integer, big, n("5"), "5", ""},
		{"biginteger to integer out of range", big, integer, "9000000000", nil, "values that do not become integer"},
		{"integer to string", integer, str, n("12"), "12", ""},
		{"float to text", float, text, n("1.5"), "1.5", ""},
		{"boolean to string", boolean, str, true, "true", ""},
		{"string to boolean", str, boolean, "true", true, ""},
		{"other string to boolean", str, boolean, "yes", nil, "values that do not become boolean"},
		{"string to enumeration", str, enum, "news", "news", ""},
		{"string outside the enumeration", str, enum, "other", nil, "values that do not become enumeration: must be one of the following values: news, tutorial"},
		{"string to a shorter string", str, short, "abcd", nil, "must be at most 3 characters"},
		{"string fits a shorter string", str, short, "abc", "abc", ""},
		{"date to datetime", date, dt, "2024-01-15", "2024-01-15T00:00:00.000Z", ""},
		{"datetime to date", dt, date, "2024-01-15T10:00:00.000Z", nil, "values that do not become date"},
		{"string to json", str, jsonT, "x", "x", ""},
		{"password stays", pw, pw, "$2a$10$hash", "$2a$10$hash", ""},
		{"password to string", pw, str, "$2a$10$hash", nil, "password hashes cannot change type"},
		{"string to password", str, pw, "secret", nil, "password hashes cannot change type"},
		// relations
		{"to-one to to-many", toOne, toMany, "d1", []any{"d1"}, ""},
		{"to-many to to-many", toMany, toMany, []any{"d1", "d2"}, []any{"d1", "d2"}, ""},
		{"to-many of one to to-one", toMany, toOne, []any{"d1"}, "d1", ""},
		{"empty to-many to to-one", toMany, toOne, []any{}, nil, ""},
		{"to-many of two to to-one", toMany, toOne, []any{"d1", "d2"}, nil, "several related documents cannot become one"},
		{"to-many to one-way", toMany, oneWay, []any{"d1"}, "d1", ""},
		{"another target", toMany, other, []any{"d1"}, nil, "the relation points elsewhere now"},
		{"owner to inverse side", toMany, inverse, []any{"d1"}, nil, "the relation points elsewhere now"},
		// components and dynamic zones
		{"component to repeatable", comp, comps, itemA, []any{itemA}, ""},
		{"repeatable of one to component", comps, comp, []any{itemA}, itemA, ""},
		{"empty repeatable to component", comps, comp, []any{}, nil, ""},
		{"repeatable of two to component", comps, comp, []any{itemA, itemA2}, nil, "several components cannot become one"},
		{"repeatable stays", comps, comps, []any{itemA, itemA2}, []any{itemA, itemA2}, ""},
		{"another component", comp, compB, itemA, nil, "the component changed"},
		{"zone keeps allowed items", zone, zone, zoneItems, zoneItems, ""},
		{"zone drops a component in use", zone, zoneA, zoneItems, nil, "items of components the zone no longer allows"},
		{"zone drops a component not in use", zone, zoneA, zoneItems[:1], zoneItems[:1], ""},
		{"media stays", media, media, []any{n("1")}, []any{n("1")}, ""},
		// across families
		{"string to component", str, comp, "x", nil, "string values cannot become component"},
		{"empty string to component", str, comp, "", nil, ""},
		{"relation to string", toOne, str, "d1", nil, "relation values cannot become string"},
		{"empty relation to string", toMany, str, []any{}, nil, ""},
		{"component to json", comp, jsonT, itemA, nil, "component values cannot become json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, problem := convertValue(testAttr(t, tc.from), testAttr(t, tc.to), tc.in)
			if tc.problem == "" {
				if problem != "" || !reflect.DeepEqual(got, tc.want) {
					t.Errorf("got %#v %q, want %#v", got, problem, tc.want)
				}
				return
			}
			if !strings.Contains(problem, tc.problem) || got != nil {
				t.Errorf("got %#v %q, want a problem with %q", got, problem, tc.problem)
			}
		})
	}
}

func TestConvertRow(t *testing.T) {
	ot := parseType(t, `{
		"title": {"type":"string"},
		"count": {"type":"string"},
		"gone": {"type":"string"},
		"blank": {"type":"string"},
		"tags": {"type":"relation","relation":"manyToMany","target":"api::t.t"},
		"n": {"type":"integer"},
		"absent": {"type":"integer"}}`)
	nt := parseType(t, `{
		"headline": {"type":"string","renamedFrom":"title"},
		"count": {"type":"integer"},
		"fresh": {"type":"integer","default":5},
		"freshComp": {"type":"component","component":"parts.a"},
		"tags": {"type":"relation","relation":"manyToOne","target":"api::t.t"},
		"n": {"type":"integer"},
		"absent": {"type":"integer"}}`)
	removed := `attribute "gone" is removed and holds values`

	problems := map[string]int{}
	good := map[string]any{"title": "Hi", "count": "12", "gone": "x", "blank": "", "tags": []any{"d1"}, "n": nil}
	out := convertRow(ot, nt, good, problems, false)
	want := map[string]any{"headline": "Hi", "count": int64(12), "fresh": int64(5), "tags": "d1", "n": nil}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("converted %#v, want %#v", out, want)
	}
	if !reflect.DeepEqual(problems, map[string]int{removed: 1}) {
		t.Errorf("problems %v", problems)
	}

	bad := map[string]any{"title": "Ho", "count": "abc", "tags": []any{"d1", "d2"}}
	countProblem := `attribute "count": values that do not become integer: must be a ` + "`number` type, but the final value was: `NaN` (cast from the value `\"abc\"`)."
	tagsProblem := `attribute "tags": several related documents cannot become one`
	problems = map[string]int{}
	out = convertRow(ot, nt, bad, problems, false)
	want = map[string]any{"headline": "Ho", "count": "abc", "fresh": int64(5), "tags": []any{"d1", "d2"}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("without force, values that do not convert stay: %#v", out)
	}
	if !reflect.DeepEqual(problems, map[string]int{countProblem: 1, tagsProblem: 1}) {
		t.Errorf("problems %v", problems)
	}

	problems = map[string]int{}
	for _, m := range []map[string]any{good, bad} {
		out = convertRow(ot, nt, m, problems, true)
	}
	want = map[string]any{"headline": "Ho", "count": nil, "fresh": int64(5), "tags": nil}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("with force, values that do not convert are dropped: %#v", out)
	}
	if !reflect.DeepEqual(problems, map[string]int{countProblem: 1, tagsProblem: 1, removed: 1}) {
		t.Errorf("problems are counted per row: %v", problems)
	}
}
