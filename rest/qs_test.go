package rest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/httperr"
)

// The expected trees below were checked against the npm qs package
// (6.15.3, as used by Strapi 5) with { strictNullHandling: true,
// arrayLimit: 100, depth: 20 }.
func TestParseQueryQSCompatible(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"", `{}`},
		{"a=b", `{"a":"b"}`},
		{"a", `{"a":null}`},
		{"a=", `{"a":""}`},
		{"a[b][c]=v", `{"a":{"b":{"c":"v"}}}`},
		{"a.b=c", `{"a.b":"c"}`}, // allowDots is off
		{"a=x+y&b+c=%2B", `{"a":"x y","b c":"+"}`},
		{"a%5Bb%5D=c&d%5bE%5d=f", `{"a":{"b":"c"},"d":{"E":"f"}}`},
		{"a[]=x&a[]=y", `{"a":["x","y"]}`},
		{"a[0]=x&a[1]=y", `{"a":["x","y"]}`},
		{"a[1]=x&a[0]=y", `{"a":["y","x"]}`},
		{"a[1]=b&a[15]=c", `{"a":["b","c"]}`},
		{"a[99]=x", `{"a":["x"]}`},
		{"a[100]=x", `{"a":{"100":"x"}}`},
		{"a[1000000]=x", `{"a":{"1000000":"x"}}`},
		{"a[007]=x&a[-1]=y", `{"a":{"007":"x","-1":"y"}}`},
		{"a=1&a=2", `{"a":["1","2"]}`},
		{"a[0]=x&a[b]=y", `{"a":{"0":"x","b":"y"}}`},
		{"a[b]=1&a=2", `{"a":[{"b":"1"},"2"]}`},
		{"a=%zz&%zz=1&b=%E9&c=%C3%A9", `{"a":"%zz","%zz":"1","b":"%E9","c":"é"}`},
		{"a=%&b=%2&c=%F0%9F%98%80", `{"a":"%","b":"%2","c":"😀"}`},
		{"constructor=1&a[toString]=2&b[__proto__][x]=3&c=4", `{"c":"4"}`},
		{"a[b]c=d", `{"a":{"b":"d"}}`},
		{"a[[b]]=c", `{"a":{"[b]":"c"}}`},
		{"a[b=c", `{"a":{"[b":"c"}}`},
		{"a[]]=x", `{"a":["x"]}`},
		{"&&a=1&&", `{"a":"1"}`},
		{"=x&b", `{"b":null}`},
		{"a[b]=c=d", `{"a":{"b":"c=d"}}`},
		{"a=b]=c", `{"a=b]":"c"}`},
		{"a[]&a[]=", `{"a":[null,""]}`},
		{"a[0]&a[1]=x", `{"a":[null,"x"]}`},
		// What qs.stringify produces for examples of Strapi's documentation.
		{"filters[$or][0][date][$eq]=2020-01-01&filters[$or][1][date][$eq]=2020-01-02&filters[author][name][$eq]=Kai%20doe",
			`{"filters":{"$or":[{"date":{"$eq":"2020-01-01"}},{"date":{"$eq":"2020-01-02"}}],"author":{"name":{"$eq":"Kai doe"}}}}`},
		{"populate[0]=seo&populate[1]=seo.metaSocial", `{"populate":["seo","seo.metaSocial"]}`},
		{"sort[0]=title%3Aasc&sort[1]=publishedAt%3Adesc", `{"sort":["title:asc","publishedAt:desc"]}`},
		{"populate%5Bcategory%5D%5Bfields%5D%5B0%5D=name", `{"populate":{"category":{"fields":["name"]}}}`},
		{"filters%5Bid%5D%5B%24in%5D%5B0%5D=3&filters%5Bid%5D%5B%24in%5D%5B1%5D=6&filters%5Bid%5D%5B%24in%5D%5B2%5D=8",
			`{"filters":{"id":{"$in":["3","6","8"]}}}`},
		{"populate[blocks][on][shared.media][populate]=file&populate[blocks][on][shared.quote][fields][0]=body",
			`{"populate":{"blocks":{"on":{"shared.media":{"populate":"file"},"shared.quote":{"fields":["body"]}}}}}`},
		{"fields[]=title&fields[]=slug&status=draft&locale=*", `{"fields":["title","slug"],"status":"draft","locale":"*"}`},
	}
	for _, c := range cases {
		got, err := parseQuery(c.raw)
		if err != nil {
			t.Errorf("parseQuery(%q): %v", c.raw, err)
			continue
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			b, _ := json.Marshal(got)
			t.Errorf("parseQuery(%q)\n got %s\nwant %s", c.raw, b, c.want)
		}
	}
}

func TestParseQueryArrayLimit(t *testing.T) {
	// Up to 100 elements stay an array; more become an object with integer keys.
	for _, n := range []int{100, 101, 300} {
		raw := strings.Repeat("a[]=x&", n)
		tree, err := parseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		switch v := tree["a"].(type) {
		case []any:
			if n > qsArrayLimit || len(v) != n {
				t.Errorf("%d pushes: array of %d", n, len(v))
			}
		case map[string]any:
			if n <= qsArrayLimit || len(v) != n || v["0"] != "x" || v[qsItoa(n-1)] != "x" {
				t.Errorf("%d pushes: object of %d", n, len(v))
			}
		default:
			t.Errorf("%d pushes: %T", n, v)
		}
	}
}

func qsItoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func qsWantValidation(t *testing.T, err error, contains string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *errs.Error", err, err)
	}
	if e.Kind != errs.KindValidation || httperr.Status(e) != 400 {
		t.Errorf("error %q: kind %v status %d, want a 400 ValidationError", e.Message, e.Kind, httperr.Status(e))
	}
	if !strings.Contains(e.Message, contains) {
		t.Errorf("error %q does not contain %q", e.Message, contains)
	}
}

func TestParseQueryLimits(t *testing.T) {
	// 1000 pairs are fine, one more is not.
	if _, err := parseQuery(strings.Repeat("a=1&", qsMaxPairs)); err != nil {
		t.Errorf("%d pairs: %v", qsMaxPairs, err)
	}
	_, err := parseQuery(strings.Repeat("a=1&", qsMaxPairs+1))
	qsWantValidation(t, err, "Too many query parameters")

	// 10,000 distinct keys.
	var b strings.Builder
	for i := range 10000 {
		b.WriteString("k")
		b.WriteString(qsItoa(i))
		b.WriteString("=v&")
	}
	_, err = parseQuery(b.String())
	qsWantValidation(t, err, "Too many query parameters")

	// Empty pairs do not count.
	if _, err := parseQuery(strings.Repeat("&", 5000) + "a=1"); err != nil {
		t.Errorf("empty pairs: %v", err)
	}

	// 20 levels are fine, 21 and 50 are not.
	deep := func(n int) string { return "a" + strings.Repeat("[b]", n) + "=1" }
	if _, err := parseQuery(deep(qsMaxDepth)); err != nil {
		t.Errorf("depth %d: %v", qsMaxDepth, err)
	}
	_, err = parseQuery(deep(qsMaxDepth + 1))
	qsWantValidation(t, err, "nested too deeply")
	_, err = parseQuery(deep(50))
	qsWantValidation(t, err, "nested too deeply")
	_, err = parseQuery("a" + strings.Repeat("%5B0%5D", 50) + "=1")
	qsWantValidation(t, err, "nested too deeply")

	// A huge index is an object key, not a huge array.
	tree, err := parseQuery("a[1000000]=x&a[99999999999999999999]=y")
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := tree["a"].(map[string]any); !ok || m["1000000"] != "x" || m["99999999999999999999"] != "y" {
		t.Errorf("huge indices: %#v", tree["a"])
	}

	// Bad escapes are kept literally.
	tree, err = parseQuery("a%zz=%zz&b=%E9%&c=%C3")
	if err != nil {
		t.Fatal(err)
	}
	if tree["a%zz"] != "%zz" || tree["b"] != "%E9%" || tree["c"] != "%C3" {
		t.Errorf("bad escapes: %#v", tree)
	}
}

func qsCap(s string) string { return s[:min(len(s), 16<<10)] }

// A hostile query of the size the caller allows (16 KiB) parses quickly.
func TestParseQueryHostileCost(t *testing.T) {
	inputs := []string{
		qsCap(strings.Repeat("a[99][99][99][99][99][99][99][99][99][99][99][99][99][99][99][99][99][99][99]=x&", 300)),
		strings.Repeat("a[]=x&", 1000),
		strings.Repeat("a=x&", 1000),
		strings.Repeat("a[0][]=x&a[0][0]=y&", 500),
		strings.Repeat("[", 16<<10),
		strings.Repeat("[]", 8<<10) + "=1",
		strings.Repeat("%5B", 5<<10),
		qsCap(strings.Repeat("a[9007199254740992]=x&", 1000)),
	}
	for _, in := range inputs {
		start := time.Now()
		tree, err := parseQuery(in)
		if err == nil {
			_, _ = parseContentQuery(tree)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%.40q...: %v", in, d)
		}
	}
}
