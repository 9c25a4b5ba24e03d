package engine

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// The raw readers must agree with encoding/json on what they find.
var rawJSONCases = []string{
	`{}`, `[]`, `null`, ``, `"x"`, `1`,
	`{"a":1,"b":"two","c":[1,{"d":"]}"}],"e":{"f":null},"g":true}`,
	` { "a" : "x\"}y" , "b" : [ "p" , "q" ] } `,
	`{"a\u0062":"escaped key","a":1,"a":2}`,
	`{"tags":["A1","B2"],"category":"C3","seo":{"id":4,"metaTitle":"T"}}`,
	`[{"__component":"shared.quote","id":1},{"__component":"shared.rich-text","body":"[{"}]`,
	`["a",null,"b\\n"]`,
	`{"a":"ends in a backslash\\\\","b":"quote \\" and \\\\\\" inside","c":"\\\\"}`,
	`{"a":"\\\\\\"}`, `{"a":"unterminated\\\"}`,
	`{"a":1`, `{"a":}`, `{"a" 1}`, `[1,2`, `{"a":[1,2}`, `{"a":{"b":1]}`, `{1:2}`,
}

func TestParseObjectMatchesJSON(t *testing.T) {
	for _, c := range rawJSONCases {
		var want map[string]json.RawMessage
		if json.Unmarshal([]byte(c), &want) != nil {
			want = nil
		}
		got := parseObject([]byte(c))
		if (got == nil) != (want == nil) {
			t.Errorf("%q: parseObject = %v, json = %v", c, got, want)
			continue
		}
		for k, v := range want {
			if g := got.get(k); string(g) != string(v) {
				t.Errorf("%q: get(%q) = %s, want %s", c, k, g, v)
			}
		}
		if got.get("missing") != nil {
			t.Errorf("%q: a missing key has a value", c)
		}
	}
}

func TestEachElementMatchesJSON(t *testing.T) {
	for _, c := range rawJSONCases {
		var want []json.RawMessage
		wantOK := json.Unmarshal([]byte(c), &want) == nil && want != nil
		var got []json.RawMessage
		ok := eachElement([]byte(c), func(e json.RawMessage) { got = append(got, e) })
		if ok != wantOK || (ok && len(got) != len(want)) {
			t.Errorf("%q: eachElement = %v %q, json = %v %q", c, ok, got, wantOK, want)
			continue
		}
		for i := range want {
			if string(got[i]) != string(want[i]) {
				t.Errorf("%q: element %d = %s, want %s", c, i, got[i], want[i])
			}
		}
	}
}

func TestRefIDs(t *testing.T) {
	for raw, want := range map[string][]string{
		`"abc"`: {"abc"}, `"a\"b"`: {`a"b`}, `["x","y"]`: {"x", "y"}, `[]`: {}, `null`: nil, ``: nil, `3`: nil,
	} {
		if got := refIDs(json.RawMessage(raw)); !reflect.DeepEqual(got, want) {
			t.Errorf("refIDs(%s) = %#v, want %#v", raw, got, want)
		}
	}
}

func FuzzParseObject(f *testing.F) {
	for _, c := range rawJSONCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want map[string]json.RawMessage
		if !utf8.ValidString(s) || json.Unmarshal([]byte(s), &want) != nil {
			return // stored JSON is valid UTF-8; malformed: the raw readers may give up any way, without panicking
		}
		got := parseObject([]byte(s))
		if (got == nil) != (want == nil) {
			t.Fatalf("%q: parseObject = %v, json = %v", s, got, want)
		}
		for k, v := range want {
			if g := got.get(k); string(g) != string(v) {
				t.Fatalf("%q: get(%q) = %s, want %s", s, k, g, v)
			}
		}
		eachElement([]byte(s), func(json.RawMessage) {})
	})
}

func TestAppendQuotedIsJSON(t *testing.T) {
	for _, s := range []string{"", "plain-id_09", "en", "quote\" back\\", "tab\tnl\n\x01", "é 漢字", "<b>&", "\u2028"} {
		got := appendQuoted([]byte("x"), s)
		var back string
		if err := json.Unmarshal(got[1:], &back); err != nil || back != s || got[0] != 'x' {
			t.Errorf("appendQuoted(%q) = %s (%v)", s, got, err)
		}
	}
}
