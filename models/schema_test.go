package models

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func blogDir() string {
	_, f, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(f), "..", "examples", "blog")
}

func TestLoadBlogExample(t *testing.T) {
	s, err := LoadDir(blogDir())
	if err != nil {
		t.Fatal(err)
	}
	art := s.Route("articles")
	if art == nil || art.UID != "api::article.article" || !art.HasDraftAndPublish() {
		t.Fatalf("articles route: %+v", art)
	}
	if g := s.Route("global"); g == nil || !g.IsSingle() {
		t.Fatalf("single type global not routed by its singular name")
	}
	if s.Route("globals") != nil {
		t.Fatalf("a single type must not be routed by its plural name")
	}
	// Attributes keep file order.
	if art.Attributes[0].Name != "title" || art.Attributes[1].Name != "slug" {
		t.Fatalf("attribute order lost: %s, %s", art.Attributes[0].Name, art.Attributes[1].Name)
	}
	refs := s.ReferencesTo("api::author.author")
	if len(refs) != 1 || refs[0].Attr.Name != "author" {
		t.Fatalf("references to author: %+v", refs)
	}
	if inv := s.Inverse(s.Type("api::author.author").Attr("articles")); inv == nil || inv.Name != "author" {
		t.Fatalf("inverse of author.articles: %+v", inv)
	}
}

func ct(t *testing.T, uid, body string) *ContentType {
	t.Helper()
	c, err := ParseContentType(uid, "src/api/x/content-types/x/schema.json", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const okHead = `"kind":"collectionType","info":{"singularName":"thing","pluralName":"things"},`

func TestBuildRefusesBadDefinitions(t *testing.T) {
	tests := []struct {
		name, attrs, wantAttr, want string
	}{
		{"unknown type", `"a":{"type":"strang"}`, "a", `unknown type "strang"`},
		{"missing type", `"a":{}`, "a", `missing "type"`},
		{"reserved id", `"id":{"type":"string"}`, "id", "reserved"},
		{"reserved documentId", `"documentId":{"type":"string"}`, "documentId", "reserved"},
		{"bad name", `"my-field":{"type":"string"}`, "my-field", "letters"},
		{"missing target", `"r":{"type":"relation","relation":"manyToOne"}`, "r", `needs a "target"`},
		{"unknown target", `"r":{"type":"relation","relation":"manyToOne","target":"api::nope.nope"}`, "r", "does not exist"},
		{"unknown relation", `"r":{"type":"relation","relation":"sideways","target":"api::thing.thing"}`, "r", "unknown relation"},
		{"enum empty", `"e":{"type":"enumeration","enum":[]}`, "e", "non-empty"},
		{"default not in enum", `"e":{"type":"enumeration","enum":["a"],"default":"b"}`, "e", "enum"},
		{"missing component", `"c":{"type":"component","component":"shared.nope"}`, "c", "does not exist"},
		{"zone without components", `"z":{"type":"dynamiczone","components":[]}`, "z", "non-empty"},
		{"min over max", `"n":{"type":"integer","min":5,"max":1}`, "n", "greater than max"},
		{"bad regex", `"s":{"type":"string","regex":"("}`, "s", "regex"},
		{"uid bad target", `"u":{"type":"uid","targetField":"nope"}`, "u", "targetField"},
		{"wrong default type", `"n":{"type":"integer","default":"x"}`, "n", "default"},
		{"mappedBy without back relation", `"r":{"type":"relation","relation":"oneToMany","target":"api::thing.thing","mappedBy":"nope"}`, "r", "mappedBy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ct(t, "api::thing.thing", `{`+okHead+`"attributes":{`+tc.attrs+`}}`)
			_, err := Build([]*ContentType{c}, nil)
			if err == nil {
				t.Fatal("accepted")
			}
			de, ok := err.(*DefinitionError)
			if !ok || de.Attribute != tc.wantAttr || !strings.Contains(de.Message, tc.want) || !strings.Contains(err.Error(), "schema.json") {
				t.Fatalf("got %v, want attribute %q and %q", err, tc.wantAttr, tc.want)
			}
		})
	}
}

func TestBuildRefusesTypeLevelProblems(t *testing.T) {
	a := ct(t, "api::a.a", `{"info":{"singularName":"post","pluralName":"posts"},"attributes":{}}`)
	b := ct(t, "api::b.b", `{"info":{"singularName":"entry","pluralName":"posts"},"attributes":{}}`)
	if _, err := Build([]*ContentType{a, b}, nil); err == nil || !strings.Contains(err.Error(), `"posts" is already used`) {
		t.Fatalf("duplicate plural: %v", err)
	}
	same := ct(t, "api::c.c", `{"info":{"singularName":"x","pluralName":"x"},"attributes":{}}`)
	if _, err := Build([]*ContentType{same}, nil); err == nil {
		t.Fatal("singular == plural accepted")
	}
	badKind := ct(t, "api::d.d", `{"kind":"bag","info":{"singularName":"d","pluralName":"ds"},"attributes":{}}`)
	if _, err := Build([]*ContentType{badKind}, nil); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Fatalf("bad kind: %v", err)
	}
	for _, name := range []string{"stratum_meta", "up_users", "UP_Roles", "up_permissions", "sqlite_master", "pg_class"} {
		table := ct(t, "api::e.e", `{"collectionName":"`+name+`","info":{"singularName":"e","pluralName":"es"},"attributes":{}}`)
		if _, err := Build([]*ContentType{table}, nil); err == nil || !strings.Contains(err.Error(), "reserved") {
			t.Errorf("system table name %s: %v", name, err)
		}
	}
	ok := ct(t, "api::e.e", `{"collectionName":"up_votes","info":{"singularName":"e","pluralName":"es"},"attributes":{}}`)
	if _, err := Build([]*ContentType{ok}, nil); err != nil {
		t.Errorf("up_votes: %v", err)
	}
	if _, err := ParseContentType("api::f.f", "f.json", []byte(`{"attributes":{"a":{"type":"string"},"a":{"type":"text"}}}`)); err == nil {
		t.Fatal("duplicate attribute accepted")
	}
	if _, err := ParseContentType("api::f.f", "f.json", []byte(`{"attributes":`)); err == nil || !strings.Contains(err.Error(), "f.json") {
		t.Fatalf("broken JSON: %v", err)
	}
}

func TestComponentCycle(t *testing.T) {
	a, _ := ParseComponent("x.a", "x", "a.json", []byte(`{"attributes":{"b":{"type":"component","component":"x.b"}}}`))
	b, _ := ParseComponent("x.b", "x", "b.json", []byte(`{"attributes":{"a":{"type":"component","component":"x.a"}}}`))
	if _, err := Build(nil, []*Component{a, b}); err == nil || !strings.Contains(err.Error(), "contains itself") {
		t.Fatalf("cycle: %v", err)
	}
}

// TestInvalidJSONPosition: a broken schema file is reported with the line
// and column where it breaks.
func TestInvalidJSONPosition(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"{\n  \"kind\": \"collectionType\",\n  \"info\": {\"singularName\": \"a\" \"pluralName\": \"as\"}\n}", "line 3, column 32"},
		{"{\n  \"kind\": \"collectionType\",\n", "line 3, column 1: unexpected end of the file"},
		{"{\"kind\": 3}", "line 1, column 10"},
		{"{\"kind\": \"collectionType\"} {}", "line 1, column 28: unexpected data"},
	} {
		_, err := ParseContentType("api::a.a", "src/api/a/content-types/a/schema.json", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "schema.json") {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

// Relations to users, roles, files and admin users are kept (they are
// system types); one to another plugin's type (i18n's locale) does not
// stop a project: the attribute is left out with a warning, the rest of
// the type is served; an unknown api:: target is still refused.
func TestPluginRelations(t *testing.T) {
	c := ct(t, "api::thing.thing", `{`+okHead+`"attributes":{"title":{"type":"string"},
		"owner":{"type":"relation","relation":"manyToOne","target":"plugin::users-permissions.user","inversedBy":"things"},
		"editors":{"type":"relation","relation":"oneToMany","target":"admin::user"},
		"doc":{"type":"relation","relation":"oneToOne","target":"plugin::upload.file"},
		"lang":{"type":"relation","relation":"oneToOne","target":"plugin::i18n.locale"}}}`)
	comp, err := ParseComponent("shared.byline", "shared", "src/components/shared/byline.json",
		[]byte(`{"collectionName":"components_shared_bylines","info":{"displayName":"byline"},"attributes":{"name":{"type":"string"},"user":{"type":"relation","relation":"oneToOne","target":"plugin::users-permissions.user"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build([]*ContentType{c}, []*Component{comp})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	got := s.Type("api::thing.thing")
	if got.Attr("title") == nil || got.Attr("owner") == nil || got.Attr("editors") == nil || got.Attr("doc") == nil ||
		got.Attr("lang") != nil || len(got.Attributes) != 4 {
		t.Errorf("attributes: %v", got.Attributes)
	}
	// owner's inversedBy names no attribute of Strapi's user: one-way, said.
	if len(got.Warnings) != 2 || !strings.Contains(got.Warnings[0], "plugin::i18n.locale") || !strings.Contains(got.Warnings[1], `inversedBy "things"`) {
		t.Errorf("warnings: %q", got.Warnings)
	}
	if cc := s.Component("shared.byline"); cc.Attr("user") == nil || cc.Attr("name") == nil || len(cc.Warnings) != 0 {
		t.Errorf("component: %v %v", cc.Attributes, cc.Warnings)
	}
	if u := s.Type(UserUID); u == nil || !u.System || u.Attr("role").Column != "role_id" || s.Type(RoleUID) == nil {
		t.Errorf("system types: %v", u)
	}
	if f := s.Type(FileUID); f == nil || f.Action("find") != "plugin::upload.content-api.find" || f.Attr("previewUrl").Column != "preview_url" {
		t.Errorf("files: %v", f)
	}
	for _, ty := range s.Types {
		if ty.System {
			t.Errorf("a system type is listed among the content types: %s", ty.UID)
		}
	}
	// Built again (the next snapshot): the same, no second warning.
	if _, err := Build([]*ContentType{c}, []*Component{comp}); err != nil || len(c.Warnings) != 2 {
		t.Errorf("rebuild: %v %v", err, c.Warnings)
	}
	bad := ct(t, "api::thing.thing", `{`+okHead+`"attributes":{"r":{"type":"relation","relation":"manyToOne","target":"api::nope.nope"}}}`)
	if _, err := Build([]*ContentType{bad}, nil); err == nil {
		t.Error("an unknown api:: target was accepted")
	}
}
