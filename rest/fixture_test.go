package rest_test

import (
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

func openFixture(t *testing.T, db func(testing.TB) string) *testenv.Env {
	return testenv.Start(t, db(t), testenv.Options{Dir: "testdata/project", Public: testenv.AllActions(t, "testdata/project"),
		Config: engine.Config{Locales: []string{"en", "fr", "pt-BR"}}})
}

func TestPasswordAndDefaults(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		r := e.Do("POST", "/api/accounts", map[string]any{"data": map[string]any{"handle": "ada_99", "secret": "correct horse", "internal": map[string]any{"k": 1}}})
		if r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "account_created", r.Body)
		d := r.Data()
		if _, ok := d["secret"]; ok {
			t.Fatal("password returned")
		}
		if _, ok := d["internal"]; ok {
			t.Fatal("private json returned")
		}
		if d["plan"] != "free" || d["credits"] != 10.0 || d["active"] != true {
			t.Fatalf("defaults: %s", r.Body)
		}
		// The password is stored hashed with bcrypt, never in clear.
		var stored string
		sqlDB := e.Store.GORM()
		if err := sqlDB.Raw("SELECT extra FROM accounts").Row().Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stored, "correct horse") || !strings.Contains(stored, "$2a$10$") {
			t.Fatalf("password not hashed: %s", stored)
		}
		if r := e.Do("GET", "/api/accounts?filters[secret][$eq]=x", nil); r.Status != 400 {
			t.Fatalf("filter on a password: %d", r.Status)
		}
		for _, c := range []struct {
			data map[string]any
			msg  string
		}{
			{map[string]any{"handle": "ab"}, "at least 3"},
			{map[string]any{"handle": "Bad Handle"}, "must match"},
			{map[string]any{"handle": "okay", "secret": "short"}, "at least 8"},
			{map[string]any{"handle": "okay", "secret": strings.Repeat("p", 73)}, "73 bytes"},
			{map[string]any{"handle": "okay", "plan": "gold"}, "one of the following"},
			{map[string]any{"handle": "okay", "lastSeen": "never"}, "datetime"},
			{map[string]any{"handle": "okay", "credits": 3000000000}, "integer between"},
		} {
			r := e.Do("POST", "/api/accounts", map[string]any{"data": c.data})
			if r.Status != 400 || !strings.Contains(string(r.Body), c.msg) {
				t.Errorf("%v: %d %s", c.data, r.Status, r.Body)
			}
		}
		// Required set to null on update (no draft & publish): "cannot be null".
		id := d["documentId"].(string)
		r = e.Do("PUT", "/api/accounts/"+id, map[string]any{"data": map[string]any{"handle": nil}})
		if r.Status != 400 || r.ErrorMessage() != "handle cannot be null." {
			t.Fatalf("null required: %d %s", r.Status, r.Body)
		}
		// Timestamps accept milliseconds since the epoch.
		r = e.Do("PUT", "/api/accounts/"+id, map[string]any{"data": map[string]any{"lastSeen": 1700000000000}})
		if r.Data()["lastSeen"] != "2023-11-14T22:13:20.000Z" {
			t.Fatalf("timestamp: %s", r.Body)
		}
	})
}

func TestLocales(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		en := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "Hello"}})
		if en.Status != 201 || en.Data()["locale"] != "en" {
			t.Fatalf("default locale: %d %s", en.Status, en.Body)
		}
		fr := e.Do("POST", "/api/pages?locale=fr", map[string]any{"data": map[string]any{"title": "Bonjour"}})
		if fr.Data()["locale"] != "fr" {
			t.Fatalf("fr: %s", fr.Body)
		}
		if l := e.Do("GET", "/api/pages", nil).List(); len(l) != 1 || l[0]["title"] != "Hello" {
			t.Fatalf("default locale list: %v", l)
		}
		if l := e.Do("GET", "/api/pages?locale=fr", nil).List(); len(l) != 1 || l[0]["title"] != "Bonjour" {
			t.Fatalf("fr list: %v", l)
		}
		if l := e.Do("GET", "/api/pages?locale=*", nil).List(); len(l) != 2 {
			t.Fatalf("all locales: %v", l)
		}
		if r := e.Do("POST", "/api/pages?locale=*", map[string]any{"data": map[string]any{"title": "x"}}); r.Status != 400 {
			t.Fatalf("write to *: %d", r.Status)
		}
		for _, bad := range []string{"de", "x", "en_US!", "toolongtoolongtoolongtoolongtoolong1"} {
			if r := e.Do("GET", "/api/pages?locale="+bad, nil); r.Status != 400 || r.ErrorName() != "ValidationError" {
				t.Errorf("locale %q: %d %s", bad, r.Status, r.Body)
			}
		}
		// PUT in a new locale creates the translation; shared attributes follow.
		id := en.Data()["documentId"].(string)
		e.Do("PUT", "/api/pages/"+id, map[string]any{"data": map[string]any{"code": "P-1"}})
		pt := e.Do("PUT", "/api/pages/"+id+"?locale=pt-BR", map[string]any{"data": map[string]any{"title": "Olá"}})
		if pt.Status != 200 || pt.Data()["documentId"] != id || pt.Data()["locale"] != "pt-BR" || pt.Data()["code"] != "P-1" {
			t.Fatalf("new localization: %d %s", pt.Status, pt.Body)
		}
		if r := e.Do("PUT", "/api/pages/nope?locale=fr", map[string]any{"data": map[string]any{"title": "x"}}); r.Status != 404 {
			t.Fatalf("unknown document in a new locale: %d", r.Status)
		}
		loc := e.Do("GET", "/api/pages/"+id+"?populate=localizations", nil)
		ls, _ := loc.Data()["localizations"].([]any)
		if len(ls) != 1 || ls[0].(map[string]any)["locale"] != "pt-BR" {
			t.Fatalf("localizations: %s", loc.Body)
		}
		if r := e.Do("GET", "/api/accounts?populate=localizations", nil); r.Status != 400 {
			t.Fatalf("localizations on a non-localized type: %d", r.Status)
		}
		// A non-localized type ignores locale and shows none.
		a := e.Do("POST", "/api/accounts?locale=fr", map[string]any{"data": map[string]any{"handle": "abc"}})
		if _, ok := a.Data()["locale"]; ok || a.Status != 201 {
			t.Fatalf("non-localized: %d %s", a.Status, a.Body)
		}
	})
}

func TestRelationsInComponents(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		acc := func(h string) any {
			return e.Do("POST", "/api/accounts", map[string]any{"data": map[string]any{"handle": h}}).Data()["documentId"]
		}
		a1, a2 := acc("one"), acc("two")
		page := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "P"}}).Data()["documentId"]
		for i := 0; i < 3; i++ {
			r := e.Do("POST", "/api/landings", map[string]any{"data": map[string]any{
				"name": "L",
				"ctas": []any{map[string]any{"label": "a", "owner": a1, "pages": []any{page}}, map[string]any{"label": "b", "owner": a2}},
				"zone": []any{map[string]any{"__component": "blocks.cta", "label": "z", "owner": a2}},
			}})
			if r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		before := e.Store.Statements()
		r := e.Do("GET", "/api/landings?populate[ctas][populate][owner][fields][0]=handle&populate[ctas][populate][pages]=true&populate[zone][on][blocks.cta][populate]=owner", nil)
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		// list + count + one query per relation attribute reached (ctas.owner,
		// ctas.pages, zone's cta.owner counts once per populate path).
		if n := e.Store.Statements() - before; n > 5 {
			t.Errorf("%d statements for 3 documents: relations in components must be fetched per page", n)
		}
		l := r.List()
		ctas := l[0]["ctas"].([]any)
		first := ctas[0].(map[string]any)
		if o := first["owner"].(map[string]any); o["handle"] != "one" || len(o) != 3 {
			t.Fatalf("owner in component: %s", r.Body)
		}
		if ps := first["pages"].([]any); len(ps) != 1 || ps[0].(map[string]any)["title"] != "P" {
			t.Fatalf("pages in component: %s", r.Body)
		}
		zone := l[2]["zone"].([]any)[0].(map[string]any)
		if zone["owner"].(map[string]any)["handle"] != "two" {
			t.Fatalf("relation in a zone item: %s", r.Body)
		}
		// Without populate the relation inside the component is left out.
		plain := e.Do("GET", "/api/landings?populate=ctas", nil).List()[0]["ctas"].([]any)[0].(map[string]any)
		if _, ok := plain["owner"]; ok {
			t.Fatalf("relation in component returned without populate: %v", plain)
		}
		if r := e.Do("POST", "/api/landings", map[string]any{"data": map[string]any{"ctas": []any{map[string]any{"owner": "nopenopenopenopenopenope"}}}}); r.Status != 400 {
			t.Fatalf("unknown target in a component: %d %s", r.Status, r.Body)
		}
	})
}

func TestPolymorphicRelations(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		acc := e.Do("POST", "/api/accounts", map[string]any{"data": map[string]any{"handle": "ada"}}).Data()
		page := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "P"}}).Data()
		r := e.Do("POST", "/api/comments", map[string]any{"data": map[string]any{"body": "hi",
			"target": map[string]any{"__type": "api::account.account", "documentId": acc["documentId"]},
			"attachments": []any{
				map[string]any{"__type": "api::page.page", "documentId": page["documentId"]},
				map[string]any{"__type": "api::account.account", "id": acc["id"]},
			}}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)
		got := e.Do("GET", "/api/comments/"+id+"?populate[0]=target&populate[1]=attachments", nil).Data()
		target, _ := got["target"].(map[string]any)
		if target == nil || target["__type"] != "api::account.account" || target["handle"] != "ada" {
			t.Fatalf("morphToOne: %v", got["target"])
		}
		att, _ := got["attachments"].([]any)
		if len(att) != 2 || att[0].(map[string]any)["__type"] != "api::page.page" || att[1].(map[string]any)["handle"] != "ada" {
			t.Fatalf("morphToMany in order: %v", got["attachments"])
		}
		// The inverse side (morphMany) is read through the owner.
		inv := e.Do("GET", "/api/accounts/"+acc["documentId"].(string)+"?populate=comments", nil).Data()
		if cs, _ := inv["comments"].([]any); len(cs) != 1 || cs[0].(map[string]any)["body"] != "hi" {
			t.Fatalf("morphMany: %v", inv["comments"])
		}
		// disconnect from a list.
		r = e.Do("PUT", "/api/comments/"+id, map[string]any{"data": map[string]any{"attachments": map[string]any{
			"disconnect": []any{map[string]any{"__type": "api::page.page", "documentId": page["documentId"]}}}}})
		if r.Status != 200 {
			t.Fatalf("disconnect: %d %s", r.Status, r.Body)
		}
		for _, c := range []struct {
			data map[string]any
			msg  string
		}{
			{map[string]any{"target": map[string]any{"__type": "api::nope.nope", "documentId": "x"}}, "unknown __type"},
			{map[string]any{"target": map[string]any{"__type": "api::account.account", "documentId": "nopenopenopenopenopenope"}}, "not found"},
			{map[string]any{"target": "plainid"}, "__type"},
		} {
			if r := e.Do("POST", "/api/comments", map[string]any{"data": c.data}); r.Status != 400 || !strings.Contains(string(r.Body), c.msg) {
				t.Errorf("%v: %d %s", c.data, r.Status, r.Body)
			}
		}
		if r := e.Do("PUT", "/api/accounts/"+acc["documentId"].(string), map[string]any{"data": map[string]any{"comments": []any{id}}}); r.Status != 400 {
			t.Fatalf("writing the inverse side: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/comments?filters[target][handle][$eq]=ada", nil); r.Status != 400 {
			t.Fatalf("filter through a polymorphic relation: %d", r.Status)
		}
		// Deleting a target removes the items that name it.
		e.Do("DELETE", "/api/accounts/"+acc["documentId"].(string), nil)
		got = e.Do("GET", "/api/comments/"+id+"?populate[0]=target&populate[1]=attachments", nil).Data()
		if got["target"] != nil || len(got["attachments"].([]any)) != 0 {
			t.Fatalf("after deleting the target: %v %v", got["target"], got["attachments"])
		}
		var extra string
		if err := e.Store.GORM().Raw("SELECT extra FROM comments").Row().Scan(&extra); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(extra, acc["documentId"].(string)) {
			t.Fatalf("dangling polymorphic reference: %s", extra)
		}
	})
}

// Updating a non-localized attribute in one locale changes it in every
// locale's draft (a published version follows at its publish).
func TestSharedAttributesFollowEveryLocale(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		en := e.Do("POST", "/api/pages", map[string]any{"data": map[string]any{"title": "Hello", "code": "A"}})
		id := en.Data()["documentId"].(string)
		if r := e.Do("PUT", "/api/pages/"+id+"?locale=fr", map[string]any{"data": map[string]any{"title": "Bonjour"}}); r.Data()["code"] != "A" {
			t.Fatalf("fr copied: %s", r.Body)
		}
		// Changed in French, as a draft: every locale's draft has it.
		if r := e.Do("PUT", "/api/pages/"+id+"?locale=fr&status=draft", map[string]any{"data": map[string]any{"code": "B"}}); r.Status != 200 {
			t.Fatalf("update fr: %d %s", r.Status, r.Body)
		}
		if d := e.Do("GET", "/api/pages/"+id+"?status=draft", nil).Data(); d["code"] != "B" || d["title"] != "Hello" {
			t.Fatalf("en draft: %v", d)
		}
		// The published English version changes when English is published.
		if d := e.Do("GET", "/api/pages/"+id, nil).Data(); d["code"] != "A" {
			t.Fatalf("en published before its publish: %v", d)
		}
		e.Do("PUT", "/api/pages/"+id, map[string]any{"data": map[string]any{"title": "Hello again"}})
		if d := e.Do("GET", "/api/pages/"+id, nil).Data(); d["code"] != "B" || d["title"] != "Hello again" {
			t.Fatalf("en published: %v", d)
		}
		// A localized attribute stays per locale.
		if d := e.Do("GET", "/api/pages/"+id+"?locale=fr&status=draft", nil).Data(); d["title"] != "Bonjour" {
			t.Fatalf("fr title: %v", d)
		}
	})
}

// Non-localized components and zones are copied to a new locale and kept
// equal in every locale, each locale with items (and ids) of its own.
func TestSharedComponentsFollowEveryLocale(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := openFixture(t, db)
		en := e.Do("POST", "/api/pages?status=draft", map[string]any{"data": map[string]any{"title": "Hello",
			"cta": map[string]any{"label": "Go"}, "ctas": []any{map[string]any{"label": "One"}, map[string]any{"label": "Two"}},
			"sections": []any{map[string]any{"__component": "blocks.cta", "label": "Zone"}}}})
		if en.Status != 201 {
			t.Fatalf("create: %d %s", en.Status, en.Body)
		}
		id := en.Data()["documentId"].(string)
		labels := func(d map[string]any) string {
			out := []string{}
			if c, _ := d["cta"].(map[string]any); c != nil {
				out = append(out, c["label"].(string))
			}
			for _, k := range []string{"ctas", "sections"} {
				list, _ := d[k].([]any)
				for _, it := range list {
					out = append(out, it.(map[string]any)["label"].(string))
				}
			}
			return strings.Join(out, ",")
		}
		const pop = "&populate[cta]=true&populate[ctas]=true&populate[sections]=true"
		fr := e.Do("PUT", "/api/pages/"+id+"?locale=fr&status=draft"+pop, map[string]any{"data": map[string]any{"title": "Bonjour"}})
		if fr.Status != 200 || labels(fr.Data()) != "Go,One,Two,Zone" {
			t.Fatalf("fr copied: %d %s", fr.Status, fr.Body)
		}
		enCta := e.Do("GET", "/api/pages/"+id+"?status=draft"+pop, nil).Data()["cta"].(map[string]any)
		if frCta := fr.Data()["cta"].(map[string]any); frCta["id"] == nil {
			t.Fatalf("fr cta without an id: %v", frCta)
		}
		// Changed in English (an item updated by its id, one added): French follows.
		firstID := e.Do("GET", "/api/pages/"+id+"?status=draft"+pop, nil).Data()["ctas"].([]any)[0].(map[string]any)["id"]
		r := e.Do("PUT", "/api/pages/"+id+"?status=draft"+pop, map[string]any{"data": map[string]any{
			"cta": map[string]any{"id": enCta["id"], "label": "Go now"}, "ctas": []any{map[string]any{"id": firstID, "label": "Uno"}, map[string]any{"label": "Tres"}}}})
		if r.Status != 200 || labels(r.Data()) != "Go now,Uno,Tres,Zone" {
			t.Fatalf("update en: %d %s", r.Status, r.Body)
		}
		if d := e.Do("GET", "/api/pages/"+id+"?locale=fr&status=draft"+pop, nil).Data(); labels(d) != "Go now,Uno,Tres,Zone" || d["title"] != "Bonjour" {
			t.Fatalf("fr after the update: %v", d)
		}
	})
}
