package adminui_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// selectText selects the characters [from, to) of the text node of block
// n's editor that holds needle (from and to counted in that text node).
func (p *tab) selectText(block int, needle string, from, to int) {
	p.t.Helper()
	n, _ := json.Marshal(needle)
	got := p.js(`const el = document.querySelector('[aria-label="Block ` + itoa(block) + ` text"]');
		const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		let t; while ((t = w.nextNode()) && !t.data.includes(` + string(n) + `));
		if (!t) return 'no text ' + ` + string(n) + `;
		el.focus();
		const r = document.createRange(); r.setStart(t, ` + itoa(from) + `); r.setEnd(t, ` + itoa(to) + `);
		getSelection().removeAllRanges(); getSelection().addRange(r);
		return 'selected:' + getSelection().toString()`)
	if !strings.HasPrefix(got, "selected:") {
		p.t.Fatalf("select %q in block %d: %s", needle, block, got)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestBlocksEditor edits a word of a block that holds marks and a link,
// bolds a selection, links a word, pastes HTML (which arrives as plain
// text), and reads the blocks back from /api: the untouched text keeps its
// marks and link, and nothing else changed.
func TestBlocksEditor(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	testenv.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		env := testenv.Start(t, dbURL(t), testenv.Options{})
		r := env.Do("POST", "/admin/register-admin", map[string]any{"email": "ed@example.com", "password": "Sup3r-secret", "firstname": "Ed"})
		if r.Status != 200 {
			t.Fatalf("register-admin: %d %s", r.Status, r.Body)
		}
		admin := []string{"Authorization", "Bearer " + r.Data()["token"].(string)}
		const col = "/admin/content-manager/collection-types/api::article.article"
		var content []any
		_ = json.Unmarshal([]byte(`[
			{"type":"paragraph","children":[
				{"type":"text","text":"Hello plain "},
				{"type":"text","text":"world","bold":true},
				{"type":"text","text":" and "},
				{"type":"link","url":"https://example.com/x","children":[{"type":"text","text":"a link","italic":true}]},
				{"type":"text","text":"."}]},
			{"type":"heading","level":2,"children":[{"type":"text","text":"Title","underline":true},{"type":"text","text":" struck","strikethrough":true}]},
			{"type":"quote","children":[{"type":"text","text":"A quote with "},{"type":"text","text":"code","code":true}]},
			{"type":"list","format":"ordered","children":[
				{"type":"list-item","children":[{"type":"text","text":"one","bold":true,"italic":true}]},
				{"type":"list-item","children":[{"type":"link","url":"/about","children":[{"type":"text","text":"two"}]}]}]},
			{"type":"code","language":"go","children":[{"type":"text","text":"x := 1\ny := 2"}]},
			{"type":"list","format":"unordered","children":[
				{"type":"list-item","children":[{"type":"text","text":"outer"}]},
				{"type":"list","format":"unordered","indentLevel":1,"children":[{"type":"list-item","children":[{"type":"text","text":"inner","bold":true}]}]}]}
		]`), &content)
		r = env.Do("POST", col, map[string]any{"data": map[string]any{"title": "Blocks", "content": content}}, admin...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)

		p := newTab(t, env.URL)
		p.open("/admin")
		p.waitText("Log in to your admin account")
		p.fill("Email", "ed@example.com")
		p.fill("Password", "Sup3r-secret\r")
		p.waitText("Welcome, Ed")
		p.open("/admin/content-manager/collection-types/api::article.article/" + id)
		p.wait(`__ctl('Block 1 text')`, "the blocks editor")
		// Marks and links are drawn as elements, values as text.
		if got := p.js(`const e = __ctl('Block 1 text'); return [e.querySelector('strong').textContent, e.querySelector('a em').textContent, e.querySelector('a').getAttribute('href'),
			__ctl('Block 2 text').querySelector('u').textContent, __ctl('Block 2 text').querySelector('s').textContent, __ctl('Block 3 text').querySelector('code').textContent,
			__ctl('Block 4 text').tagName, __ctl('Block 4 text').querySelector('li strong em, li em strong').textContent, __ctl('Block 5 text').textContent].join('|')`); got != "world|a link|https://example.com/x|Title| struck|code|OL|one|x := 1\ny := 2" {
			t.Errorf("the blocks as drawn: %q", got)
		}
		p.labelled("the blocks editor")
		// A nested list is drawn flat, its items with their level.
		if got := p.js(`return [...__ctl('Block 6 text').children].map(li => li.dataset.level + ':' + li.textContent).join('|')`); got != "0:outer|1:inner" {
			t.Errorf("the nested list as drawn: %q", got)
		}

		// Type over a word, as a user would.
		p.selectText(1, "Hello", 0, 5)
		p.do(chromedp.KeyEvent("Hi"))
		p.wait(`__ctl('Block 1 text').textContent.startsWith('Hi plain world')`, "the typed word")
		// Bold a selection next to bold text (the two merge).
		p.selectText(1, "Hi plain", 3, 9)
		p.click("Bold in block 1")
		p.wait(`__ctl('Block 1 text').querySelector('strong').textContent === 'plain world'`, "the new bold text")
		p.wait(`__btn('Bold in block 1').getAttribute('aria-pressed') === 'true'`, "the Bold button pressed on bold text")
		p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait(`__ctl('Block 1 text').querySelector('strong').textContent === 'world'`, "the bold mark undone")
		p.do(chromedp.KeyEvent("y", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait(`__ctl('Block 1 text').querySelector('strong').textContent === 'plain world'`, "the bold mark redone")
		// Link a word: a javascript: URL is refused, a path is taken.
		p.selectText(1, "Hi ", 0, 2)
		p.click("Link in block 1")
		p.fill("URL", "javascript:alert(1)")
		p.click("Apply")
		p.waitText("A link is http://, https://, mailto: or a path")
		p.fill("URL", "/hi")
		p.click("Apply")
		p.wait(`__ctl('Block 1 text').querySelector('a[href="/hi"]') && __ctl('Block 1 text').querySelector('a[href="/hi"]').textContent === 'Hi'`, "the new link")

		// Paste: HTML from the clipboard arrives as plain text.
		p.click("Add a block")
		p.wait(`__ctl('Block 7 text') && document.activeElement === __ctl('Block 7 text')`, "the new block, focused")
		p.js(`const dt = new DataTransfer();
			dt.setData('text/html', '<b>Pasted</b> <a href="https://evil.example/">bold</a><img src=x onerror="window.__pwned=1">');
			dt.setData('text/plain', 'Pasted bold\nand more');
			document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); return 1`)
		p.wait(`__ctl('Block 7 text').innerText.trim() === 'Pasted bold\nand more'`, "the pasted text")
		if got := p.js(`return (window.__pwned || 0) + ' ' + __ctl('Block 7 text').querySelectorAll('b, a, img, strong').length`); got != "0 0" {
			t.Errorf("pasted HTML became elements: %s", got)
		}
		// The block type: the pasted lines become a bulleted list.
		p.setValue("Block 7 type", "list-unordered")
		p.wait(`__ctl('Block 7 text').tagName === 'UL' && __ctl('Block 7 text').children.length === 2`, "the list of two items")
		// The keyboard: Ctrl+I italicises the selection; Enter at the end
		// of a block starts a new paragraph after it.
		p.selectText(3, "A quote", 0, 7)
		p.do(chromedp.KeyEvent("i", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait(`__ctl('Block 3 text').querySelector('em') && __ctl('Block 3 text').querySelector('em').textContent === 'A quote'`, "the italic text")
		p.selectText(1, ".", 1, 1)
		p.do(chromedp.KeyEvent("\r"))
		p.wait(`document.activeElement === __ctl('Block 2 text') && __ctl('Block 8 text')`, "the new block after block 1, focused")
		p.do(chromedp.KeyEvent("New"))
		p.wait(`__ctl('Block 2 text').textContent === 'New'`, "the text of the new block")
		// Shift+Enter: a new line in the block.
		p.do(chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierShift)))
		p.do(chromedp.KeyEvent("line"))
		p.wait(`__ctl('Block 2 text').innerText.trim() === 'New\nline' && __ctl('Block 9 text') == null`, "a second line in the block")
		// Undo takes the typing back, redo brings it again.
		p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait(`__ctl('Block 2 text').innerText.trim() === 'New'`, "the typing undone")
		p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl, chromedp.ModifierShift)))
		p.wait(`__ctl('Block 2 text').innerText.trim() === 'New\nline' && document.activeElement === __ctl('Block 2 text')`, "the typing redone")
		// Enter then Backspace: a new block, then joined back.
		p.do(chromedp.KeyEvent("\r"))
		p.wait(`document.activeElement === __ctl('Block 3 text') && __ctl('Block 9 text')`, "a new block after block 2")
		p.do(chromedp.KeyEvent("\b"))
		p.wait(`document.activeElement === __ctl('Block 2 text') && __ctl('Block 9 text') == null`, "the new block joined back")
		p.do(chromedp.KeyEvent("!"))
		p.wait(`__ctl('Block 2 text').innerText.trim() === 'New\nline!'`, "typing where the blocks joined")
		p.do(chromedp.KeyEvent("\b"))
		p.wait(`__ctl('Block 2 text').innerText.trim() === 'New\nline'`, "the typing erased")
		// Enter in a list adds an item.
		p.selectText(8, "and more", 8, 8)
		p.do(chromedp.KeyEvent("\rthird"))
		p.wait(`[...__ctl('Block 8 text').children].map(li => li.textContent).join('|') === 'Pasted bold|and more|third'`, "a third list item")
		// Tab indents an item, Shift+Tab outdents it.
		levels := `[...__ctl('Block 8 text').children].map(li => li.dataset.level).join('')`
		p.do(chromedp.KeyEvent("\t"))
		p.wait(levels+` === '001'`, "the third item indented")
		p.do(chromedp.KeyEvent("\t"))
		p.wait(levels+` === '001'`, "no deeper than one level under the item before")
		p.selectText(8, "and more", 3, 3)
		p.do(chromedp.KeyEvent("\t"))
		p.wait(levels+` === '011'`, "the second item indented")
		p.selectText(8, "third", 5, 5)
		p.do(chromedp.KeyEvent("\t"))
		p.wait(levels+` === '012'`, "the third item two levels deep")
		p.do(chromedp.KeyEvent("\t", chromedp.KeyModifiers(chromedp.ModifierShift)))
		p.wait(levels+` === '011' && document.activeElement === __ctl('Block 8 text')`, "the third item outdented")
		// A code block has no marks: its toolbar is off; undo brings the
		// heading back as it was.
		p.setValue("Block 3 type", "code")
		p.wait(`__ctl('Block 3 text').textContent === 'Title struck' && __btn('Bold in block 3').disabled`, "the heading as a code block, without marks")
		p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait(`__ctl('Block 3 text').querySelector('u') && !__btn('Bold in block 3').disabled`, "the heading back")
		p.labelled("the blocks editor, edited")
		if dir := os.Getenv("STRATUM_SCREENSHOTS"); dir != "" {
			p.js(`__ctl('Block 1 text').closest('fieldset').id = 'blocks-shot'; return 1`)
			buf, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.ID("blocks-shot")))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "blocks-editor.png"), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p.clickToast("Save", "Saved")

		res := env.Do("GET", "/api/articles/"+id+"?status=draft", nil)
		if res.Status != 200 {
			t.Fatalf("GET /api/articles/%s: %d %s", id, res.Status, res.Body)
		}
		got, _ := res.Data()["content"].([]any)
		var first, pasted any
		_ = json.Unmarshal([]byte(`{"type":"paragraph","children":[
				{"type":"link","url":"/hi","children":[{"type":"text","text":"Hi"}]},
				{"type":"text","text":" "},
				{"type":"text","text":"plain world","bold":true},
				{"type":"text","text":" and "},
				{"type":"link","url":"https://example.com/x","children":[{"type":"text","text":"a link","italic":true}]},
				{"type":"text","text":"."}]}`), &first)
		_ = json.Unmarshal([]byte(`{"type":"list","format":"unordered","children":[
				{"type":"list-item","children":[{"type":"text","text":"Pasted bold"}]},
				{"type":"list","format":"unordered","indentLevel":1,"children":[
					{"type":"list-item","children":[{"type":"text","text":"and more"}]},
					{"type":"list-item","children":[{"type":"text","text":"third"}]}]}]}`), &pasted)
		var added, quote any
		_ = json.Unmarshal([]byte(`{"type":"paragraph","children":[{"type":"text","text":"New\nline"}]}`), &added)
		_ = json.Unmarshal([]byte(`{"type":"quote","children":[{"type":"text","text":"A quote","italic":true},{"type":"text","text":" with "},{"type":"text","text":"code","code":true}]}`), &quote)
		want := []any{first, added, content[1], quote, content[3], content[4], content[5], pasted}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			t.Errorf("content after the edit:\n%s\nwant:\n%s", g, w)
		}
	})
}

// TestBlocksImage uploads an image through the API, adds it to the blocks
// from the media library, saves, and reads Strapi's image block back from
// /api.
func TestBlocksImage(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	testenv.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		env := testenv.Start(t, dbURL(t), testenv.Options{})
		r := env.Do("POST", "/admin/register-admin", map[string]any{"email": "ed@example.com", "password": "Sup3r-secret", "firstname": "Ed"})
		if r.Status != 200 {
			t.Fatalf("register-admin: %d %s", r.Status, r.Body)
		}
		admin := []string{"Authorization", "Bearer " + r.Data()["token"].(string)}
		img, _ := os.ReadFile(pngFile(t))
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("files", "cover.png")
		_, _ = fw.Write(img)
		_ = mw.Close()
		if r := env.Do("POST", "/admin/upload", buf.Bytes(), append([]string{"Content-Type", mw.FormDataContentType()}, admin...)...); r.Status != 201 {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		var file map[string]any
		_ = json.Unmarshal(env.Do("GET", "/admin/upload/files/1", nil, admin...).Body, &file)
		const col = "/admin/content-manager/collection-types/api::article.article"
		para := map[string]any{"type": "paragraph", "children": []any{map[string]any{"type": "text", "text": "Before the image"}}}
		r = env.Do("POST", col, map[string]any{"data": map[string]any{"title": "Pictured", "content": []any{para}}}, admin...)
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id := r.Data()["documentId"].(string)

		p := newTab(t, env.URL)
		p.open("/admin")
		p.waitText("Log in to your admin account")
		p.fill("Email", "ed@example.com")
		p.fill("Password", "Sup3r-secret\r")
		p.waitText("Welcome, Ed")
		p.open("/admin/content-manager/collection-types/api::article.article/" + id)
		p.wait(`__ctl('Block 1 text')`, "the blocks editor")
		p.click("Add an image")
		p.waitText("Choose assets")
		p.click("Select cover.png")
		p.click("Finish")
		p.waitText("image block (kept as it is)")
		p.wait(`document.querySelector('.blocks img[alt="cover.png"]') != null`, "the image's preview")
		p.labelled("the blocks editor with an image")
		p.clickToast("Save", "Saved")

		res := env.Do("GET", "/api/articles/"+id+"?status=draft", nil)
		if res.Status != 200 {
			t.Fatalf("GET /api/articles/%s: %d %s", id, res.Status, res.Body)
		}
		got, _ := res.Data()["content"].([]any)
		if len(got) != 2 || !reflect.DeepEqual(got[0], para) {
			t.Fatalf("content: %v", got)
		}
		b, _ := got[1].(map[string]any)
		im, _ := b["image"].(map[string]any)
		if b["type"] != "image" || !reflect.DeepEqual(b["children"], []any{map[string]any{"type": "text", "text": ""}}) || im == nil {
			t.Fatalf("the image block: %v", got[1])
		}
		for _, k := range []string{"name", "url", "width", "height", "hash", "ext", "mime", "size", "formats"} {
			if !reflect.DeepEqual(im[k], file[k]) {
				t.Errorf("image.%s = %v, the file has %v", k, im[k], file[k])
			}
		}
		if im["alternativeText"] != "cover.png" || im["id"] != nil {
			t.Errorf("image: alternativeText %v (want the name), id %v (not kept)", im["alternativeText"], im["id"])
		}
	})
}
