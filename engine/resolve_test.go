package engine

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/models"
)

func blogSchema(t *testing.T) (*models.Schema, *models.ContentType) {
	t.Helper()
	s, err := models.LoadDir(filepath.Join("..", "examples", "blog"))
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Type("api::article.article")
}

// TestResolveFilterValues checks the coercion of filter values to what the
// store compiles: numbers, ids, booleans, dates and times.
func TestResolveFilterValues(t *testing.T) {
	s, ct := blogSchema(t)
	tests := []struct {
		path  string
		op    Op
		value any
		want  any
	}{
		{"views", OpGt, "7", 7.0},
		{"views", OpGt, " 7 ", 7.0},
		{"rating", OpLt, "4.5", 4.5},
		{"shares", OpEq, "9000000000", int64(9000000000)},
		{"id", OpEq, "12", int64(12)},
		{"author", OpEq, "3", int64(3)}, // a bare relation compares the target's id
		{"featured", OpEq, "false", false},
		{"featured", OpEq, true, true},
		{"publishDate", OpEq, "2024-01-15T10:00:00Z", "2024-01-15"},
		{"publishTime", OpLt, "10:30", "10:30:00.000"},
		{"title", OpEq, "7", "7"},
		{"title", OpContains, "a%", "a%"},
		{"views", OpContains, "7", "7"}, // text operators keep the text
		{"title", OpEq, 3.0, "3"},
	}
	for _, tc := range tests {
		f, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, &Cond{Path: strings.Split(tc.path, "."), Op: tc.op, Value: tc.value})
		if err != nil {
			t.Errorf("%s %s %v: %v", tc.path, tc.op, tc.value, err)
			continue
		}
		if got := f.(*Cond).Value; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s %v: %#v, want %#v", tc.path, tc.op, tc.value, got, tc.want)
		}
	}
	f, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, &Cond{Path: []string{"scheduledAt"}, Op: OpGt, Value: "1705312800000"})
	if err != nil || f.(*Cond).Value.(interface{ UnixMilli() int64 }).UnixMilli() != 1705312800000 {
		t.Errorf("datetime from milliseconds: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &Cond{Path: []string{"views"}, Op: OpIn, Value: []any{"1", "2"}})
	if err != nil || !reflect.DeepEqual(f.(*Cond).Values, []any{1.0, 2.0}) {
		t.Errorf("$in: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &Cond{Path: []string{"views"}, Op: OpIn, Value: "1"})
	if err != nil || !reflect.DeepEqual(f.(*Cond).Values, []any{1.0}) {
		t.Errorf("$in of one value: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &Cond{Path: []string{"title"}, Op: OpNull, Value: "false"})
	if err != nil || f.(*Cond).Bool {
		t.Errorf("$null false: %#v %v", f, err)
	}
}

func TestResolveFilterRefusals(t *testing.T) {
	s, ct := blogSchema(t)
	tests := []struct {
		name string
		cond *Cond
		msg  string
	}{
		{"unknown operator", &Cond{Path: []string{"title"}, Op: "$like", Value: "x"}, "Invalid key $like"},
		{"unknown field", &Cond{Path: []string{"nope"}, Op: OpEq, Value: "x"}, "Invalid key nope"},
		{"private field", &Cond{Path: []string{"secretNote"}, Op: OpEq, Value: "x"}, "Invalid key secretNote"},
		{"past a scalar", &Cond{Path: []string{"title", "x"}, Op: OpEq, Value: "x"}, "Invalid key x at title.x"},
		{"past a system field", &Cond{Path: []string{"id", "x"}, Op: OpEq, Value: "1"}, "Invalid key x at id.x"},
		{"bare component", &Cond{Path: []string{"seo"}, Op: OpNull, Value: "true"}, "Invalid key seo"},
		{"media", &Cond{Path: []string{"cover"}, Op: OpNull, Value: "true"}, `Cannot filter on media field "cover"`},
		{"dynamic zone", &Cond{Path: []string{"blocks"}, Op: OpNull, Value: "true"}, `Cannot filter on dynamiczone field "blocks"`},
		{"number", &Cond{Path: []string{"views"}, Op: OpGt, Value: "many"}, `Invalid number "many" for filter on "views"`},
		{"id", &Cond{Path: []string{"id"}, Op: OpEq, Value: "1.5"}, `Invalid id "1.5"`},
		{"biginteger", &Cond{Path: []string{"shares"}, Op: OpEq, Value: "1e3"}, `Invalid integer "1e3"`},
		{"boolean", &Cond{Path: []string{"featured"}, Op: OpEq, Value: "yes"}, `Invalid boolean "yes"`},
		{"date", &Cond{Path: []string{"publishDate"}, Op: OpEq, Value: "15/01/2024"}, `Invalid date "15/01/2024"`},
		{"time", &Cond{Path: []string{"publishTime"}, Op: OpEq, Value: "25:00"}, `Invalid time "25:00"`},
		{"datetime", &Cond{Path: []string{"createdAt"}, Op: OpGt, Value: "yesterday"}, `Invalid date-time "yesterday"`},
		{"between of one", &Cond{Path: []string{"views"}, Op: OpBetween, Value: []any{"1"}}, "$between on \"views\" needs an array of two values"},
		{"object value", &Cond{Path: []string{"title"}, Op: OpEq, Value: map[string]any{"a": "b"}}, "expected a single value"},
		{"locale of a type without locales", &Cond{Path: []string{"locale"}, Op: OpEq, Value: "en"}, "Invalid key locale"},
	}
	for _, tc := range tests {
		_, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, tc.cond)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if e := AsError(err); e.Kind != KindValidation || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s: %v (kind %d), want a ValidationError with %q", tc.name, err, e.Kind, tc.msg)
		}
	}
}

func TestResolveSort(t *testing.T) {
	s, ct := blogSchema(t)
	for _, ok := range [][]string{{"title"}, {"author", "name"}, {"seo", "metaTitle"}, {"createdAt"}, {"category", "parent", "name"}} {
		if _, err := resolveSort(s, AllowAll{}, scope{ct: ct}, []Sort{{Path: ok}}); err != nil {
			t.Errorf("sort %v: %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"tags", "name"}, {"quotes", "title"}, {"cover"}, {"nope"}, {"secretNote"}} {
		if _, err := resolveSort(s, AllowAll{}, scope{ct: ct}, []Sort{{Path: bad}}); err == nil {
			t.Errorf("sort %v: accepted", bad)
		}
	}
}
