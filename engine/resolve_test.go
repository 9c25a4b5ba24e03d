package engine

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
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
		op    query.Op
		value any
		want  any
	}{
		{"views", query.OpGt, "7", 7.0},
		{"views", query.OpGt, " 7 ", 7.0},
		{"rating", query.OpLt, "4.5", 4.5},
		{"shares", query.OpEq, "9000000000", int64(9000000000)},
		{"id", query.OpEq, "12", int64(12)},
		{"author", query.OpEq, "3", int64(3)}, // a bare relation compares the target's id
		{"featured", query.OpEq, "false", false},
		{"featured", query.OpEq, true, true},
		{"publishDate", query.OpEq, "2024-01-15T10:00:00Z", "2024-01-15"},
		{"publishTime", query.OpLt, "10:30", "10:30:00.000"},
		{"title", query.OpEq, "7", "7"},
		{"title", query.OpContains, "a%", "a%"},
		{"views", query.OpContains, "7", "7"}, // text operators keep the text
		{"title", query.OpEq, 3.0, "3"},
	}
	for _, tc := range tests {
		f, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, &query.Cond{Path: strings.Split(tc.path, "."), Op: tc.op, Value: tc.value})
		if err != nil {
			t.Errorf("%s %s %v: %v", tc.path, tc.op, tc.value, err)
			continue
		}
		if got := f.(*query.Cond).Value; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s %v: %#v, want %#v", tc.path, tc.op, tc.value, got, tc.want)
		}
	}
	f, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, &query.Cond{Path: []string{"scheduledAt"}, Op: query.OpGt, Value: "1705312800000"})
	if err != nil || f.(*query.Cond).Value.(interface{ UnixMilli() int64 }).UnixMilli() != 1705312800000 {
		t.Errorf("datetime from milliseconds: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &query.Cond{Path: []string{"views"}, Op: query.OpIn, Value: []any{"1", "2"}})
	if err != nil || !reflect.DeepEqual(f.(*query.Cond).Values, []any{1.0, 2.0}) {
		t.Errorf("$in: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &query.Cond{Path: []string{"views"}, Op: query.OpIn, Value: "1"})
	if err != nil || !reflect.DeepEqual(f.(*query.Cond).Values, []any{1.0}) {
		t.Errorf("$in of one value: %#v %v", f, err)
	}
	f, err = resolveFilter(s, AllowAll{}, scope{ct: ct}, &query.Cond{Path: []string{"title"}, Op: query.OpNull, Value: "false"})
	if err != nil || f.(*query.Cond).Bool {
		t.Errorf("$null false: %#v %v", f, err)
	}
}

func TestResolveFilterRefusals(t *testing.T) {
	s, ct := blogSchema(t)
	tests := []struct {
		name string
		cond *query.Cond
		msg  string
	}{
		{"unknown operator", &query.Cond{Path: []string{"title"}, Op: "$like", Value: "x"}, "Invalid key $like"},
		{"unknown field", &query.Cond{Path: []string{"nope"}, Op: query.OpEq, Value: "x"}, "Invalid key nope"},
		{"private field", &query.Cond{Path: []string{"secretNote"}, Op: query.OpEq, Value: "x"}, "Invalid key secretNote"},
		{"past a scalar", &query.Cond{Path: []string{"title", "x"}, Op: query.OpEq, Value: "x"}, "Invalid key x at title.x"},
		{"past a system field", &query.Cond{Path: []string{"id", "x"}, Op: query.OpEq, Value: "1"}, "Invalid key x at id.x"},
		{"bare component", &query.Cond{Path: []string{"seo"}, Op: query.OpNull, Value: "true"}, "Invalid key seo"},
		{"media", &query.Cond{Path: []string{"cover"}, Op: query.OpNull, Value: "true"}, `Cannot filter on media field "cover"`},
		{"dynamic zone", &query.Cond{Path: []string{"blocks"}, Op: query.OpNull, Value: "true"}, `Cannot filter on dynamiczone field "blocks"`},
		{"number", &query.Cond{Path: []string{"views"}, Op: query.OpGt, Value: "many"}, `Invalid number "many" for filter on "views"`},
		{"id", &query.Cond{Path: []string{"id"}, Op: query.OpEq, Value: "1.5"}, `Invalid id "1.5"`},
		{"biginteger", &query.Cond{Path: []string{"shares"}, Op: query.OpEq, Value: "1e3"}, `Invalid integer "1e3"`},
		{"boolean", &query.Cond{Path: []string{"featured"}, Op: query.OpEq, Value: "yes"}, `Invalid boolean "yes"`},
		{"date", &query.Cond{Path: []string{"publishDate"}, Op: query.OpEq, Value: "15/01/2024"}, `Invalid date "15/01/2024"`},
		{"time", &query.Cond{Path: []string{"publishTime"}, Op: query.OpEq, Value: "25:00"}, `Invalid time "25:00"`},
		{"datetime", &query.Cond{Path: []string{"createdAt"}, Op: query.OpGt, Value: "yesterday"}, `Invalid date-time "yesterday"`},
		{"between of one", &query.Cond{Path: []string{"views"}, Op: query.OpBetween, Value: []any{"1"}}, "$between on \"views\" needs an array of two values"},
		{"object value", &query.Cond{Path: []string{"title"}, Op: query.OpEq, Value: map[string]any{"a": "b"}}, "expected a single value"},
		{"locale of a type without locales", &query.Cond{Path: []string{"locale"}, Op: query.OpEq, Value: "en"}, "Invalid key locale"},
	}
	for _, tc := range tests {
		_, err := resolveFilter(s, AllowAll{}, scope{ct: ct}, tc.cond)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if e := errs.From(err); e.Kind != errs.KindValidation || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s: %v (kind %d), want a ValidationError with %q", tc.name, err, e.Kind, tc.msg)
		}
	}
}

func TestResolveSort(t *testing.T) {
	s, ct := blogSchema(t)
	for _, ok := range [][]string{{"title"}, {"author", "name"}, {"seo", "metaTitle"}, {"createdAt"}, {"category", "parent", "name"}} {
		if _, err := resolveSort(s, AllowAll{}, scope{ct: ct}, []query.Sort{{Path: ok}}); err != nil {
			t.Errorf("sort %v: %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"tags", "name"}, {"quotes", "title"}, {"cover"}, {"nope"}, {"secretNote"}} {
		if _, err := resolveSort(s, AllowAll{}, scope{ct: ct}, []query.Sort{{Path: bad}}); err == nil {
			t.Errorf("sort %v: accepted", bad)
		}
	}
}
