package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func decodeJSON(t testing.TB, s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestBlocks: Strapi's blocks format is checked node by node; a bad node
// is named by its path.
func TestBlocks(t *testing.T) {
	text := `{"type":"text","text":"hi"}`
	image := `{"name":"a.png","alternativeText":null,"url":"/uploads/a.png","caption":null,"width":2,"height":2,"formats":{},
		"hash":"a","ext":".png","mime":"image/png","size":0.1,"previewUrl":null,"provider":"local","provider_metadata":null,
		"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z"}`
	cases := []struct {
		name, blocks, want string // want: "" for valid, else a part of the message
	}{
		{"paragraph with marks and links", `[{"type":"paragraph","children":[{"type":"text","text":""},
			{"type":"text","text":"b","bold":true,"italic":false,"underline":true,"strikethrough":false,"code":true},
			{"type":"link","url":"https://strapi.io","children":[` + text + `]},{"type":"link","url":"/relative","children":[` + text + `]}]}]`, ""},
		{"headings 1 to 6", `[{"type":"heading","level":1,"children":[` + text + `]},{"type":"heading","level":6,"children":[` + text + `]}]`, ""},
		{"quote and code", `[{"type":"quote","children":[` + text + `]},{"type":"code","syntax":"go","children":[` + text + `]}]`, ""},
		{"nested lists", `[{"type":"list","format":"unordered","children":[{"type":"list-item","children":[` + text + `]},
			{"type":"list","format":"ordered","children":[{"type":"list-item","children":[]}]}]}]`, ""},
		{"image", `[{"type":"image","image":` + image + `,"children":[{"type":"text","text":""}]}]`, ""},
		{"empty", `[]`, ""},
		{"unknown block", `[{"type":"nope"}]`, "[0]: unknown block `type` \"nope\""},
		{"no type", `[{"children":[]}]`, "[0]: a block needs a `type`"},
		{"heading level 7", `[{"type":"heading","level":7,"children":[` + text + `]}]`, "[0]: a heading's level must be 1 to 6"},
		{"heading without level", `[{"type":"heading","children":[` + text + `]}]`, "[0]: a heading's level"},
		{"paragraph without children", `[{"type":"paragraph","children":[]}]`, "[0]: children must hold at least one node"},
		{"block in a paragraph", `[{"type":"paragraph","children":[` + text + `,{"type":"paragraph","children":[]}]}]`, "[0].children[1]: an inline node must be text or link"},
		{"text without text", `[{"type":"paragraph","children":[{"type":"text"}]}]`, "[0].children[0]: a text node's text"},
		{"mark that is not a boolean", `[{"type":"paragraph","children":[{"type":"text","text":"x","bold":"yes"}]}]`, "the bold mark"},
		{"javascript link", `[{"type":"paragraph","children":[{"type":"link","url":"javascript:alert(1)","children":[` + text + `]}]}]`, "[0].children[0]: a link needs a valid url"},
		{"link to a link", `[{"type":"paragraph","children":[{"type":"link","url":"https://x.io","children":[{"type":"link","url":"https://y.io","children":[]}]}]}]`, "[0].children[0].children[0]: expected a text node"},
		{"list format", `[{"type":"list","format":"bullets","children":[{"type":"list-item","children":[]}]}]`, "[0]: a list's format"},
		{"paragraph in a list", `[{"type":"list","format":"ordered","children":[{"type":"paragraph","children":[` + text + `]}]}]`, "[0].children[0]: a list holds list items and lists"},
		{"deep list item", `[{"type":"list","format":"ordered","children":[{"type":"list","format":"ordered","children":[{"type":"list-item","children":[{"type":"heading"}]}]}]}]`,
			"[0].children[0].children[0].children[0]: an inline node must be text or link"},
		{"code holding a link", `[{"type":"code","children":[{"type":"link","url":"https://x.io","children":[]}]}]`, "[0].children[0]: expected a text node"},
		{"image without its file's fields", `[{"type":"image","image":{"name":"a"},"children":[]}]`, "[0].image: url must be a string"},
		{"not an array", `{"type":"paragraph"}`, "must be an array of blocks"},
		{"a string", `["x"]`, "[0]: a node must be an object"},
	}
	for _, c := range cases {
		_, msg := checkBlocks(decodeJSON(t, c.blocks))
		if c.want == "" && msg != "" || c.want != "" && !strings.Contains(string(msg), c.want) {
			t.Errorf("%s: %q, want %q", c.name, msg, c.want)
		}
	}
}

// FuzzBlocks: any JSON value is either accepted or refused with a message;
// the checker never panics and stays linear.
func FuzzBlocks(f *testing.F) {
	for _, s := range []string{`[]`, `[{"type":"paragraph","children":[{"type":"text","text":"x"}]}]`,
		`[{"type":"list","format":"ordered","children":[{"type":"list","format":"ordered","children":[]}]}]`,
		`[{"type":"heading","level":3,"children":[{"type":"link","url":"/a","children":[{"type":"text","text":"y"}]}]}]`,
		`[{"type":"image","image":null,"children":[]}]`, `[null]`, `[[]]`, `[{"type":1}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		out, msg := checkBlocks(v)
		if (msg == "") != (out != nil) {
			t.Fatalf("%s: out %v, msg %q", b, out, msg)
		}
	})
}
