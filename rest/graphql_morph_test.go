package rest_test

import (
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// Polymorphic relations in GraphQL are the v4 plugin's GenericMorph: each
// related document as its own type, in order, read with the page.
func TestGraphQLGenericMorph(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		acc := e.Do("POST", "/api/accounts", map[string]any{"data": map[string]any{"handle": "ada"}}).Data()
		page := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "P"}}).Data()
		r := e.Do("POST", "/api/comments", map[string]any{"data": map[string]any{"body": "hi",
			"target": map[string]any{"__type": "api::account.account", "documentId": acc["documentId"]},
			"attachments": []any{
				map[string]any{"__type": "api::page.page", "documentId": page["documentId"]},
				map[string]any{"__type": "api::account.account", "documentId": acc["documentId"]},
			}}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		e.Do("POST", "/api/comments", map[string]any{"data": map[string]any{"body": "alone"}})
		q := `{ comments(sort: "body") { data { attributes { body
			target { __typename ... on Account { handle } }
			attachments { __typename ... on Page { title } ... on Account { handle } } } } } }`
		res := e.Do("POST", "/graphql", map[string]any{"query": q})
		if res.Status != 200 || res.JSON["errors"] != nil {
			t.Fatalf("query: %d %s", res.Status, res.Body)
		}
		list, _ := dig(res.JSON, "data", "comments", "data").([]any)
		if len(list) != 2 {
			t.Fatalf("comments: %s", res.Body)
		}
		alone, hi := list[0], list[1]
		if dig(alone, "attributes", "target") != nil || len(dig(alone, "attributes", "attachments").([]any)) != 0 {
			t.Errorf("a comment without targets: %v", alone)
		}
		if dig(hi, "attributes", "target", "__typename") != "Account" || dig(hi, "attributes", "target", "handle") != "ada" {
			t.Errorf("morphToOne: %v", dig(hi, "attributes", "target"))
		}
		if dig(hi, "attributes", "attachments", 0, "__typename") != "Page" || dig(hi, "attributes", "attachments", 0, "title") != "P" ||
			dig(hi, "attributes", "attachments", 1, "handle") != "ada" {
			t.Errorf("morphToMany in order: %v", dig(hi, "attributes", "attachments"))
		}
		// The schema names the union.
		sdl := e.Do("POST", "/graphql", map[string]any{"query": `{ __type(name: "GenericMorph") { kind possibleTypes { name } } }`})
		if dig(sdl.JSON, "data", "__type", "kind") != "UNION" {
			t.Errorf("GenericMorph: %s", sdl.Body)
		}
	})
}

// Relations inside components (and dynamic zone items) are typed fields
// in GraphQL, read with the page, and their documents' own relations load
// like any other.
func TestGraphQLRelationsInComponents(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		acc := func(h string) any {
			return e.Do("POST", "/api/accounts", map[string]any{"data": map[string]any{"handle": h}}).Data()["documentId"]
		}
		a1, a2 := acc("one"), acc("two")
		page := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "P"}}).Data()["documentId"]
		r := e.Do("POST", "/api/landings", map[string]any{"data": map[string]any{
			"name": "L",
			"ctas": []any{map[string]any{"label": "a", "owner": a1, "pages": []any{page}}, map[string]any{"label": "b", "owner": a2}},
			"zone": []any{map[string]any{"__component": "blocks.cta", "label": "z", "owner": a2}},
		}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		q := `{ landings { data { attributes { name
			ctas { label owner { data { id attributes { handle } } } pages { data { attributes { title } } } }
			zone { __typename ... on ComponentBlocksCta { label owner { data { attributes { handle } } } } } } } } }`
		res := e.Do("POST", "/graphql", map[string]any{"query": q})
		if res.Status != 200 || res.JSON["errors"] != nil {
			t.Fatalf("query: %d %s", res.Status, res.Body)
		}
		l := dig(res.JSON, "data", "landings", "data", 0, "attributes")
		if dig(l, "ctas", 0, "owner", "data", "attributes", "handle") != "one" || dig(l, "ctas", 0, "owner", "data", "id") != a1 {
			t.Errorf("owner in a component: %v", dig(l, "ctas"))
		}
		if dig(l, "ctas", 0, "pages", "data", 0, "attributes", "title") != "P" || dig(l, "ctas", 1, "owner", "data", "attributes", "handle") != "two" {
			t.Errorf("pages in a component: %v", dig(l, "ctas"))
		}
		if list, _ := dig(l, "ctas", 1, "pages", "data").([]any); len(list) != 0 {
			t.Errorf("no pages: %v", dig(l, "ctas", 1))
		}
		if dig(l, "zone", 0, "owner", "data", "attributes", "handle") != "two" {
			t.Errorf("relation in a zone item: %v", dig(l, "zone"))
		}
	})
}

// A reader who may not find a component relation's target still reads
// the component; selecting the relation is FORBIDDEN at its path.
func TestGraphQLRelationsInComponentsPrivate(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: "testdata/project",
			Public: []string{"api::landing.landing.find", "api::landing.landing.create"}, Config: engine.Config{Locales: []string{"en"}}})
		if r := e.Do("POST", "/api/landings", map[string]any{"data": map[string]any{"name": "L", "ctas": []any{map[string]any{"label": "a"}}}}); r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		res := e.Do("POST", "/graphql", map[string]any{"query": `{ landings { data { attributes { name ctas { label } } } } }`})
		if res.JSON["errors"] != nil || dig(res.JSON, "data", "landings", "data", 0, "attributes", "ctas", 0, "label") != "a" {
			t.Errorf("component without its relations: %s", res.Body)
		}
		res = e.Do("POST", "/graphql", map[string]any{"query": `{ landings { data { attributes { ctas { label owner { data { id } } } } } } }`})
		if dig(res.JSON, "errors", 0, "extensions", "code") != "FORBIDDEN" || dig(res.JSON, "data", "landings", "data", 0, "attributes", "ctas", 0, "label") != "a" {
			t.Errorf("unreadable relation in a component: %s", res.Body)
		}
	})
}
