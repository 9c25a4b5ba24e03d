package adminui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// The browser tests drive the panel in headless Chromium (from the OS
// packages: apt-get install chromium). One browser serves every test of the
// binary; each test has its own tab on its own server (so its own origin and
// sessionStorage). STRATUM_SCREENSHOTS=DIR writes the main screens there
// (docs/screenshots in the repository).

var browser context.Context

func TestMain(m *testing.M) {
	path := chromiumPath()
	if path == "" {
		fmt.Println("adminui: browser tests skipped: no Chromium (apt-get install chromium)")
		os.Exit(m.Run())
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 860))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	// Start the browser once, now.
	if err := chromedp.Do(bctx); err != nil {
		fmt.Println("adminui: browser tests skipped: Chromium does not start:", err)
		cancelB()
		cancelA()
		os.Exit(m.Run())
	}
	browser = bctx
	code := m.Run()
	cancelB()
	cancelA()
	os.Exit(code)
}

func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// tab is one browser tab on one server.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
}

func newTab(t *testing.T, base string) *tab {
	t.Helper()
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	p := &tab{t: t, ctx: ctx, base: base}
	// Uncaught errors of the page fail the test.
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() {
				t.Errorf("page exception: %s (%s:%d)", m, m.URL, m.Line+1)
			}
		}
	}()
	p.do(chromedp.EmulateViewport(1280, 860))
	return p
}

func (p *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v\npage: %s", err, p.text())
	}
}

func (p *tab) text() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if len(s) > 1500 {
		s = s[:1500]
	}
	return s
}

func (p *tab) open(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + path))
	p.settle()
}

// js runs an expression with the test helpers defined.
func (p *tab) js(expr string) string {
	p.t.Helper()
	out, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](helpers+`String((()=>{`+expr+`})())`))
	if err != nil {
		p.t.Fatalf("js %s: %v\npage: %s", expr, err, p.text())
	}
	return out
}

const helpers = `
var __vis = el => !!(el && (el.offsetWidth || el.offsetHeight || el.getClientRects().length));
var __ctl = label => {
  const l = [...document.querySelectorAll('label')].find(l => __vis(l) && l.firstChild && l.firstChild.textContent.trim() === label);
  return l ? document.getElementById(l.htmlFor)
    : [...document.querySelectorAll('input, select, textarea, [contenteditable]')].find(c => __vis(c) && c.getAttribute('aria-label') === label);
};
var __btn = text => [...document.querySelectorAll('button, a, label.button')].reverse().find(b => __vis(b) && (b.textContent.trim() === text || b.getAttribute('aria-label') === text));
`

// wait polls a JS condition.
func (p *tab) wait(cond, what string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if p.js(`return !!(`+cond+`)`) == "true" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("waited for %s\npage: %s", what, p.text())
}

func (p *tab) waitText(s string) {
	p.t.Helper()
	b, _ := json.Marshal(s)
	p.wait(`document.body.innerText.includes(`+string(b)+`)`, "the text "+s)
}

// fill types into the control labelled label (keys, as a user would).
func (p *tab) fill(label, value string) {
	p.t.Helper()
	b, _ := json.Marshal(label)
	p.wait(`__ctl(`+string(b)+`)`, "the field "+label)
	id := p.js(`const c = __ctl(` + string(b) + `); if (c.isContentEditable) c.textContent = ''; else c.value = ''; if (!c.id) c.id = 't-' + Math.random().toString(36).slice(2); return c.id`)
	p.do(chromedp.SendKeys(chromedp.ID(id), value))
}

func (p *tab) choose(label, value string) {
	p.t.Helper()
	l, _ := json.Marshal(label)
	v, _ := json.Marshal(value)
	p.wait(`__ctl(`+string(l)+`)`, "the field "+label)
	p.js(`const c = __ctl(` + string(l) + `); c.value = ` + string(v) + `; c.dispatchEvent(new Event('change', {bubbles: true})); return c.value`)
}

func (p *tab) check(label string) {
	p.t.Helper()
	l, _ := json.Marshal(label)
	p.wait(`[...document.querySelectorAll('label.check')].find(x => x.textContent.trim() === `+string(l)+`)`, "the checkbox "+label)
	p.js(`const x = [...document.querySelectorAll('label.check')].find(x => x.textContent.trim() === ` + string(l) + `).querySelector('input'); if (!x.checked) x.click(); return x.checked`)
}

// click clicks the button or link named text, once it is there and
// enabled (found and clicked in one step: the page may re-render between
// two).
func (p *tab) click(text string) {
	p.t.Helper()
	b, _ := json.Marshal(text)
	p.wait(`(() => { const b = __btn(`+string(b)+`); if (!b || b.disabled) return false; b.click(); return true })()`, "the button "+text)
	p.settle() // a link draws its screen
}

// clickToast clicks and waits for the toast the action shows.
func (p *tab) clickToast(button, toast string) {
	p.t.Helper()
	p.js(`document.querySelectorAll('.toast').forEach(t => t.remove()); return 1`)
	p.click(button)
	b, _ := json.Marshal(toast)
	p.wait(`[...document.querySelectorAll('.toast')].some(t => t.textContent.includes(`+string(b)+`))`, "the message "+toast)
	p.settle()
}

// settle waits for the screen to be drawn.
func (p *tab) settle() {
	p.t.Helper()
	p.wait(`!document.body.dataset.busy`, "the screen to be drawn")
}

// labelled fails the test for any control of the screen without a label.
func (p *tab) labelled(screen string) {
	p.t.Helper()
	got := p.js(`return [...document.querySelectorAll('input, select, textarea, [contenteditable]')].filter(c =>
		!(c.labels && c.labels.length) && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby')
	).map(c => c.outerHTML.slice(0, 80)).join(' | ')`)
	if got != "" {
		p.t.Errorf("%s: controls without a label: %s", screen, got)
	}
}

func (p *tab) shot(name string) {
	p.t.Helper()
	p.labelled(name)
	dir := os.Getenv("STRATUM_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.js(`document.querySelectorAll('.toast').forEach(t => t.remove()); return 1`)
	time.Sleep(150 * time.Millisecond) // let images settle
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func pngFile(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	for y := 0; y < 200; y++ {
		for x := 0; x < 320; x++ {
			img.Set(x, y, color.RGBA{uint8(73 + x/4), uint8(69 + y/3), 255, 255})
		}
	}
	path := filepath.Join(t.TempDir(), "cover.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPanelFlows walks the panel as a new team would: the first admin
// registers, designs a type in the builder, uploads an image, writes a
// document with it in the Content Manager, publishes it, and issues an API
// token that then reads the document from /api.
func TestPanelFlows(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	testenv.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		env := testenv.Start(t, dbURL(t), testenv.Options{Dir: dir})
		p := newTab(t, env.URL)

		// First run: no admin yet, so the registration form.
		p.open("/admin")
		p.waitText("Create the first administrator account")
		if got := p.js(`return location.pathname`); got != "/admin/auth/register-admin" {
			t.Errorf("first run path = %s", got)
		}
		p.shot("register")
		p.fill("First name", "Ada")
		p.fill("Email", "ada@example.com")
		p.fill("Password", "weak")
		p.fill("Confirm password", "weak")
		p.click("Let's start")
		p.waitText("Password") // the server's refusal is shown
		p.wait(`document.querySelector('.auth-form .error').textContent.length > 0`, "the error of a weak password")
		p.fill("Password", "Sup3r-secret")
		p.fill("Confirm password", "Sup3r-secret")
		p.click("Let's start")
		p.waitText("Welcome, Ada")
		// The JWT is never in a URL; it is in sessionStorage.
		if u := p.js(`return location.href`); strings.Contains(u, "eyJ") {
			t.Errorf("JWT in URL: %s", u)
		}
		for _, n := range []string{"Content Manager", "Content-Type Builder", "Media Library", "API Tokens", "Roles", "Webhooks"} {
			p.wait(`[...document.querySelectorAll('#nav a')].some(a => a.textContent === `+fmt.Sprintf("%q", n)+`)`, "the nav link "+n)
		}

		// Log out, log in again with the keyboard (Enter submits).
		p.click("Log out")
		p.waitText("Log in to your admin account")
		p.fill("Email", "ada@example.com")
		p.shot("login")
		p.fill("Password", "Sup3r-secret\r")
		p.waitText("Welcome, Ada")
		p.shot("home")

		// The builder: a collection type "Article" with a required title
		// and a cover image.
		p.click("Content-Type Builder")
		p.waitText("Design your content-types")
		p.click("Create new collection type")
		p.fill("Display name", "Article")
		p.click("Add another field")
		p.labelled("the field dialog")
		p.fill("Name", "title")
		p.check("Required")
		p.click("Finish")
		p.click("Add another field")
		p.fill("Name", "cover")
		p.choose("Type", "media")
		p.click("Finish")
		p.click("Add another field")
		p.fill("Name", "slug")
		p.choose("Type", "uid")
		p.choose("Attached field", "title")
		p.click("Finish")
		p.clickToast("Save", "live now on every node")
		p.wait(`location.pathname === '/admin/plugins/content-type-builder/content-types/api::article.article'`, "the new type's page")
		p.shot("content-type-builder")
		if _, ok := env.Engine.CollectionByUID("api::article.article"); !ok {
			t.Fatal("the type is not live")
		}

		// The media library: upload an image.
		p.click("Media Library")
		p.waitText("No asset yet")
		p.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{pngFile(t)}))
		p.waitText("1 file uploaded")
		p.waitText("cover.png")
		p.shot("media-library")

		// The Content Manager: a document with the image, validation on
		// publish, then publish.
		p.click("Content Manager")
		p.click("Article")
		p.waitText("No entry found")
		p.click("Create new entry")
		p.waitText("Create an entry")
		p.click("Choose from the library")
		p.labelled("the media picker")
		p.click("Select cover.png")
		p.click("Finish")
		p.wait(`document.querySelector('.thumbs img')`, "the chosen image")
		p.click("Publish") // without the required title
		p.wait(`document.querySelector('[data-path="title"] .field-error').textContent !== ''`, "the title's error")
		p.fill("title", "Hello Stratum")
		p.click("Regenerate slug from title")
		if got := p.js(`return __ctl('slug').value`); got != "hello-stratum" {
			t.Errorf("slug = %q", got)
		}
		p.clickToast("Save", "Saved")
		p.wait(`/collection-types\/api::article.article\/[a-z0-9]{24}$/.test(location.pathname)`, "the document's page")
		p.wait(`document.querySelector('.badge.draft')`, "the draft status of a saved document")
		p.shot("edit-view")
		p.clickToast("Publish", "Published")
		p.wait(`document.querySelector('.badge.published')`, "the published status")
		p.click("← Back to Article")
		p.waitText("Hello Stratum")
		p.wait(`document.querySelector('td .badge.published')`, "the published badge in the list")
		if n := p.js(`return document.querySelectorAll('tbody tr').length`); n != "1" {
			t.Errorf("the list has %s rows, want the one document (a refused publish must not create a second)", n)
		}
		p.shot("content-manager")

		// Settings: an API token, shown once, that reads /api.
		p.click("API Tokens")
		p.click("Create new API Token")
		p.fill("Name", "site build")
		p.choose("Token type", "read-only")
		p.click("Save")
		p.wait(`document.getElementById('new-token')`, "the new token")
		token := p.js(`return document.getElementById('new-token').textContent`)
		p.shot("api-token")
		req, _ := http.NewRequest("GET", env.URL+"/api/articles?populate=cover", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Data []struct {
				Title string `json:"title"`
				Slug  string `json:"slug"`
				Cover *struct {
					Name string `json:"name"`
				} `json:"cover"`
			} `json:"data"`
		}
		_ = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != 200 || len(body.Data) != 1 || body.Data[0].Title != "Hello Stratum" || body.Data[0].Slug != "hello-stratum" ||
			body.Data[0].Cover == nil || body.Data[0].Cover.Name != "cover.png" {
			t.Fatalf("GET /api/articles with the new token: %d %+v", res.StatusCode, body)
		}

		// Roles: the matrix lists the new type.
		p.click("Roles")
		p.click("Public")
		p.wait(`document.querySelector('input[aria-label="find on Article"]')`, "the matrix row of Article")
		p.shot("roles")

		// Phone width: the menu button opens the navigation.
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		p.open("/admin/content-manager/collection-types/api::article.article")
		p.waitText("Hello Stratum")
		p.wait(`!__vis(document.getElementById('nav'))`, "the navigation folded away")
		if w := p.js(`return document.documentElement.scrollWidth + ' ' + innerWidth`); w != "390 390" {
			t.Errorf("the page is wider than the phone (scroll width, window): %s", w)
		}
		p.click("Menu")
		p.wait(`__vis(document.getElementById('nav'))`, "the navigation opened")
		p.click("Menu")
		p.shot("phone")
	})
}
