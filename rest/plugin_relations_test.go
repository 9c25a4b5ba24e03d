package rest_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// strapiProject is the test project shaped like a real Strapi 5 project:
// products related to users (seller, with its inverse `products` in the
// users-permissions extension; reviewers; a badge component's awardedBy),
// extra user fields (phone, bio, newsletter, avatar, address), media and
// custom fields.
func strapiProject() string {
	return filepath.Join(testenv.Root(), "app", "testdata", "strapi-project")
}

// register signs a user up through /api/auth/local/register and returns
// the answer's user and JWT.
func register(t *testing.T, e *testenv.Env, body map[string]any) (map[string]any, string) {
	t.Helper()
	r := e.Do("POST", "/api/auth/local/register", body)
	if r.Status != 200 {
		t.Fatalf("register %v: %d %s", body["username"], r.Status, r.Body)
	}
	u, _ := r.JSON["user"].(map[string]any)
	jwt, _ := r.JSON["jwt"].(string)
	return u, jwt
}

// Relations to users-permissions users are written (ids, documentIds,
// connect), populated with fields, filtered and sorted through, and never
// show a user's private fields; the reader needs find on users for any of
// it, as for any type.
func TestRelationsToUsers(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.findOne", "api::product.product.create",
			"api::product.product.update", "plugin::users-permissions.user.find", "plugin::users-permissions.user.findOne"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123", "phone": "+47 1234"})
		bob, _ := register(t, e, map[string]any{"username": "bob", "email": "bob@example.com", "password": "secret123"})

		r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "seller": alice["id"],
			"reviewers": map[string]any{"connect": []any{bob["documentId"], alice["documentId"]}},
			"badge":     map[string]any{"label": "top", "awardedBy": bob["documentId"]}}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		lamp := r.Data()
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Desk", "seller": bob["documentId"]}}); r.Status != 201 {
			t.Fatalf("create by documentId: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Chair"}}); r.Status != 201 {
			t.Fatalf("create without seller: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Bad", "seller": "nosuchdocument00000000"}}); r.Status != 400 {
			t.Fatalf("an unknown user: %d %s", r.Status, r.Body)
		}

		// Populate, with and without fields; never a private field.
		r = e.Do("GET", "/api/products/"+lamp["documentId"].(string)+"?populate[seller][fields][0]=username&populate[reviewers]=true&populate[badge][populate]=awardedBy", nil)
		d := r.Data()
		seller, _ := d["seller"].(map[string]any)
		if r.Status != 200 || seller["username"] != "alice" || seller["email"] != nil || seller["documentId"] != alice["documentId"] {
			t.Fatalf("populate seller with fields: %d %s", r.Status, r.Body)
		}
		revs, _ := d["reviewers"].([]any)
		if len(revs) != 2 || revs[0].(map[string]any)["username"] != "bob" || revs[1].(map[string]any)["phone"] != "+47 1234" {
			t.Fatalf("reviewers in the order given, with the extension's fields: %s", r.Body)
		}
		if aw, _ := d["badge"].(map[string]any)["awardedBy"].(map[string]any); aw["username"] != "bob" {
			t.Fatalf("a relation to a user in a component: %s", r.Body)
		}
		for _, path := range []string{"?populate=*", "?populate[seller][populate]=*", "?populate[reviewers][populate]=role"} {
			r := e.Do("GET", "/api/products"+path, nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", path, r.Status, r.Body)
			}
			for _, secret := range []string{"password", "resetPasswordToken", "confirmationToken", "$2a$"} {
				if strings.Contains(string(r.Body), secret) {
					t.Fatalf("%s shows %s: %s", path, secret, r.Body)
				}
			}
		}
		if r := e.Do("GET", "/api/products?populate[seller][fields][0]=password", nil); r.Status != 400 {
			t.Fatalf("fields=password through a populate: %d %s", r.Status, r.Body)
		}

		// Filters and sorts through the relation.
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"filters[seller][username][$eq]=alice", []string{"Lamp"}},
			{"filters[seller][phone][$eq]=" + url.QueryEscape("+47 1234"), []string{"Lamp"}},
			{"filters[seller][id][$eq]=" + fmt.Sprint(bob["id"]), []string{"Desk"}},
			{"filters[seller][$null]=true", []string{"Chair"}},
			{"filters[reviewers][username][$eq]=bob", []string{"Lamp"}},
			{"sort=seller.username:desc&filters[seller][$notNull]=true", []string{"Desk", "Lamp"}},
			{"sort=seller.username:asc&filters[seller][$notNull]=true", []string{"Lamp", "Desk"}},
		} {
			r := e.Do("GET", "/api/products?"+c.query, nil)
			var got []string
			for _, p := range r.List() {
				got = append(got, p["name"].(string))
			}
			if r.Status != 200 || strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("%s: %d %v, want %v (%s)", c.query, r.Status, got, c.want, r.Body)
			}
		}
		// The role needs its own find permission.
		for _, q := range []string{"filters[seller][password][$eq]=x", "filters[seller][resetPasswordToken][$null]=true", "sort=seller.password",
			"filters[seller][role][type][$eq]=authenticated"} {
			if r := e.Do("GET", "/api/products?"+q, nil); r.Status != 400 {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
	})
}

// Without find on users, a relation to users is not populated and not
// a path for filters or sorts, as for any type the reader may not read.
func TestRelationsToUsersNeedFind(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Permissions: map[string][]string{
			"public":        {"api::product.product.find", "api::product.product.create"},
			"authenticated": {"api::product.product.create", "plugin::users-permissions.user.find"}}})
		alice, jwt := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "seller": alice["id"]}}); r.Status != 400 {
			t.Fatalf("a relation to users written without user find: %d %s", r.Status, r.Body)
		}
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "seller": alice["id"]}},
			"Authorization", "Bearer "+jwt); r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		r := e.Do("GET", "/api/products?populate=*", nil)
		if list := r.List(); r.Status != 200 || len(list) != 1 || list[0]["seller"] != nil || strings.Contains(string(r.Body), "alice") {
			t.Fatalf("populate without user find: %d %s", r.Status, r.Body)
		}
		for _, q := range []string{"filters[seller][username][$eq]=alice", "sort=seller.username"} {
			if r := e.Do("GET", "/api/products?"+q, nil); r.Status != 400 {
				t.Errorf("%s without user find: %d %s", q, r.Status, r.Body)
			}
		}
	})
}

// The users-permissions extension's attributes are stored, validated,
// returned by every answer that shows a user, filterable, sortable and
// populatable; register takes only register.allowedFields of them.
func TestUserExtension(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.create", "plugin::users-permissions.user.find",
			"plugin::users-permissions.user.findOne", "plugin::users-permissions.user.update", "plugin::users-permissions.user.count"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, jwt := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123",
			"phone": "+47 1234", "newsletter": true})
		if alice["phone"] != "+47 1234" || alice["newsletter"] != true {
			t.Fatalf("register answer: %v", alice)
		}
		bob, _ := register(t, e, map[string]any{"username": "bob", "email": "bob@example.com", "password": "secret123"})
		if bob["newsletter"] != false || bob["phone"] != nil {
			t.Fatalf("defaults: %v", bob)
		}
		for _, body := range []map[string]any{
			{"username": "eve", "email": "eve@example.com", "password": "secret123", "bio": "not allowed"},
			{"username": "eve", "email": "eve@example.com", "password": "secret123", "nope": 1},
		} {
			if r := e.Do("POST", "/api/auth/local/register", body); r.Status != 400 || !strings.Contains(r.ErrorMessage(), "Invalid parameters") {
				t.Fatalf("register %v: %d %s", body, r.Status, r.Body)
			}
		}
		if r := e.Do("POST", "/api/auth/local/register", map[string]any{"username": "eve", "email": "eve@example.com",
			"password": "secret123", "phone": strings.Repeat("9", 30)}); r.Status != 400 {
			t.Fatalf("a phone over maxLength: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/users?filters[username][$eq]=eve", nil); len(r.List()) != 0 {
			t.Fatalf("a refused register left a user: %s", r.Body)
		}

		// Update through /api/users/:id: extension fields, a component.
		aid := fmt.Sprint(alice["id"])
		r := e.Do("PUT", "/api/users/"+aid, map[string]any{"bio": "Lamps.", "address": map[string]any{"city": "Oslo", "zip": "0150"}})
		if r.Status != 200 || r.JSON["bio"] != "Lamps." || r.JSON["phone"] != "+47 1234" {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/api/users/"+aid, map[string]any{"address": map[string]any{"zip": strings.Repeat("1", 20)}}); r.Status != 400 {
			t.Fatalf("a component value over maxLength: %d %s", r.Status, r.Body)
		}
		if r := e.Do("PUT", "/api/users/"+aid, map[string]any{"newsletter": "often"}); r.Status != 400 {
			t.Fatalf("a string for a boolean: %d %s", r.Status, r.Body)
		}

		// Products point at alice: the inverse side on the user.
		for _, name := range []string{"Lamp", "Desk"} {
			if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": name, "seller": alice["id"]}}); r.Status != 201 {
				t.Fatalf("create %s: %d %s", name, r.Status, r.Body)
			}
		}
		r = e.Do("GET", "/api/users/"+aid+"?populate[products][fields][0]=name&populate[address]=true", nil)
		prods, _ := r.JSON["products"].([]any)
		addr, _ := r.JSON["address"].(map[string]any)
		if r.Status != 200 || len(prods) != 2 || prods[0].(map[string]any)["name"] != "Lamp" || addr["city"] != "Oslo" {
			t.Fatalf("populate the inverse side and a component: %d %s", r.Status, r.Body)
		}
		if strings.Contains(string(r.Body), "password") {
			t.Fatalf("a private field: %s", r.Body)
		}

		// Me and login show the extension's fields.
		r = e.Do("GET", "/api/users/me", nil, "Authorization", "Bearer "+jwt)
		if r.Status != 200 || r.JSON["bio"] != "Lamps." || r.JSON["newsletter"] != true {
			t.Fatalf("me: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/api/auth/local", map[string]any{"identifier": "alice", "password": "secret123"})
		if u, _ := r.JSON["user"].(map[string]any); r.Status != 200 || u["phone"] != "+47 1234" {
			t.Fatalf("login: %d %s", r.Status, r.Body)
		}

		// Filters, sorts and fields on the extension's attributes.
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"filters[phone][$eq]=" + url.QueryEscape("+47 1234"), []string{"alice"}},
			{"filters[newsletter][$eq]=false", []string{"bob"}},
			{"filters[products][name][$eq]=Desk", []string{"alice"}},
			{"filters[address][city][$eq]=Oslo", []string{"alice"}},
			{"filters[$or][0][phone][$null]=true&filters[$or][1][username][$eq]=alice&sort=username:desc", []string{"bob", "alice"}},
			{"sort=phone:asc", []string{"alice", "bob"}},
			{"sort[0]=newsletter:desc&sort[1]=username", []string{"alice", "bob"}},
		} {
			r := e.Do("GET", "/api/users?"+c.query, nil)
			var got []string
			for _, u := range decodeList(t, r.Body) {
				got = append(got, u["username"].(string))
			}
			if r.Status != 200 || strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("%s: %d %v, want %v (%s)", c.query, r.Status, got, c.want, r.Body)
			}
		}
		if r := e.Do("GET", "/api/users/count?filters[newsletter][$eq]=true", nil); strings.TrimSpace(string(r.Body)) != "1" {
			t.Errorf("count: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/users/"+aid+"?fields[0]=phone&fields[1]=username", nil)
		if r.Status != 200 || r.JSON["phone"] != "+47 1234" || r.JSON["email"] != nil || r.JSON["bio"] != nil {
			t.Fatalf("fields: %d %s", r.Status, r.Body)
		}
		for _, q := range []string{"filters[nope][$eq]=1", "fields[0]=nope", "populate=nope", "filters[password][$eq]=x"} {
			if r := e.Do("GET", "/api/users?"+q, nil); r.Status != 400 {
				t.Errorf("%s: %d %s", q, r.Status, r.Body)
			}
		}
	})
}

// decodeList reads a plain JSON array of objects (the users API's lists).
func decodeList(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("not a list: %s", body)
	}
	return out
}

// GraphQL sees the extension's scalars on UsersPermissionsUser (fields,
// filters).
func TestGraphQLUserRelationsAndExtension(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.create", "plugin::users-permissions.user.find",
			"plugin::users-permissions.user.findOne"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123", "phone": "+47 1234"})
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "seller": alice["id"]}}); r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		q := `{ usersPermissionsUsers(filters: {phone: {eq: "+47 1234"}}) { data { attributes { username phone newsletter } } } }`
		r := e.Do("POST", "/graphql", map[string]any{"query": q})
		want := `{"data":{"usersPermissionsUsers":{"data":[{"attributes":{"username":"alice","phone":"+47 1234","newsletter":false}}]}}}`
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("graphql: %d %s\nwant %s", r.Status, r.Body, want)
		}

	})
}

// A relation to the media library's files is read with the upload
// plugin's find permission and shows the file's fields; a relation to
// admins is the admin panel's: written and read there, never shown to the
// content API (no content-API permission names admins).
func TestRelationsToFilesAndAdmins(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.findOne", "api::product.product.create",
			"plugin::upload.content-api.upload", "plugin::upload.content-api.find"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		st, b := uploadWith(t, e, nil, "manual.png")
		var files []map[string]any
		if err := json.Unmarshal(b, &files); st != 201 || err != nil || len(files) != 1 {
			t.Fatalf("upload: %d %s", st, b)
		}
		r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "manual": files[0]["id"]}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		doc := r.Data()["documentId"].(string)
		r = e.Do("GET", "/api/products/"+doc+"?populate[manual][fields][0]=name&populate[manual][fields][1]=width&populate[manual][fields][2]=formats", nil)
		m, _ := r.Data()["manual"].(map[string]any)
		if r.Status != 200 || m["name"] != "manual.png" || m["width"] != float64(20) || m["documentId"] != files[0]["documentId"] {
			t.Fatalf("populate a file: %d %s", r.Status, r.Body)
		}
		if _, isObject := m["formats"].(map[string]any); m["formats"] != nil && !isObject {
			t.Fatalf("formats is not JSON: %s", r.Body)
		}
		if r := e.Do("GET", "/api/products?filters[manual][name][$eq]=manual.png", nil); len(r.List()) != 1 {
			t.Fatalf("filter through a file: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/products?filters[manual][name][$eq]=other.png", nil); r.Status != 200 || len(r.List()) != 0 {
			t.Fatalf("filter through a file, no match: %d %s", r.Status, r.Body)
		}

		// Admins: the content API can neither write nor see them.
		reg := e.Do("POST", "/admin/register-admin", map[string]any{"email": adminEmail, "password": adminPassword, "firstname": "Ada"})
		admin, _ := reg.Data()["token"].(string)
		adminID := reg.Data()["user"].(map[string]any)["id"]
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Desk", "curator": adminID}}); r.Status != 400 {
			t.Fatalf("a relation to an admin written through the content API: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/admin/content-manager/collection-types/api::product.product",
			map[string]any{"data": map[string]any{"name": "Desk", "curator": adminID}}, bearer(admin)...)
		if r.Status != 201 && r.Status != 200 {
			t.Fatalf("admin create: %d %s", r.Status, r.Body)
		}
		desk := r.Data()["documentId"].(string)
		r = e.Do("GET", "/admin/content-manager/collection-types/api::product.product/"+desk+"?populate[curator][fields][0]=email", nil, bearer(admin)...)
		if c, _ := r.Data()["curator"].(map[string]any); r.Status != 200 || c["email"] == nil || strings.Contains(string(r.Body), "password") {
			t.Fatalf("admin reads the curator: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/products/"+desk+"?populate=*", nil)
		if r.Status != 200 || r.Data()["curator"] != nil || strings.Contains(string(r.Body), "@") {
			t.Fatalf("the content API shows an admin: %d %s", r.Status, r.Body)
		}
		if r := e.Do("GET", "/api/products?filters[curator][email][$null]=false", nil); r.Status != 400 {
			t.Fatalf("a filter through admins: %d %s", r.Status, r.Body)
		}
	})
}

// A relation to users is a typed GraphQL field (to-one, to-many, in a
// component), populated in the parent's read, filterable, with the
// extension's scalars; it needs find on users, as in REST.
func TestGraphQLRelationsToUsers(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.create", "plugin::users-permissions.user.find"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123", "phone": "+47 1234"})
		bob, _ := register(t, e, map[string]any{"username": "bob", "email": "bob@example.com", "password": "secret123"})
		for _, p := range []map[string]any{
			{"name": "Lamp", "seller": alice["id"], "reviewers": []any{bob["id"], alice["id"]}, "badge": map[string]any{"label": "top", "awardedBy": bob["id"]}},
			{"name": "Desk", "seller": bob["id"]},
		} {
			if r := e.Do("POST", "/api/products", map[string]any{"data": p}); r.Status != 201 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
		}
		q := `{ products(sort: "name", filters: {seller: {username: {eq: "alice"}}}) { data { attributes { name
			seller { data { id attributes { username phone } } }
			reviewers(filters: {username: {ne: "nobody"}}) { data { attributes { username } } }
			badge { label awardedBy { data { attributes { username } } } } } } } }`
		r := e.Do("POST", "/graphql", map[string]any{"query": q})
		want := `{"data":{"products":{"data":[{"attributes":{"name":"Lamp","seller":{"data":{"id":"` + fmt.Sprint(alice["id"]) +
			`","attributes":{"username":"alice","phone":"+47 1234"}}},"reviewers":{"data":[{"attributes":{"username":"bob"}},{"attributes":{"username":"alice"}}]},` +
			`"badge":{"label":"top","awardedBy":{"data":{"attributes":{"username":"bob"}}}}}}]}}}`
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("graphql: %d %s\nwant %s", r.Status, r.Body, want)
		}
		// Without find on users: FORBIDDEN at the field, as for any type.
		e2 := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: []string{"api::product.product.find", "api::product.product.create"}})
		if r := e2.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Chair"}}); r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		r = e2.Do("POST", "/graphql", map[string]any{"query": `{ products { data { attributes { name seller { data { id } } } } } }`})
		if !strings.Contains(string(r.Body), "Forbidden") {
			t.Fatalf("without user find: %d %s", r.Status, r.Body)
		}
	})
}

// A relation to files is an UploadFile field in GraphQL (its id is the
// documentId, as for media fields).
func TestGraphQLRelationsToFiles(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.create", "plugin::upload.content-api.upload",
			"plugin::upload.content-api.find"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		st, b := uploadWith(t, e, nil, "manual.png")
		var files []map[string]any
		if err := json.Unmarshal(b, &files); st != 201 || err != nil || len(files) != 1 {
			t.Fatalf("upload: %d %s", st, b)
		}
		if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "manual": files[0]["id"]}}); r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		r := e.Do("POST", "/graphql", map[string]any{"query": `{ products { data { attributes { name manual { data { id attributes { name width url } } } } } } }`})
		want := `{"data":{"products":{"data":[{"attributes":{"name":"Lamp","manual":{"data":{"id":"` + files[0]["documentId"].(string) +
			`","attributes":{"name":"manual.png","width":20,"url":"` + files[0]["url"].(string) + `"}}}}}]}}}`
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("graphql: %d %s\nwant %s", r.Status, r.Body, want)
		}
	})
}

// The extension's relations, media and components are fields of
// UsersPermissionsUser, read with the reader's permissions.
func TestGraphQLUserExtensionRelations(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.create", "plugin::users-permissions.user.find",
			"plugin::users-permissions.user.findOne", "plugin::users-permissions.user.update", "plugin::upload.content-api.upload"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		st, b := uploadWith(t, e, nil, "me.png")
		var files []map[string]any
		if err := json.Unmarshal(b, &files); st != 201 || err != nil || len(files) != 1 {
			t.Fatalf("upload: %d %s", st, b)
		}
		id := fmt.Sprint(alice["id"])
		if r := e.Do("PUT", "/api/users/"+id, map[string]any{"avatar": files[0]["id"], "address": map[string]any{"city": "Oslo"}}); r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		for _, n := range []string{"Lamp", "Desk"} {
			if r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": n, "seller": alice["id"]}}); r.Status != 201 {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
		}
		q := `{ usersPermissionsUser(id: ` + id + `) { data { attributes { username avatar { data { attributes { name } } } address { city }
			products(pagination: {limit: 1}) { data { attributes { name } } } } } } }`
		r := e.Do("POST", "/graphql", map[string]any{"query": q})
		want := `{"data":{"usersPermissionsUser":{"data":{"attributes":{"username":"alice","avatar":{"data":{"attributes":{"name":"me.png"}}},` +
			`"address":{"city":"Oslo"},"products":{"data":[{"attributes":{"name":"Lamp"}}]}}}}}}`
		if r.Status != 200 || strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("graphql: %d %s\nwant %s", r.Status, r.Body, want)
		}
		// A page of users reads their extension's relations together: the
		// statements do not grow with the number of users.
		list := `{ usersPermissionsUsers(sort: "id") { data { attributes { username address { city } products { data { attributes { name } } } } } } }`
		statements := func() int64 {
			before := e.Store.Statements()
			r := e.Do("POST", "/graphql", map[string]any{"query": list})
			if r.Status != 200 || strings.Contains(string(r.Body), `"errors"`) {
				t.Fatalf("users: %d %s", r.Status, r.Body)
			}
			return e.Store.Statements() - before
		}
		two := statements()
		for i, city := range []string{"Bergen", "Tromsø", "Bodø"} {
			u, _ := register(t, e, map[string]any{"username": fmt.Sprintf("user%d", i), "email": fmt.Sprintf("u%d@example.com", i), "password": "secret123"})
			if r := e.Do("PUT", fmt.Sprintf("/api/users/%v", u["id"]), map[string]any{"address": map[string]any{"city": city}}); r.Status != 200 {
				t.Fatalf("update: %d %s", r.Status, r.Body)
			}
		}
		if five := statements(); five != two {
			t.Errorf("statements for 1 user: %d, for 4 users: %d", two, five)
		}
		r = e.Do("POST", "/graphql", map[string]any{"query": list})
		for _, w := range []string{`{"username":"alice","address":{"city":"Oslo"},"products":{"data":[{"attributes":{"name":"Lamp"}},{"attributes":{"name":"Desk"}}]}}`,
			`{"username":"user1","address":{"city":"Tromsø"},"products":{"data":[]}}`} {
			if !strings.Contains(string(r.Body), w) {
				t.Errorf("users: %s\nwant %s", r.Body, w)
			}
		}
	})
}

// System types are not collections of the content API or the admin's
// Content Manager: their own services write them.
func TestSystemTypesAreNotCollections(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: []string{"plugin::upload.content-api.upload"}})
		reg := e.Do("POST", "/admin/register-admin", map[string]any{"email": adminEmail, "password": adminPassword, "firstname": "Ada"})
		admin, _ := reg.Data()["token"].(string)
		for _, uid := range []string{"plugin::users-permissions.user", "plugin::users-permissions.role", "plugin::upload.file", "admin::user"} {
			base := "/admin/content-manager/collection-types/" + uid
			if r := e.Do("GET", base, nil, bearer(admin)...); r.Status != 404 {
				t.Errorf("GET %s: %d %s", base, r.Status, r.Body)
			}
			if r := e.Do("POST", base, map[string]any{"data": map[string]any{"username": "x"}}, bearer(admin)...); r.Status != 404 {
				t.Errorf("POST %s: %d %s", base, r.Status, r.Body)
			}
		}
		// ref=plugin::users-permissions.user attaches to a user (a field of
		// the extension), with the update permission on users.
		if st, b := uploadWith(t, e, map[string]string{"ref": "plugin::users-permissions.user", "refId": "1", "field": "avatar"}, "a.png"); st != 403 {
			t.Errorf("attach to a user without update: %d %s", st, b)
		}
		if st, b := uploadWith(t, e, map[string]string{"ref": "plugin::users-permissions.role", "refId": "1", "field": "avatar"}, "a.png"); st != 400 {
			t.Errorf("attach to a role: %d %s", st, b)
		}
	})
}

// An upload with ref=plugin::users-permissions.user sets a user's media
// attribute (Strapi clients' avatar upload).
func TestUploadAttachesToUser(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: []string{"plugin::upload.content-api.upload",
			"plugin::users-permissions.user.update", "plugin::users-permissions.user.findOne"}})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		id := fmt.Sprint(alice["id"])
		for _, c := range []struct {
			refID, field string
			want         int
		}{{id, "phone", 400}, {id, "nope", 400}, {"999", "avatar", 404}} {
			if st, b := uploadWith(t, e, map[string]string{"ref": "plugin::users-permissions.user", "refId": c.refID, "field": c.field}, "a.png"); st != c.want {
				t.Errorf("%s %s: %d %s", c.refID, c.field, st, b)
			}
		}
		st, b := uploadWith(t, e, map[string]string{"ref": "plugin::users-permissions.user", "refId": id, "field": "avatar"}, "me.png")
		if st != 201 {
			t.Fatalf("attach: %d %s", st, b)
		}
		r := e.Do("GET", "/api/users/"+id+"?populate=avatar", nil)
		if av, _ := r.JSON["avatar"].(map[string]any); r.Status != 200 || av["name"] != "me.png" {
			t.Fatalf("avatar: %d %s", r.Status, r.Body)
		}
		// GraphQL's upload takes the same target.
		st, _, body := gqlMultipart(t, e,
			`{"query":"mutation($f: Upload!) { upload(file: $f, ref: \"plugin::users-permissions.user\", refId: \"`+id+`\", field: \"avatar\") { data { attributes { name } } } }","variables":{"f":null}}`,
			`{"0":["variables.f"]}`, map[string][2]string{"0": {"again.png", string(pngOf(8, 8))}})
		if st != 200 || strings.Contains(string(body), "errors") {
			t.Fatalf("graphql upload: %d %s", st, body)
		}
		r = e.Do("GET", "/api/users/"+id+"?populate=avatar", nil)
		if av, _ := r.JSON["avatar"].(map[string]any); av["name"] != "again.png" {
			t.Fatalf("avatar after the GraphQL upload: %s", r.Body)
		}
	})
}

// A deleted user leaves the relations that pointed at it: never shown,
// never matched, and the documents stay writable.
func TestDeletedUserInRelations(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "api::product.product.findOne", "api::product.product.create",
			"api::product.product.update", "plugin::users-permissions.user.find", "plugin::users-permissions.user.destroy"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		r := e.Do("POST", "/api/products", map[string]any{"data": map[string]any{"name": "Lamp", "seller": alice["id"], "reviewers": []any{alice["id"]}}})
		doc := r.Data()["documentId"].(string)
		if r := e.Do("DELETE", "/api/users/"+fmt.Sprint(alice["id"]), nil); r.Status != 200 {
			t.Fatalf("delete the user: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/products/"+doc+"?populate=*", nil)
		if d := r.Data(); d["seller"] != nil || len(d["reviewers"].([]any)) != 0 {
			t.Fatalf("a deleted user shown: %s", r.Body)
		}
		if r := e.Do("GET", "/api/products?filters[seller][$null]=true", nil); len(r.List()) != 1 {
			t.Fatalf("$null through a deleted user: %s", r.Body)
		}
		if r := e.Do("PUT", "/api/products/"+doc, map[string]any{"data": map[string]any{"name": "Lamp 2"}}); r.Status != 200 {
			t.Fatalf("update after the user's deletion: %d %s", r.Status, r.Body)
		}
	})
}

// Hostile values in the extension's fields and in filters through users
// are 400s on both databases (NUL bytes, invalid UTF-8), never a 500.
func TestUserExtensionBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"api::product.product.find", "plugin::users-permissions.user.find", "plugin::users-permissions.user.update"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: strapiProject(), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		id := fmt.Sprint(alice["id"])
		for _, body := range []string{`{"bio":"a\u0000b"}`, "{\"bio\":\"a\xffb\"}", `{"address":{"city":"x\u0000"}}`} {
			if r := e.Do("PUT", "/api/users/"+id, body); r.Status != 400 {
				t.Errorf("PUT %q: %d %s", body, r.Status, r.Body)
			}
		}
		for _, q := range []string{"/api/users?filters[phone][$eq]=%00", "/api/users?filters[phone][$eq]=%FF",
			"/api/products?filters[seller][phone][$eq]=%00", "/api/products?filters[seller][username][$eq]=%FF"} {
			if r := e.Do("GET", q, nil); r.Status != 400 {
				t.Errorf("GET %s: %d %s", q, r.Status, r.Body)
			}
		}
	})
}

// extendedProject is the Strapi test project with a unique user attribute
// (memberNo) and a role extension (code, unique; level, an integer of at
// least 1).
func extendedProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(strapiProject())); err != nil {
		t.Fatal(err)
	}
	userSchema := filepath.Join(dir, "src", "extensions", "users-permissions", "content-types", "user", "schema.json")
	b, err := os.ReadFile(userSchema)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), `"bio": {"type": "text"},`, `"bio": {"type": "text"}, "memberNo": {"type": "string", "unique": true},`, 1))
	if err := os.WriteFile(userSchema, b, 0o644); err != nil {
		t.Fatal(err)
	}
	roleDir := filepath.Join(dir, "src", "extensions", "users-permissions", "content-types", "role")
	if err := os.MkdirAll(roleDir, 0o755); err != nil {
		t.Fatal(err)
	}
	role := `{"kind": "collectionType", "collectionName": "up_roles",
  "info": {"name": "role", "singularName": "role", "pluralName": "roles", "displayName": "Role"},
  "attributes": {"name": {"type": "string", "minLength": 3, "required": true, "configurable": false},
    "code": {"type": "string", "unique": true}, "level": {"type": "integer", "min": 1}}}`
	if err := os.WriteFile(filepath.Join(roleDir, "schema.json"), []byte(role), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestExtensionUniqueAndRoleAttributes: a unique attribute of the user
// extension refuses a value another user has (register and update); the
// role extension's attributes are written, validated (unique too) and
// shown by the roles APIs and in a populated role.
func TestExtensionUniqueAndRoleAttributes(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		pub := []string{"plugin::users-permissions.user.find", "plugin::users-permissions.user.update",
			"plugin::users-permissions.role.find", "plugin::users-permissions.role.findOne",
			"plugin::users-permissions.role.createRole", "plugin::users-permissions.role.updateRole"}
		e := testenv.Start(t, db(t), testenv.Options{Dir: extendedProject(t), Public: pub})
		alice, _ := register(t, e, map[string]any{"username": "alice", "email": "alice@example.com", "password": "secret123"})
		bob, _ := register(t, e, map[string]any{"username": "bob", "email": "bob@example.com", "password": "secret123"})
		if r := e.Do("PUT", fmt.Sprintf("/api/users/%v", alice["id"]), map[string]any{"memberNo": "M-1"}); r.Status != 200 || r.JSON["memberNo"] != "M-1" {
			t.Fatalf("set memberNo: %d %s", r.Status, r.Body)
		}
		// Writing the same value again on its owner is no conflict.
		if r := e.Do("PUT", fmt.Sprintf("/api/users/%v", alice["id"]), map[string]any{"memberNo": "M-1", "bio": "x"}); r.Status != 200 {
			t.Fatalf("memberNo again on alice: %d %s", r.Status, r.Body)
		}
		r := e.Do("PUT", fmt.Sprintf("/api/users/%v", bob["id"]), map[string]any{"memberNo": "M-1"})
		if r.Status != 400 || !strings.Contains(string(r.Body), "This attribute must be unique") ||
			!strings.Contains(string(r.Body), `"path":["memberNo"]`) {
			t.Fatalf("a taken memberNo: %d %s", r.Status, r.Body)
		}

		// Roles: extension attributes in, out, validated.
		perms := map[string]any{}
		r = e.Do("POST", "/api/users-permissions/roles", map[string]any{"name": "Editors", "description": "d", "code": "ED", "level": 2, "permissions": perms})
		if r.Status != 200 {
			t.Fatalf("create role: %d %s", r.Status, r.Body)
		}
		for _, body := range []map[string]any{
			{"name": "Writers", "code": "ED"},    // code taken
			{"name": "Writers", "level": 0},      // below min
			{"name": "Writers", "level": "high"}, // not an integer
			{"name": "Writers", "unknown": "x"},  // not an attribute
		} {
			if r := e.Do("POST", "/api/users-permissions/roles", body); r.Status != 400 {
				t.Errorf("create role %v: %d %s", body, r.Status, r.Body)
			}
		}
		r = e.Do("GET", "/api/users-permissions/roles", nil)
		roles, _ := r.JSON["roles"].([]any)
		var editors map[string]any
		for _, x := range roles {
			if m, _ := x.(map[string]any); m["name"] == "Editors" {
				editors = m
			}
		}
		if editors == nil || editors["code"] != "ED" || editors["level"] != float64(2) || editors["nb_users"] != float64(0) {
			t.Fatalf("roles list: %s", r.Body)
		}
		id := fmt.Sprint(editors["id"])
		if r := e.Do("PUT", "/api/users-permissions/roles/"+id, map[string]any{"level": 3}); r.Status != 200 {
			t.Fatalf("update role: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/users-permissions/roles/"+id, nil)
		role, _ := r.JSON["role"].(map[string]any)
		if role["code"] != "ED" || role["level"] != float64(3) || role["name"] != "Editors" || role["permissions"] == nil {
			t.Fatalf("role after update: %s", r.Body)
		}
		if r := e.Do("PUT", "/api/users-permissions/roles/"+id, map[string]any{"level": -1}); r.Status != 400 {
			t.Fatalf("update role below min: %d %s", r.Status, r.Body)
		}
		// A user's populated role shows them too.
		full, _ := createToken(t, e, adminJWT(t, e), map[string]any{"name": "all", "type": "full-access"})
		if r := e.Do("PUT", fmt.Sprintf("/api/users/%v", bob["id"]), map[string]any{"role": editors["id"]}, bearer(full)...); r.Status != 200 {
			t.Fatalf("move bob: %d %s", r.Status, r.Body)
		}
		r = e.Do("GET", "/api/users?filters[username][$eq]=bob&populate=role", nil, bearer(full)...)
		var users []struct{ Role map[string]any }
		if err := json.Unmarshal(r.Body, &users); err != nil || len(users) != 1 || users[0].Role["code"] != "ED" {
			t.Fatalf("populated role: %s", r.Body)
		}

		// GraphQL: the role type and input have them.
		r = e.Do("POST", "/graphql", map[string]any{"query": `mutation { createUsersPermissionsRole(data: {name: "Guests", code: "GU", level: 1}) { ok } }`})
		if r.Status != 200 || strings.Contains(string(r.Body), `"errors"`) {
			t.Fatalf("GraphQL create role: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/graphql", map[string]any{"query": `{ usersPermissionsRole(id: ` + id + `) { data { attributes { name code level } } } }`})
		if !strings.Contains(string(r.Body), `"attributes":{"name":"Editors","code":"ED","level":3}`) {
			t.Fatalf("GraphQL role: %d %s", r.Status, r.Body)
		}
		r = e.Do("POST", "/graphql", map[string]any{"query": `mutation { createUsersPermissionsRole(data: {name: "Others", code: "GU"}) { ok } }`})
		if !strings.Contains(string(r.Body), "This attribute must be unique") {
			t.Fatalf("GraphQL role with a taken code: %d %s", r.Status, r.Body)
		}
	})
}
