package rest_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/internal/testenv"
)

// Helpers of the auth tests: the blog example with its permissions file
// (find/findOne of every type public), an admin, users and tokens.

const adminEmail, adminPassword = "admin@example.com", "Admin-Passw0rd"

// testClock is a settable clock for expiry and lastUsedAt.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *testClock { return &testClock{t: time.Now().UTC()} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// openBlog starts the blog example with real auth and its permissions file.
func openBlog(t *testing.T, db func(testing.TB) string, o testenv.Options) *testenv.Env {
	t.Helper()
	if o.Auth.RateLimit.Max == 0 && !o.Auth.RateLimit.Disabled {
		o.Auth.RateLimit.Disabled = true // only the rate-limit test counts attempts
	}
	return testenv.Start(t, db(t), o)
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// adminJWT registers the first admin and returns their token.
func adminJWT(t *testing.T, e *testenv.Env) string {
	t.Helper()
	r := e.Do("POST", "/admin/register-admin", map[string]any{"email": adminEmail, "password": adminPassword, "firstname": "Ada"})
	if r.Status != 200 {
		t.Fatalf("register-admin: %d %s", r.Status, r.Body)
	}
	tok, _ := r.Data()["token"].(string)
	return tok
}

// registerUser registers a user and returns their JWT and id.
func registerUser(t *testing.T, e *testenv.Env, name string) (string, int64) {
	t.Helper()
	r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": name, "email": name + "@example.com", "password": "secret-" + name})
	if r.Status != 200 {
		t.Fatalf("register %s: %d %s", name, r.Status, r.Body)
	}
	user, _ := r.JSON["user"].(map[string]any)
	id, _ := user["id"].(float64)
	return r.JSON["jwt"].(string), int64(id)
}

// createToken issues an API token through the admin API and returns its
// string and id.
func createToken(t *testing.T, e *testenv.Env, admin string, body map[string]any) (string, int64) {
	t.Helper()
	r := e.Do("POST", "/admin/api-tokens", body, bearer(admin)...)
	if r.Status != 201 {
		t.Fatalf("create token %v: %d %s", body, r.Status, r.Body)
	}
	id, _ := r.Data()["id"].(float64)
	return r.Data()["accessKey"].(string), int64(id)
}

// scrub replaces the values of keys (tokens, JWTs) anywhere in a JSON body
// by "<key>", so golden files hold shapes.
func scrub(t *testing.T, body []byte, keys ...string) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("scrub: %v: %s", err, body)
	}
	drop := map[string]bool{}
	for _, k := range keys {
		drop[k] = true
	}
	var walk func(any) any
	walk = func(x any) any {
		switch y := x.(type) {
		case map[string]any:
			for k, c := range y {
				if drop[k] && c != nil {
					y[k] = "<" + k + ">"
				} else {
					y[k] = walk(c)
				}
			}
		case []any:
			for i := range y {
				y[i] = walk(y[i])
			}
		}
		return x
	}
	out, _ := json.Marshal(walk(v))
	return out
}

// secret reads a generated secret from the test database.
func secret(t *testing.T, e *testenv.Env, name string) []byte {
	t.Helper()
	var v string
	if err := e.Store.GORM().Raw("SELECT value FROM stratum_meta WHERE key = ?", "secret:"+name).Row().Scan(&v); err != nil {
		t.Fatal(err)
	}
	return []byte(v)
}

var userPluginActions = []string{auth.ActionUserFind, auth.ActionUserOne, auth.ActionUserCount, auth.ActionUserCreate,
	auth.ActionUserUpdate, auth.ActionUserDelete}
