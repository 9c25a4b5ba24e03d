package adminui_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// TestBuilderLocalesAndDrafts: a component and a localized type with a
// repeatable component and a dynamic zone made in the builder; a document
// published, modified, its changes discarded; its French translation; the
// list in French; the type deleted with its content after a warning.
func TestBuilderLocalesAndDrafts(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	testenv.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		dir := t.TempDir()
		_ = os.MkdirAll(filepath.Join(dir, "src"), 0o755)
		// (testenv sets the engine's configuration itself.)
		env, p, admin := loggedIn(t, dbURL(t), testenv.Options{Dir: dir, Config: engine.Config{Locales: []string{"en", "fr"}, DefaultLocale: "en"}})

		p.click("Content-Type Builder")
		p.click("Create new component")
		p.fill("Display name", "Link")
		p.click("Add another field")
		p.fill("Name", "url")
		p.click("Finish")
		p.clickToast("Save", "live now")
		p.wait(`location.pathname.endsWith('/components/shared.link')`, "the component's page")

		p.click("Create new collection type")
		p.fill("Display name", "Page")
		p.check("Localized (i18n)")
		p.click("Add another field")
		p.fill("Name", "title")
		p.click("Finish")
		p.click("Add another field")
		p.fill("Name", "links")
		p.choose("Type", "component")
		p.check("Repeatable")
		p.click("Finish")
		p.click("Add another field")
		p.fill("Name", "sections")
		p.choose("Type", "dynamiczone")
		p.check("shared.link")
		p.click("Finish")
		p.clickToast("Save", "live now")
		p.wait(`location.pathname.endsWith('/content-types/api::page.page')`, "the type's page")

		// Draft, publish, modify, discard.
		p.click("Open in the Content Manager")
		p.click("Create new entry")
		p.fill("title", "Hello")
		p.click("Add an entry to links")
		p.js(`const i = document.querySelector('[data-path="links.0.url"] input'); i.value = '/a'; i.dispatchEvent(new Event('input', {bubbles: true})); return 1`)
		p.click("Add a component")
		p.clickToast("Publish", "Published")
		p.wait(`document.querySelector('.badge.published')`, "Published")
		id := p.js(`return location.pathname.split('/').pop()`)
		p.fill("title", "Hello again")
		p.clickToast("Save", "Saved")
		p.wait(`document.querySelector('.badge.modified')`, "Modified")
		p.clickToast("Discard changes", "Draft discarded")
		p.wait(`__ctl('title').value === 'Hello'`, "the published title back in the draft")
		r := env.Do("GET", "/admin/content-manager/collection-types/api::page.page/"+id+"?status=draft&populate=*", nil, admin...)
		if r.Status != 200 || r.Data()["title"] != "Hello" || len(r.Data()["links"].([]any)) != 1 || len(r.Data()["sections"].([]any)) != 1 {
			t.Fatalf("after discard: %d %s", r.Status, r.Body)
		}

		p.clickToast("Unpublish", "Unpublished")
		p.wait(`document.querySelector('.badge.draft')`, "Draft after unpublish")
		if r := env.Do("GET", "/admin/content-manager/collection-types/api::page.page/"+id+"?status=published", nil, admin...); r.Status != 404 {
			t.Errorf("published after unpublish: %d %s", r.Status, r.Body)
		}

		// The French translation, from the edit view's locale switcher.
		p.choose("Locale", "fr")
		p.waitText("Translate into fr")
		p.fill("title", "Bonjour")
		p.clickToast("Save", "Saved")
		r = env.Do("GET", "/admin/content-manager/collection-types/api::page.page/"+id+"?status=draft&locale=fr", nil, admin...)
		if r.Status != 200 || r.Data()["title"] != "Bonjour" {
			t.Fatalf("fr: %d %s", r.Status, r.Body)
		}
		p.click("← Back to Page")
		p.waitText("Hello")
		p.choose("Locale", "fr")
		p.waitText("Bonjour")
		p.wait(`!document.body.innerText.includes('Hello')`, "only the French entry")

		// Renaming a field keeps its values (renamedFrom).
		p.click("Content-Type Builder")
		p.click("Page")
		p.click("Edit the field title")
		p.fill("Name", "heading")
		p.click("Finish")
		p.clickToast("Save", "live now")
		r = env.Do("GET", "/admin/content-manager/collection-types/api::page.page/"+id+"?status=draft", nil, admin...)
		if r.Status != 200 || r.Data()["heading"] != "Hello" {
			t.Fatalf("after the rename: %d %s", r.Status, r.Body)
		}

		// Deleting a type that holds documents asks first.
		p.click("Delete the type")
		p.click("Delete") // the first confirmation
		p.waitText("This deletes content")
		p.clickToast("Delete anyway", "Deleted")
		if _, ok := env.Engine.CollectionByUID("api::page.page"); ok {
			t.Error("the type is still live")
		}
	})
}
