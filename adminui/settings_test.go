package adminui_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// loggedIn starts the blog with an admin and a tab logged in as them.
func loggedIn(t *testing.T, dbURL string, o testenv.Options) (*testenv.Env, *tab, []string) {
	t.Helper()
	env := testenv.Start(t, dbURL, o)
	r := env.Do("POST", "/admin/register-admin", map[string]any{"email": "ed@example.com", "password": "Sup3r-secret", "firstname": "Ed"})
	if r.Status != 200 {
		t.Fatalf("register-admin: %d %s", r.Status, r.Body)
	}
	p := newTab(t, env.URL)
	p.open("/admin")
	p.fill("Email", "ed@example.com")
	p.fill("Password", "Sup3r-secret\r")
	p.waitText("Welcome, Ed")
	p.settle()
	return env, p, []string{"Authorization", "Bearer " + r.Data()["token"].(string)}
}

func apiStatus(t *testing.T, method, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(`{"data":{"name":"x"}}`))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestListKeyboardAndSettings: the list pages, sorts, searches and filters
// on the server; the keyboard reaches the navigation; a custom API token is
// made from the matrix, regenerated and revoked; a role loses a permission;
// a webhook is made and triggered; a file is described and deleted.
func TestListKeyboardAndSettings(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	testenv.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		env, p, admin := loggedIn(t, dbURL(t), testenv.Options{})

		// Keyboard: each screen focuses its heading, so Tab goes on from
		// there (here: the first card), and Enter follows a link.
		if got := p.js(`return document.activeElement.tagName + ' ' + document.activeElement.textContent`); got != "H1 Welcome, Ed" {
			t.Errorf("focus after the login: %q", got)
		}
		p.do(chromedp.KeyEvent("\t"))
		if got := p.js(`return document.activeElement.textContent`); !strings.HasPrefix(got, "Content Manager") {
			t.Errorf("tab stop after the heading: %q", got)
		}
		p.do(chromedp.KeyEvent("\r"))
		p.settle()
		p.wait(`location.pathname === '/admin/content-manager' && document.activeElement.tagName === 'H1'`, "Content Manager opened from the keyboard, its heading focused")
		// The skip link is the first stop of the page.
		if got := p.js(`return document.querySelector('a[href], button, input, select, textarea').textContent`); got != "Skip to content" {
			t.Errorf("first focusable: %q", got)
		}

		// 25 articles: pages of 10, sorted, searched, filtered by the server.
		for i := 1; i <= 25; i++ {
			if r := env.Do("POST", "/admin/content-manager/collection-types/api::article.article?status=draft",
				map[string]any{"data": map[string]any{"title": fmt.Sprintf("Article %02d", i), "views": i}}, admin...); r.Status != 201 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
		}
		p.click("Article")
		p.waitText("25 entries · page 1 of 3")
		p.click("Sort on title ascending")
		p.wait(`document.querySelector('tbody tr td:nth-child(2)').textContent === 'Article 01'`, "the first title ascending")
		p.click("Next")
		p.waitText("page 2 of 3")
		p.wait(`document.querySelector('tbody tr td:nth-child(2)').textContent === 'Article 11'`, "page 2 ascending")
		p.fill("Search", "article 1\r")
		p.waitText("10 entries · page 1 of 1")
		p.settle()
		p.choose("Filter on", "views")
		p.choose("Operator", "$gt")
		p.fill("Value", "15")
		p.click("Add filter")
		p.waitText("4 entries") // 16..19
		p.click("Remove filter on views")
		p.waitText("10 entries")
		if q := p.js(`return location.search`); !strings.Contains(q, "q=article+1") && !strings.Contains(q, "q=article%201") {
			t.Errorf("the list's state is not in its URL: %s", q)
		}

		// A custom token from the matrix: find on articles only.
		p.click("API Tokens")
		p.click("Create new API Token")
		p.labelled("a new API token")
		p.fill("Name", "reader")
		p.choose("Token type", "custom")
		p.js(`document.querySelector('input[aria-label="find on Article"]').click(); return 1`)
		p.click("Save")
		p.wait(`document.getElementById('new-token')`, "the token")
		tok1 := p.js(`return document.getElementById('new-token').textContent`)
		if s := apiStatus(t, "GET", env.URL+"/api/articles", tok1); s != 200 {
			t.Errorf("custom token find: %d", s)
		}
		if s := apiStatus(t, "POST", env.URL+"/api/tags", tok1); s != 403 {
			t.Errorf("custom token create tag: %d", s)
		}
		p.click("Regenerate")
		p.click("Regenerate") // the confirmation
		p.wait(`document.getElementById('new-token') && document.getElementById('new-token').textContent !== `+fmt.Sprintf("%q", tok1), "the new token")
		tok2 := p.js(`return document.getElementById('new-token').textContent`)
		if s := apiStatus(t, "GET", env.URL+"/api/articles", tok1); s != 401 {
			t.Errorf("old token after regenerate: %d", s)
		}
		if s := apiStatus(t, "GET", env.URL+"/api/articles", tok2); s != 200 {
			t.Errorf("new token: %d", s)
		}
		p.click("Revoke")
		p.clickToast("Revoke", "Token revoked")
		p.waitText("No API token yet")
		if s := apiStatus(t, "GET", env.URL+"/api/articles", tok2); s != 401 {
			t.Errorf("revoked token: %d", s)
		}

		// Roles: Public loses find on Tag.
		if s := apiStatus(t, "GET", env.URL+"/api/tags", ""); s != 200 {
			t.Fatalf("public tags before: %d", s)
		}
		p.click("Roles")
		p.click("Public")
		p.wait(`document.querySelector('input[aria-label="find on Tag"]').checked`, "Public's find on Tag")
		p.js(`document.querySelector('input[aria-label="find on Tag"]').click(); return 1`)
		p.clickToast("Save", "Saved")
		if s := apiStatus(t, "GET", env.URL+"/api/tags", ""); s != 403 {
			t.Errorf("public tags after: %d", s)
		}

		// A custom role.
		p.click("← Back to Roles")
		p.click("Add new role")
		p.fill("Name", "Editors")
		p.js(`document.querySelector('input[aria-label="All actions on Article"]').click(); return 1`)
		p.clickToast("Save", "Saved")
		p.click("← Back to Roles")
		p.waitText("Editors")
		if r := env.Do("GET", "/admin/users-permissions/roles", nil, admin...); !strings.Contains(string(r.Body), `"api::article.article.delete"`) {
			t.Errorf("the new role: %s", r.Body)
		}

		// Webhooks: made here, triggered to a receiver.
		var got atomic.Int32
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if r.Header.Get("X-Team") == "site" {
				got.Add(1)
			}
		}))
		t.Cleanup(recv.Close)
		p.click("Webhooks")
		p.click("Create new webhook")
		p.labelled("a new webhook")
		p.fill("Name", "site build")
		p.fill("URL", recv.URL)
		p.click("Add a header")
		p.fill("Header 1 name", "X-Team")
		p.fill("Header 1 value", "site")
		p.check("entry.publish")
		p.clickToast("Save", "Saved")
		p.wait(`/\/admin\/settings\/webhooks\/\d+$/.test(location.pathname)`, "the webhook's page")
		p.clickToast("Trigger", "Test event sent")
		deadline := time.Now().Add(10 * time.Second)
		for got.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if got.Load() == 0 {
			t.Error("the triggered webhook never arrived with its header")
		}
		p.click("← Back to Webhooks")
		p.waitText(recv.URL)

		// Media: describe a file, then delete it.
		p.click("Media Library")
		p.do(chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{pngFile(t)}))
		p.waitText("1 file uploaded")
		p.settle()
		p.click("Edit cover.png")
		p.fill("Alternative text", "A gradient")
		p.clickToast("Finish", "Saved")
		if r := env.Do("GET", "/admin/upload/files/1", nil, admin...); !strings.Contains(string(r.Body), `"alternativeText":"A gradient"`) {
			t.Errorf("file after edit: %s", r.Body)
		}
		// Several files dropped at once, each with its progress.
		p.js(`const dt = new DataTransfer();
			dt.items.add(new File(['one'], 'one.txt', {type: 'text/plain'}));
			dt.items.add(new File(['two'], 'two.txt', {type: 'text/plain'}));
			document.querySelector('.dropzone').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
			return document.querySelectorAll('.progress-list progress').length`)
		p.waitText("2 files uploaded")
		p.settle()
		p.waitText("3 assets")
		p.fill("Search assets", "TWO\r")
		p.waitText("1 asset")
		p.wait(`!document.body.innerText.includes('one.txt') && document.body.innerText.includes('two.txt')`, "only two.txt")
		p.fill("Search assets", "\r")
		p.waitText("3 assets")
		p.click("List")
		p.waitText("image/png")
		p.waitText("two.txt")
		p.click("Delete cover.png")
		p.clickToast("Delete", "Deleted")
		p.waitText("2 assets")
		if r := env.Do("GET", "/admin/upload/files/1", nil, admin...); r.Status != 404 {
			t.Errorf("deleted file: %d", r.Status)
		}
	})
}

// The panel logs out when the admin JWT expires.
func TestSessionExpires(t *testing.T) {
	if browser == nil {
		t.Skip("no Chromium: apt-get install chromium to run the browser tests")
	}
	_, p, _ := loggedIn(t, testenv.Databases(t)["sqlite"](t), testenv.Options{Auth: auth.Config{AdminJWTExpiresIn: 3 * time.Second}})
	p.waitText("Your session has expired")
	p.waitText("Log in to your admin account")
	if v := p.js(`return sessionStorage.length`); v != "0" {
		t.Errorf("sessionStorage after expiry holds %s items", v)
	}
}
