package gqlschema

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestScanMembers(t *testing.T) {
	for _, in := range []string{
		``, `"a":1`, `"a":"x,y","b":[1,{"c":"}"}],"d":null`, ` "a" : "q\"uote" , "b\u00e9":true `,
		`"a":{"b":[1,2,{"c":"d"}]},"e":-1.5e3`, `"s":"back\\","t":"ok"`,
	} {
		want := map[string]json.RawMessage{}
		_ = json.Unmarshal([]byte("{"+in+"}"), &want)
		got := scanMembers([]byte(in))
		norm := func(m map[string]json.RawMessage) map[string]any {
			out := map[string]any{}
			for k, v := range m {
				var x any
				_ = json.Unmarshal(v, &x)
				out[k] = x
			}
			return out
		}
		if !reflect.DeepEqual(norm(got), norm(want)) {
			t.Errorf("%q: got %v, want %v", in, norm(got), norm(want))
		}
	}
}

func TestFindMember(t *testing.T) {
	in := []byte(` "a" : "q\"uote" , "b":[1,{"c":"}"}], "d":null,"e":3 `)
	for key, want := range map[string]string{"a": `"q\"uote"`, "b": `[1,{"c":"}"}]`, "d": "null", "e": "3", "z": ""} {
		got, ok := findMember(in, key)
		if !ok || string(got) != want {
			t.Errorf("%s: got %q %v, want %q", key, got, ok, want)
		}
	}
	if _, ok := findMember([]byte(`"b\u00e9":1`), "x"); ok {
		t.Error("escaped keys take the general path")
	}
}
