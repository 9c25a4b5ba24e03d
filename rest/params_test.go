package rest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/httperr"
	"github.com/stratum-cms/stratum/query"
)

func qpContentQuery(raw string) (*query.Query, error) {
	tree, err := parseQuery(raw)
	if err != nil {
		return nil, err
	}
	return parseContentQuery(tree)
}

func qpDump(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func qpPtr[T any](v T) *T { return &v }

func qpCond(op query.Op, value any, path ...string) *query.Cond {
	return &query.Cond{Path: path, Op: op, Value: value}
}

func TestParseContentQuery(t *testing.T) {
	published, draft := query.Published, query.Draft
	cases := []struct {
		raw  string
		want query.Query
	}{
		// Status and locale.
		{"", query.Query{Status: published}},
		{"status=draft", query.Query{Status: draft}},
		{"status=published", query.Query{Status: published}},
		{"status=preview", query.Query{Status: draft}},
		{"status=", query.Query{Status: draft}},
		{"status", query.Query{Status: draft}},
		{"locale=fr", query.Query{Locale: "fr"}},
		{"locale=*", query.Query{Locale: "*"}},
		{"locale", query.Query{}},
		// Ignored keys.
		{"_q=x&publicationFilter=y&hasPublishedVersion=true&count=1&ordering=z&_=123&foo[bar]=1", query.Query{}},
		{"page=2&pageSize=3&start=4&limit=5", query.Query{}},

		// Pagination.
		{"pagination[page]=2&pagination[pageSize]=10", query.Query{Page: query.Pagination{Page: 2, PageSize: 10}}},
		{"pagination[page]=3", query.Query{Page: query.Pagination{Page: 3}}},
		{"pagination[pageSize]=0", query.Query{Page: query.Pagination{PageSize: 1}}},
		{"pagination[pageSize]=-1", query.Query{Page: query.Pagination{PageSize: 1}}},
		{"pagination[page]=0", query.Query{}},
		{"pagination[page]=-2", query.Query{Page: query.Pagination{Page: -2}}},
		{"pagination[start]=5&pagination[limit]=-1", query.Query{Page: query.Pagination{OffsetMode: true, Start: 5, Limit: -1}}},
		{"pagination[start]=5", query.Query{Page: query.Pagination{OffsetMode: true, Start: 5}}},
		{"pagination[limit]=0", query.Query{Page: query.Pagination{OffsetMode: true, Limit: 1}}},
		{"pagination[limit]=20", query.Query{Page: query.Pagination{OffsetMode: true, Limit: 20}}},
		{"pagination[limit]=", query.Query{Page: query.Pagination{OffsetMode: true, Limit: 1}}},
		{"pagination[page]&pagination[start]=3", query.Query{Page: query.Pagination{OffsetMode: true, Start: 3}}},
		{"pagination[withCount]=false", query.Query{Page: query.Pagination{WithCount: qpPtr(false)}}},
		{"pagination[withCount]=f", query.Query{Page: query.Pagination{WithCount: qpPtr(false)}}},
		{"pagination[withCount]=0", query.Query{Page: query.Pagination{WithCount: qpPtr(false)}}},
		{"pagination[withCount]=true", query.Query{Page: query.Pagination{WithCount: qpPtr(true)}}},
		{"pagination[withCount]=t&pagination[start]=0", query.Query{Page: query.Pagination{OffsetMode: true, WithCount: qpPtr(true)}}},
		{"pagination[withCount]=1", query.Query{Page: query.Pagination{WithCount: qpPtr(true)}}},
		{"pagination=5", query.Query{}},

		// Sort.
		{"sort=title", query.Query{Sort: []query.Sort{{Path: []string{"title"}}}}},
		{"sort=title:desc", query.Query{Sort: []query.Sort{{Path: []string{"title"}, Desc: true}}}},
		{"sort=title:asc,createdAt:DESC,,", query.Query{Sort: []query.Sort{
			{Path: []string{"title"}}, {Path: []string{"createdAt"}, Desc: true}}}},
		{"sort=%20title%20:%20Desc%20", query.Query{Sort: []query.Sort{{Path: []string{"title"}, Desc: true}}}},
		{"sort=author.name:asc", query.Query{Sort: []query.Sort{{Path: []string{"author", "name"}}}}},
		{"sort[0]=title%3Aasc&sort[1]=publishedAt%3Adesc", query.Query{Sort: []query.Sort{
			{Path: []string{"title"}}, {Path: []string{"publishedAt"}, Desc: true}}}},
		{"sort[]=title&sort[]=slug:desc,id", query.Query{Sort: []query.Sort{
			{Path: []string{"title"}}, {Path: []string{"slug"}, Desc: true}, {Path: []string{"id"}}}}},
		{"sort[title]=desc", query.Query{Sort: []query.Sort{{Path: []string{"title"}, Desc: true}}}},
		{"sort[author][name]=asc", query.Query{Sort: []query.Sort{{Path: []string{"author", "name"}}}}},
		{"sort[0][title]=asc&sort[1][author][name]=DESC", query.Query{Sort: []query.Sort{
			{Path: []string{"title"}}, {Path: []string{"author", "name"}, Desc: true}}}},
		{"sort[title]=", query.Query{}},
		{"sort=", query.Query{}},
		{"sort=,", query.Query{}},
		{"sort=:desc", query.Query{}},
		{"sort[]", query.Query{}},

		// Fields.
		{"fields=title,slug", query.Query{Fields: []string{"title", "slug"}}},
		{"fields=title,%20slug,title,", query.Query{Fields: []string{"title", "slug"}}},
		{"fields[0]=title&fields[1]=slug", query.Query{Fields: []string{"title", "slug"}}},
		{"fields[]=title", query.Query{Fields: []string{"title"}}},
		{"fields=*", query.Query{Fields: []string{"*"}}},
		{"fields=", query.Query{Fields: []string{}}},
		{"fields", query.Query{}},

		// Populate.
		{"populate=*", query.Query{Populate: map[string]*query.Populate{"*": nil}}},
		{"populate=a,b", query.Query{Populate: map[string]*query.Populate{"a": nil, "b": nil}}},
		{"populate=a,%20a,,", query.Query{Populate: map[string]*query.Populate{"a": nil}}},
		{"populate[0]=a&populate[1]=b", query.Query{Populate: map[string]*query.Populate{"a": nil, "b": nil}}},
		{"populate[0]=seo&populate[1]=seo.metaSocial", query.Query{Populate: map[string]*query.Populate{
			"seo": {Populate: map[string]*query.Populate{"metaSocial": nil}}}}},
		{"populate=a.b.c,a.d", query.Query{Populate: map[string]*query.Populate{
			"a": {Populate: map[string]*query.Populate{"b": {Populate: map[string]*query.Populate{"c": nil}}, "d": nil}}}}},
		{"populate=a.*", query.Query{Populate: map[string]*query.Populate{"a": {All: true}}}},
		{"populate[a]=true&populate[b]=false&populate[c]=1&populate[d]=0&populate[e]=t&populate[f]=f&populate[g]=*&populate[h]=&populate[i]",
			query.Query{Populate: map[string]*query.Populate{"a": nil, "c": nil, "e": nil, "g": nil}}},
		{"populate[a][populate]=*", query.Query{Populate: map[string]*query.Populate{"a": {All: true}}}},
		{"populate[a][populate]=b,c.d", query.Query{Populate: map[string]*query.Populate{"a": {Populate: map[string]*query.Populate{
			"b": nil, "c": {Populate: map[string]*query.Populate{"d": nil}}}}}}},
		{"populate[a][populate][0]=b", query.Query{Populate: map[string]*query.Populate{"a": {Populate: map[string]*query.Populate{"b": nil}}}}},
		{"populate[a][populate][b][fields][0]=name&populate[a][populate][c]=true", query.Query{Populate: map[string]*query.Populate{
			"a": {Populate: map[string]*query.Populate{"b": {Fields: []string{"name"}}, "c": nil}}}}},
		{"populate%5Bcategory%5D%5Bfields%5D%5B0%5D=name", query.Query{Populate: map[string]*query.Populate{
			"category": {Fields: []string{"name"}}}}},
		{"populate[a][fields]=x,y&populate[a][filters][y][$eq]=z&populate[a][sort]=x:desc", query.Query{Populate: map[string]*query.Populate{
			"a": {Fields: []string{"x", "y"}, Filter: qpCond(query.OpEq, "z", "y"), Sort: []query.Sort{{Path: []string{"x"}, Desc: true}}}}}},
		{"populate[blocks][on][shared.media][populate]=file&populate[blocks][on][shared.quote][fields][0]=body&populate[blocks][on][shared.slider]=true",
			query.Query{Populate: map[string]*query.Populate{"blocks": {On: map[string]*query.Populate{
				"shared.media":  {Populate: map[string]*query.Populate{"file": nil}},
				"shared.quote":  {Fields: []string{"body"}},
				"shared.slider": nil,
			}}}}},
		{"populate[a][count]=true&populate[a][page]=1&populate[a][pageSize]=2",
			query.Query{Populate: map[string]*query.Populate{"a": {Count: true, Page: query.Pagination{Page: 1, PageSize: 2}}}}},
		{"populate[a][start]=3&populate[a][limit]=4",
			query.Query{Populate: map[string]*query.Populate{"a": {Page: query.Pagination{OffsetMode: true, Start: 3, Limit: 4}}}}},
		{"populate[a][fields]=&populate[a][filters]=&populate[a][populate]=&populate[a][on]",
			query.Query{Populate: map[string]*query.Populate{"a": {}}}},
		{"populate", query.Query{}},

		// Filters.
		{"filters[title]=x", query.Query{Filter: qpCond(query.OpEq, "x", "title")}},
		{"filters[title][$eq]=x", query.Query{Filter: qpCond(query.OpEq, "x", "title")}},
		{"filters[title][$eqi]=x&filters[title][$startsWith]=y", query.Query{Filter: query.And{
			qpCond(query.OpEqi, "x", "title"), qpCond(query.OpStartsWith, "y", "title")}}},
		{"filters[$or][0][date][$eq]=2020-01-01&filters[$or][1][date][$eq]=2020-01-02&filters[author][name][$eq]=Kai%20doe",
			query.Query{Filter: query.And{
				query.Or{qpCond(query.OpEq, "2020-01-01", "date"), qpCond(query.OpEq, "2020-01-02", "date")},
				qpCond(query.OpEq, "Kai doe", "author", "name")}}},
		{"filters[$and][0][a][$lt]=1&filters[$and][1][b][$gt]=2", query.Query{Filter: query.And{
			qpCond(query.OpLt, "1", "a"), qpCond(query.OpGt, "2", "b")}}},
		{"filters[$not][title][$eq]=x", query.Query{Filter: query.Not{Filter: qpCond(query.OpEq, "x", "title")}}},
		{"filters[title][$not][$eq]=x", query.Query{Filter: query.Not{Filter: qpCond(query.OpEq, "x", "title")}}},
		{"filters[title][$not]=x", query.Query{Filter: query.Not{Filter: qpCond(query.OpEq, "x", "title")}}},
		{"filters[title][$or][0][$eq]=a&filters[title][$or][1]=b", query.Query{Filter: query.Or{
			qpCond(query.OpEq, "a", "title"), qpCond(query.OpEq, "b", "title")}}},
		{"filters[category][parent][name][$eq]=x", query.Query{Filter: qpCond(query.OpEq, "x", "category", "parent", "name")}},
		{"filters[author][id]=3", query.Query{Filter: qpCond(query.OpEq, "3", "author", "id")}},
		{"filters[id][$in][0]=3&filters[id][$in][1]=6", query.Query{Filter: qpCond(query.OpIn, []any{"3", "6"}, "id")}},
		{"filters[id][$in][]=3", query.Query{Filter: qpCond(query.OpIn, []any{"3"}, "id")}},
		{"filters[id][$in]=3", query.Query{Filter: qpCond(query.OpIn, "3", "id")}},
		{"filters[id][$in][0]=3&filters[id][$in][150]=4", query.Query{Filter: qpCond(query.OpIn, []any{"3", "4"}, "id")}},
		{"filters[price][$between][0]=1&filters[price][$between][1]=5", query.Query{Filter: qpCond(query.OpBetween, []any{"1", "5"}, "price")}},
		{"filters[title][$null]", query.Query{Filter: qpCond(query.OpNull, nil, "title")}},
		{"filters[title][$notNull]=true", query.Query{Filter: qpCond(query.OpNotNull, "true", "title")}},
		{"filters[title]", query.Query{Filter: qpCond(query.OpEq, nil, "title")}},
		{"filters[title][0]=a&filters[title][1]=b", query.Query{Filter: qpCond(query.OpEq, []any{"a", "b"}, "title")}},
		{"filters[title][$eq][0]=a&filters[title][$eq][1]=b", query.Query{Filter: qpCond(query.OpEq, []any{"a", "b"}, "title")}},
		{"filters[0][title]=a&filters[1][slug]=b", query.Query{Filter: query.And{
			qpCond(query.OpEq, "a", "title"), qpCond(query.OpEq, "b", "slug")}}},
		{"filters[$or][150][title]=x", query.Query{Filter: query.Or{qpCond(query.OpEq, "x", "title")}}},
		{"filters[$or][0][title]=x&filters[$or][1]", query.Query{Filter: query.Or{qpCond(query.OpEq, "x", "title")}}},
		{"filters[$or]", query.Query{}},
		{"filters", query.Query{}},
		{"filters[$and][0][$or][0][a]=1&filters[$and][0][$or][1][b]=2&filters[$and][1][c]=3", query.Query{Filter: query.And{
			query.Or{qpCond(query.OpEq, "1", "a"), qpCond(query.OpEq, "2", "b")}, qpCond(query.OpEq, "3", "c")}}},
	}
	for _, c := range cases {
		got, err := qpContentQuery(c.raw)
		if err != nil {
			t.Errorf("%q: %v", c.raw, err)
			continue
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("%q\n got %s\nwant %s", c.raw, qpDump(*got), qpDump(c.want))
		}
	}
}

func TestParseContentQueryErrors(t *testing.T) {
	long := strings.Repeat("x", maxNameLen+1)
	cases := []struct {
		raw     string
		kind    errs.Kind
		message string
		details map[string]any // checked when set
	}{
		{"locale[0]=fr", errs.KindValidation, "Invalid locale parameter: expected a string", nil},

		{"pagination[page]=1&pagination[start]=0", errs.KindPagination, "Cannot use both page & offset pagination in the same query", nil},
		{"pagination[pageSize]=10&pagination[limit]=10", errs.KindPagination, "Cannot use both page & offset pagination in the same query", nil},
		{"pagination[page]=&pagination[limit]=", errs.KindPagination, "Cannot use both page & offset pagination in the same query", nil},
		{"populate[a][page]=1&populate[a][start]=3", errs.KindPagination, "Cannot use both page & offset pagination in the same query", nil},
		{"pagination[page]=abc", errs.KindValidation, `Invalid pagination[page] parameter "abc": expected an integer`, nil},
		{"pagination[pageSize]=1.5", errs.KindValidation, `Invalid pagination[pageSize] parameter "1.5": expected an integer`, nil},
		{"pagination[start]=1e3", errs.KindValidation, `Invalid pagination[start] parameter "1e3": expected an integer`, nil},
		{"pagination[limit]=%201", errs.KindValidation, `Invalid pagination[limit] parameter " 1": expected an integer`, nil},
		{"pagination[limit]=-", errs.KindValidation, `Invalid pagination[limit] parameter "-": expected an integer`, nil},
		{"pagination[page]=99999999999999999999", errs.KindValidation, `Invalid pagination[page] parameter "99999999999999999999": out of range`, nil},
		{"pagination[page]=4294967296", errs.KindValidation, `out of range`, nil},
		{"pagination[page][0]=1", errs.KindValidation, `Invalid pagination[page] parameter: expected an integer`, nil},
		{"pagination[withCount]=maybe", errs.KindValidation, `Invalid withCount parameter. Expected "t","1","true","false","0","f"`, nil},
		{"pagination[withCount]=TRUE", errs.KindValidation, `Invalid withCount parameter.`, nil},
		{"pagination[withCount]=", errs.KindValidation, `Invalid withCount parameter.`, nil},
		{"pagination[withCount]", errs.KindValidation, `Invalid withCount parameter.`, nil},

		{"sort=title:up", errs.KindValidation, "Invalid order. order can only be one of asc|desc|ASC|DESC", nil},
		{"sort=title:", errs.KindValidation, "Invalid order. order can only be one of asc|desc|ASC|DESC", nil},
		{"sort[title]=up", errs.KindValidation, "Invalid order. order can only be one of asc|desc|ASC|DESC", nil},
		{"sort[0]=title:asc&sort[1]=slug:sideways", errs.KindValidation, "Invalid order.", nil},
		{"sort[title][0]=asc", errs.KindValidation, "Invalid sort type expected object or string got object", nil},
		{"sort[title]", errs.KindValidation, "Invalid sort type expected object or string got object", nil},
		{"sort[0][0]=title", errs.KindValidation, "Invalid sort parameter.", nil},
		{"sort=author..name", errs.KindValidation, "Invalid empty key at author..name", nil},
		{"sort=" + long, errs.KindValidation, "Invalid key " + long, nil},

		{"fields[a]=b", errs.KindValidation, "Invalid fields parameter. Expected a string or an array of strings", nil},
		{"fields[0][a]=b", errs.KindValidation, "Invalid fields parameter.", nil},
		{"fields[]", errs.KindValidation, "Invalid fields parameter.", nil},

		{"populate[0][a]=b", errs.KindValidation, "Invalid populate parameter. Expected a string, an array of strings, a populate object", nil},
		{"populate[a][0]=b", errs.KindValidation, "Invalid nested populate. Expected '*' or an object", nil},
		{"populate[a][bogus]=1", errs.KindValidation, "Invalid key bogus at a.bogus",
			map[string]any{"key": "bogus", "path": "a.bogus", "source": "query", "param": "populate"}},
		{"populate[a][populate][b][where]=1", errs.KindValidation, "Invalid key where at a.b.where", nil},
		{"populate[a][on]=x", errs.KindValidation, "Invalid populate fragment at a.on: expected an object", nil},
		{"populate[a][on][c][0]=x", errs.KindValidation, "Invalid nested populate.", nil},
		{"populate[a][on][c][nope]=x", errs.KindValidation, "Invalid key nope at a.on.c.nope", nil},
		{"populate[a][filters]=x", errs.KindValidation, "The filters parameter must be an object or an array", nil},
		{"populate[a][sort]=x:up", errs.KindValidation, "Invalid order.", nil},
		{"populate[a][fields][x]=y", errs.KindValidation, "Invalid fields parameter.", nil},
		{"populate=a..b", errs.KindValidation, "Invalid empty key at a.", nil},
		{"populate[a][populate][b][filters][c][$bad]=1", errs.KindValidation, "Invalid key $bad at c.$bad", nil},

		{"filters=x", errs.KindValidation, "The filters parameter must be an object or an array", nil},
		{"filters=", errs.KindValidation, "The filters parameter must be an object or an array", nil},
		{"filters[title][$foo]=x", errs.KindValidation, "Invalid key $foo at title.$foo",
			map[string]any{"key": "$foo", "path": "title.$foo", "source": "query", "param": "filters"}},
		{"filters[title][$EQ]=x", errs.KindValidation, "Invalid key $EQ at title.$EQ", nil},
		{"filters[$eq]=x", errs.KindValidation, "Invalid key $eq", nil},
		{"filters[$jsonSupersetOf][a]=1", errs.KindValidation, "Invalid key $jsonSupersetOf", nil},
		{"filters[$or][0][a][$nope]=1", errs.KindValidation, "Invalid key $nope at $or.0.a.$nope", nil},
		{"filters[$or]=x", errs.KindValidation, "Invalid value for $or at $or: expected an array", nil},
		{"filters[$and][a]=x", errs.KindValidation, "Invalid value for $and at $and: expected an array", nil},
		{"filters[$or][0]=x", errs.KindValidation, "Invalid filters value at $or.0: expected an object or an array", nil},
		{"filters[title][$eq][a]=b", errs.KindValidation, "Invalid value for title.$eq: expected a value or an array of values", nil},
		{"filters[" + long + "]=x", errs.KindValidation, "Invalid key " + long, nil},
		{"filters[a][" + long + "][$eq]=x", errs.KindValidation, "Invalid key " + long + " at a." + long, nil},
	}
	for _, c := range cases {
		_, err := qpContentQuery(c.raw)
		var e *errs.Error
		if !errors.As(err, &e) {
			t.Errorf("%.80q: error %v, want *errs.Error", c.raw, err)
			continue
		}
		if e.Kind != c.kind || httperr.Status(e) != 400 || !strings.Contains(e.Message, c.message) {
			t.Errorf("%.80q: got kind %v status %d %q, want kind %v %q", c.raw, e.Kind, httperr.Status(e), e.Message, c.kind, c.message)
		}
		if c.details != nil && !reflect.DeepEqual(e.Details, c.details) {
			t.Errorf("%q: details %v, want %v", c.raw, e.Details, c.details)
		}
	}
}

// Trees that parseQuery cannot produce but a caller could hand over.
func TestParseContentQueryTrees(t *testing.T) {
	for _, tree := range []map[string]any{
		{"filters": map[string]any{"": "x"}},
		{"sort": map[string]any{"": "asc"}},
		{"populate": map[string]any{"": "true"}},
		{"populate": map[string]any{"a": map[string]any{"on": map[string]any{"": "true"}}}},
		{"filters": 5},
		{"sort": 5},
		{"populate": 5},
		{"fields": 5},
	} {
		_, err := parseContentQuery(tree)
		var e *errs.Error
		if !errors.As(err, &e) || httperr.Status(e) != 400 {
			t.Errorf("%v: error %v, want a 400", tree, err)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"",
		"a=b&a=c&a[b]=d",
		"filters[$or][0][date][$eq]=2020-01-01&filters[$or][1][date][$eq]=2020-01-02&filters[author][name][$eq]=Kai%20doe",
		"populate[0]=seo&populate[1]=seo.metaSocial",
		"sort[0]=title%3Aasc&sort[1]=publishedAt%3Adesc",
		"populate%5Bcategory%5D%5Bfields%5D%5B0%5D=name",
		"populate[blocks][on][shared.media][populate]=file&populate[a][populate]=*",
		"pagination[page]=2&pagination[pageSize]=10&pagination[withCount]=false",
		"pagination[start]=0&pagination[limit]=-1",
		"filters[title][$not][$in][0]=a&filters[id][$in][150]=2&sort[author][name]=desc",
		"fields=title,slug&status=draft&locale=*&populate=a.b.c",
		"a[[b]]=c&a[b=c&a%zz=%E9&a[100]=1&a[]=2",
		"filters[$and][0][$or][0][a][$null]&filters[a][0]=1&filters[a][b]=2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 16<<10 {
			return // the caller refuses longer query strings
		}
		check := func(err error) {
			if err == nil {
				return
			}
			var e *errs.Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %v (%T) is not an *errs.Error", raw, err, err)
			}
			if s := httperr.Status(e); s < 400 || s > 499 {
				t.Fatalf("%q: status %d for %v", raw, s, err)
			}
		}
		tree, err := parseQuery(raw)
		check(err)
		if err != nil {
			return
		}
		if tree == nil {
			t.Fatalf("%q: nil tree", raw)
		}
		qsCheckTree(t, raw, tree, 0)
		q, err := parseContentQuery(tree)
		check(err)
		if err == nil && q == nil {
			t.Fatalf("%q: nil query", raw)
		}
	})
}

// checkTree asserts that a tree holds only the node types it may hold.
func qsCheckTree(t *testing.T, raw string, v any, depth int) {
	if depth > qsMaxDepth+3 {
		t.Fatalf("%q: tree deeper than %d", raw, depth)
	}
	switch x := v.(type) {
	case nil, string:
	case map[string]any:
		for _, e := range x {
			qsCheckTree(t, raw, e, depth+1)
		}
	case []any:
		for _, e := range x {
			qsCheckTree(t, raw, e, depth+1)
		}
	default:
		t.Fatalf("%q: node of type %T", raw, v)
	}
}
