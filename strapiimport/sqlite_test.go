package strapiimport_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/stratum-cms/stratum/internal/testdb"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/strapiimport"
)

// strapiSQLite is a Strapi 5 database on SQLite with a few rows of the
// tables the import reads, as Strapi writes them there: date-times as
// milliseconds, booleans as 0/1, JSON as text.
func strapiSQLite(t *testing.T, pwHash, tokenDigest string) string {
	const ms = int64(1795000000000) // 2026-11-18T...
	s := func(q string, args ...any) testdb.Stmt { return testdb.Stmt{SQL: q, Args: args} }
	return testdb.SQLiteFile(t, []testdb.Stmt{
		s(`CREATE TABLE strapi_core_store_settings (id integer primary key, key varchar, value text, type varchar)`),
		s(`INSERT INTO strapi_core_store_settings (key, value) VALUES ('plugin_i18n_default_locale', '"en"')`),
		s(`CREATE TABLE i18n_locale (id integer primary key, document_id varchar, name varchar, code varchar)`),
		s(`INSERT INTO i18n_locale (id, code) VALUES (1, 'en'), (2, 'fr')`),
		s(`CREATE TABLE articles (id integer primary key, document_id varchar, title varchar, slug varchar, body text, views integer,
			rating float, featured boolean, published_date date, created_at datetime, updated_at datetime, published_at datetime,
			created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO articles VALUES (1, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'First (draft)', 'first', ?, 7, 4.5, 1, '2024-03-01', ?, ?, NULL, NULL, NULL, NULL)`,
			`[{"type":"paragraph","children":[{"type":"text","text":"Hello"}]}]`, ms, ms+1000),
		s(`INSERT INTO articles VALUES (2, 'aaaaaaaaaaaaaaaaaaaaaaaa', 'First', 'first', NULL, 7, 4.5, 0, '2024-03-01', ?, ?, ?, NULL, NULL, NULL)`,
			ms, ms+2000, ms+2000),
		s(`CREATE TABLE categories (id integer primary key, document_id varchar, name varchar, slug varchar, created_at datetime,
			updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO categories VALUES (1, 'cccccccccccccccccccccccc', 'Science', 'science', ?, ?, ?, NULL, NULL, 'en')`, ms, ms, ms),
		s(`INSERT INTO categories VALUES (2, 'cccccccccccccccccccccccc', 'Sciences', NULL, ?, ?, ?, NULL, NULL, 'fr')`, ms, ms, ms),
		s(`CREATE TABLE tags (id integer primary key, document_id varchar, name varchar, created_at datetime, updated_at datetime,
			published_at datetime, created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO tags VALUES (1, 'tttttttttttttttttttttt01', 'one', ?, ?, ?, NULL, NULL, NULL)`, ms, ms, ms),
		s(`INSERT INTO tags VALUES (2, 'tttttttttttttttttttttt02', 'two', ?, ?, ?, NULL, NULL, NULL)`, ms, ms, ms),
		s(`CREATE TABLE articles_category_lnk (id integer primary key, article_id integer, category_id integer, article_ord float)`),
		s(`INSERT INTO articles_category_lnk VALUES (1, 1, 1, 1), (2, 2, 1, 2)`),
		s(`CREATE TABLE articles_tags_lnk (id integer primary key, article_id integer, tag_id integer, tag_ord float, article_ord float)`),
		// The published version lists two before one: the order is kept.
		s(`INSERT INTO articles_tags_lnk VALUES (1, 1, 1, 1, 1), (2, 2, 2, 1, 1), (3, 2, 1, 2, 1)`),
		s(`CREATE TABLE articles_cmps (id integer primary key, entity_id integer, cmp_id integer, component_type varchar, field varchar, "order" float)`),
		s(`INSERT INTO articles_cmps VALUES (1, 2, 5, 'shared.seo', 'seo', NULL), (2, 2, 9, 'shared.rich-text', 'blocks', 2), (3, 2, 4, 'shared.quote', 'blocks', 1)`),
		s(`CREATE TABLE components_shared_seos (id integer primary key, meta_title varchar, meta_description text)`),
		s(`INSERT INTO components_shared_seos VALUES (5, 'SEO title', NULL)`),
		s(`CREATE TABLE components_shared_quotes (id integer primary key, title varchar, body text)`),
		s(`INSERT INTO components_shared_quotes VALUES (4, 'Q', 'quoted')`),
		s(`CREATE TABLE components_shared_rich_texts (id integer primary key, body text)`),
		s(`INSERT INTO components_shared_rich_texts VALUES (9, '# Rich')`),
		s(`CREATE TABLE files (id integer primary key, document_id varchar, name varchar, alternative_text text, caption text, focal_point text,
			width integer, height integer, formats text, hash varchar, ext varchar, mime varchar, size float, url text, preview_url text,
			provider varchar, provider_metadata text, folder_path varchar, created_at datetime, updated_at datetime, published_at datetime,
			created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO files VALUES (3, 'ffffffffffffffffffffffff', 'remote.jpg', NULL, NULL, '{"x":1,"y":2}', 10, 20, NULL, 'remote_abc', '.jpg', 'image/jpeg', 1.5,
			'https://bucket.s3.amazonaws.com/remote_abc.jpg', NULL, 'aws-s3', '{"region":"eu-west-3"}', '/', ?, ?, ?, NULL, NULL, NULL)`, ms, ms, ms),
		s(`CREATE TABLE files_related_mph (id integer primary key, file_id integer, related_id integer, related_type varchar, field varchar, "order" float)`),
		s(`INSERT INTO files_related_mph VALUES (1, 3, 2, 'api::article.article', 'cover', 1)`),
		s(`CREATE TABLE up_roles (id integer primary key, document_id varchar, name varchar, description varchar, type varchar,
			created_at datetime, updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO up_roles VALUES (1, 'rrrrrrrrrrrrrrrrrrrrrr01', 'Authenticated', 'Auth', 'authenticated', ?, ?, ?, NULL, NULL, NULL)`, ms, ms, ms),
		s(`INSERT INTO up_roles VALUES (2, 'rrrrrrrrrrrrrrrrrrrrrr02', 'Public', 'Public', 'public', ?, ?, ?, NULL, NULL, NULL)`, ms, ms, ms),
		s(`CREATE TABLE up_permissions (id integer primary key, document_id varchar, action varchar, created_at datetime, updated_at datetime)`),
		s(`INSERT INTO up_permissions (id, action, created_at) VALUES (1, 'api::article.article.find', ?), (2, 'api::article.article.findOne', ?),
			(3, 'plugin::users-permissions.auth.callback', ?), (4, 'api::category.category.find', ?), (5, 'api::tag.tag.find', ?), (6, 'api::tag.tag.findOne', ?),
			(7, 'api::pin.pin.find', ?), (8, 'plugin::users-permissions.user.find', ?), (9, 'plugin::users-permissions.user.findOne', ?)`,
			ms, ms, ms, ms, ms, ms, ms, ms, ms),
		s(`CREATE TABLE up_permissions_role_lnk (id integer primary key, permission_id integer, role_id integer, permission_ord float)`),
		s(`INSERT INTO up_permissions_role_lnk VALUES (1, 1, 2, 1), (2, 2, 2, 2), (3, 3, 2, 3), (4, 4, 2, 4), (5, 5, 2, 5), (6, 6, 2, 6), (7, 7, 2, 7), (8, 8, 2, 8), (9, 9, 2, 9)`),
		s(`CREATE TABLE up_users (id integer primary key, document_id varchar, username varchar, email varchar, provider varchar,
			password varchar, reset_password_token varchar, confirmation_token varchar, confirmed boolean, blocked boolean,
			created_at datetime, updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar, phone varchar)`),
		s(`INSERT INTO up_users VALUES (7, 'uuuuuuuuuuuuuuuuuuuuuu07', 'carol', 'Carol@Example.com', 'local', ?, NULL, NULL, 1, 0, ?, ?, ?, NULL, NULL, NULL, '555')`,
			pwHash, ms, ms, ms),
		// The project's user extension (phone, avatar) and an article's
		// relation to a user.
		s(`INSERT INTO files_related_mph VALUES (3, 3, 7, 'plugin::users-permissions.user', 'avatar', 1)`),
		s(`CREATE TABLE articles_owner_lnk (id integer primary key, article_id integer, user_id integer, article_ord float)`),
		s(`INSERT INTO articles_owner_lnk VALUES (1, 1, 7, 1), (2, 2, 7, 1)`),
		s(`CREATE TABLE up_users_role_lnk (id integer primary key, user_id integer, role_id integer, user_ord float)`),
		s(`INSERT INTO up_users_role_lnk VALUES (1, 7, 1, 1)`),
		s(`CREATE TABLE admin_users (id integer primary key, document_id varchar, firstname varchar, lastname varchar, username varchar,
			email varchar, password varchar, is_active boolean, blocked boolean, created_at datetime, updated_at datetime)`),
		s(`INSERT INTO admin_users VALUES (1, 'dddddddddddddddddddddd01', 'Ada', NULL, NULL, 'ada@example.com', ?, 1, 0, ?, ?)`, pwHash, ms, ms),
		s(`CREATE TABLE strapi_api_tokens (id integer primary key, document_id varchar, name varchar, description varchar, kind varchar,
			type varchar, access_key varchar, encrypted_key text, last_used_at datetime, expires_at datetime, lifespan bigint,
			created_at datetime, updated_at datetime)`),
		s(`INSERT INTO strapi_api_tokens VALUES (5, 'kkkkkkkkkkkkkkkkkkkkkk05', 'reader', '', 'content-api', 'custom', ?, NULL, NULL, NULL, NULL, ?, ?)`,
			tokenDigest, ms, ms),
		s(`CREATE TABLE strapi_api_token_permissions (id integer primary key, action varchar)`),
		s(`INSERT INTO strapi_api_token_permissions VALUES (1, 'api::tag.tag.find')`),
		s(`CREATE TABLE strapi_api_token_permissions_token_lnk (id integer primary key, api_token_permission_id integer, api_token_id integer)`),
		s(`INSERT INTO strapi_api_token_permissions_token_lnk VALUES (1, 1, 5)`),
		s(`CREATE TABLE strapi_webhooks (id integer primary key, name varchar, url text, headers text, events text, enabled boolean)`),
		s(`INSERT INTO strapi_webhooks VALUES (4, 'site build', 'https://ci.example.com/build', '{"X-Token":"abc"}', '["entry.publish","releases.publish"]', 1),
			(6, 'bad', 'ftp://example.com', '{}', '["entry.create"]', 0)`),
		// A component in a component, with a relation and a media field;
		// a relation of tags to tags.
		s(`CREATE TABLE components_shared_seos_cmps (id integer primary key, entity_id integer, cmp_id integer, component_type varchar, field varchar, "order" float)`),
		s(`INSERT INTO components_shared_seos_cmps VALUES (1, 5, 12, 'shared.link', 'links', 2), (2, 5, 11, 'shared.link', 'links', 1)`),
		s(`CREATE TABLE components_shared_links (id integer primary key, label varchar)`),
		s(`INSERT INTO components_shared_links VALUES (11, 'L1'), (12, 'L2')`),
		s(`CREATE TABLE components_shared_links_tag_lnk (id integer primary key, link_id integer, tag_id integer)`),
		s(`INSERT INTO components_shared_links_tag_lnk VALUES (1, 11, 2)`),
		s(`INSERT INTO files_related_mph VALUES (2, 3, 12, 'shared.link', 'icon', 1)`),
		// The order is tag_ord's (neither the ids' nor inv_tag_ord's).
		s(`CREATE TABLE tags_related_lnk (id integer primary key, tag_id integer, inv_tag_id integer, tag_ord float, inv_tag_ord float)`),
		s(`INSERT INTO tags_related_lnk VALUES (1, 1, 1, 2, 1), (2, 1, 2, 1, 2)`),
		// Polymorphic relations: morphToOne in the owner's row (target_id,
		// target_type), morphToMany in pins_items_mph, ordered by "order"
		// (not by id); a draft's and a published row's ids are the same
		// document; a type the project lacks and a missing row are left out.
		s(`CREATE TABLE pins (id integer primary key, document_id varchar, label varchar, target_id integer, target_type varchar,
			created_at datetime, updated_at datetime, published_at datetime, created_by_id integer, updated_by_id integer, locale varchar)`),
		s(`INSERT INTO pins VALUES (1, 'pinpinpinpinpinpinpin001', 'first', 1, 'api::article.article', ?, ?, ?, NULL, NULL, NULL),
			(2, 'pinpinpinpinpinpinpin002', 'second', 2, 'api::tag.tag', ?, ?, ?, NULL, NULL, NULL),
			(3, 'pinpinpinpinpinpinpin003', 'empty', NULL, NULL, ?, ?, ?, NULL, NULL, NULL),
			(4, 'pinpinpinpinpinpinpin004', 'elsewhere', 1, 'api::page.page', ?, ?, ?, NULL, NULL, NULL)`,
			ms, ms, ms, ms, ms, ms, ms, ms, ms, ms, ms, ms),
		s(`CREATE TABLE pins_items_mph (id integer primary key, pin_id integer, items_id integer, items_type varchar, field varchar, "order" float)`),
		s(`INSERT INTO pins_items_mph VALUES (1, 1, 1, 'api::tag.tag', NULL, 3), (2, 1, 2, 'api::article.article', NULL, 1),
			(3, 1, 2, 'api::tag.tag', NULL, 2), (4, 1, 1, 'api::article.article', NULL, 4), (5, 1, 9, 'api::tag.tag', NULL, 5),
			(6, 2, 2, 'api::category.category', NULL, 1), (7, 3, 1, 'api::page.page', NULL, 1)`),
		// A polymorphic list per version: the draft's and the published row's.
		s(`CREATE TABLE articles_mentions_mph (id integer primary key, article_id integer, mentions_id integer, mentions_type varchar, field varchar, "order" float)`),
		s(`INSERT INTO articles_mentions_mph VALUES (1, 1, 1, 'api::tag.tag', NULL, 1), (2, 2, 2, 'api::tag.tag', NULL, 2), (3, 2, 1, 'api::category.category', NULL, 1)`),
		// A type whose schema file the project does not have.
		s(`CREATE TABLE pages (id integer primary key, document_id varchar, title varchar)`),
		s(`INSERT INTO pages VALUES (1, 'pppppppppppppppppppppppp', 'About')`),
	})
}

// TestImportStrapiSQLite imports a Strapi database on SQLite.
func TestImportStrapiSQLite(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("Carol-pass-1"), 10)
	if err != nil {
		t.Fatal(err)
	}
	token := strings.Repeat("0123456789abcdef", 16) // Strapi's tokens are 256 hex digits
	salt := strapiEnv["API_TOKEN_SALT"]
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(token))
	from := strapiSQLite(t, string(hash), hex.EncodeToString(m.Sum(nil)))
	credentials["sqlite-token"] = token
	testdb.Each(t, func(t *testing.T, dbURL func(testing.TB) string) {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "project"))); err != nil {
			t.Fatal(err)
		}
		db := dbURL(t)
		interrupted(t, from, dir, db, 3)
		rep := runImport(t, from, dir, db, "") // finishes the interrupted import
		for k, n := range map[string]int{"api::article.article": 2, "api::category.category": 2, "api::tag.tag": 2, "files": 1,
			"api::pin.pin": 4, "users": 1, "roles": 2, "permissions": 9, "admins": 1, "API tokens": 1, "webhooks": 1} {
			if rep.Counts[k] != n {
				t.Errorf("%s: %d imported, want %d (%v)", k, rep.Counts[k], n, rep.Counts)
			}
		}
		for _, want := range []string{"pages (1 rows): no content type of the project has this table", "webhook 6 (bad): url must be a valid http or https URL"} {
			if !strings.Contains(strings.Join(rep.Skipped, "\n"), want) {
				t.Errorf("the report does not say %q: %v", want, rep.Skipped)
			}
		}
		if strings.Contains(strings.Join(rep.Skipped, "\n"), "webhooks are not imported") {
			t.Errorf("the report says webhooks are skipped: %v", rep.Skipped)
		}
		if !strings.Contains(strings.Join(rep.Warnings, "\n"), "webhook 4 (site build): event releases.publish is not sent by Stratum") {
			t.Errorf("warnings: %v", rep.Warnings)
		}
		srv := serve(t, dir, db)
		get := func(path, cred string, body json.RawMessage) (int, string) {
			var a answer
			a.Request.Method, a.Request.Path, a.Request.Credential, a.Request.Body = "GET", path, cred, body
			if body != nil {
				a.Request.Method = "POST"
			}
			st, v := ask(t, srv, a)
			b, _ := json.Marshal(v)
			return st, string(b)
		}
		cases := []struct{ name, path, cred, body, want string }{
			{"published with relations, components, media", "/api/articles?populate[category][fields][0]=name&populate[tags][fields][0]=name&populate[seo]=true&populate[blocks]=true&populate[cover]=true&fields[0]=title&fields[1]=featured&fields[2]=publishedDate&fields[3]=rating", "public", "",
				`{"data":[{"blocks":[{"__component":"shared.quote","body":"quoted","id":4,"title":"Q"},{"__component":"shared.rich-text","body":"# Rich","id":9}],` +
					`"category":{"documentId":"cccccccccccccccccccccccc","id":1,"name":"Science"},` +
					`"cover":{"alternativeText":null,"caption":null,"focalPoint":{"x":1,"y":2},"createdAt":"2026-11-18T11:06:40.000Z","documentId":"ffffffffffffffffffffffff","ext":".jpg","formats":null,"hash":"remote_abc","height":20,"id":3,"mime":"image/jpeg","name":"remote.jpg","previewUrl":null,"provider":"aws-s3","provider_metadata":{"region":"eu-west-3"},"publishedAt":"2026-11-18T11:06:40.000Z","size":1.5,"updatedAt":"2026-11-18T11:06:40.000Z","url":"https://bucket.s3.amazonaws.com/remote_abc.jpg","width":10},` +
					`` +
					`"documentId":"aaaaaaaaaaaaaaaaaaaaaaaa","featured":false,"id":2,"publishedDate":"2024-03-01","rating":4.5,"seo":{"id":5,"metaDescription":null,"metaTitle":"SEO title"},` +
					`"tags":[{"documentId":"tttttttttttttttttttttt02","id":2,"name":"two"},{"documentId":"tttttttttttttttttttttt01","id":1,"name":"one"}],"title":"First"}],` +
					`"meta":{"pagination":{"page":1,"pageCount":1,"pageSize":25,"total":1}}}`},
			{"draft", "/api/articles/aaaaaaaaaaaaaaaaaaaaaaaa?status=draft&fields[0]=title&fields[1]=featured&fields[2]=updatedAt&fields[3]=body", "public", "",
				`{"data":{"body":[{"children":[{"text":"Hello","type":"text"}],"type":"paragraph"}],"documentId":"aaaaaaaaaaaaaaaaaaaaaaaa","featured":true,"id":1,"title":"First (draft)","updatedAt":"2026-11-18T11:06:41.000Z"},"meta":{}}`},
			{"relation to a user with the extension's fields", "/api/articles?fields[0]=title&populate[owner][fields][0]=username&populate[owner][fields][1]=phone", "public", "",
				`{"data":[{"documentId":"aaaaaaaaaaaaaaaaaaaaaaaa","id":2,"owner":{"documentId":"uuuuuuuuuuuuuuuuuuuuuu07","id":7,"phone":"555","username":"carol"},"title":"First"}],` +
					`"meta":{"pagination":{"page":1,"pageCount":1,"pageSize":25,"total":1}}}`},
			{"a user's extension media", "/api/users/7?fields[0]=username&populate=avatar", "public", "",
				`{"avatar":{"alternativeText":null,"caption":null,"focalPoint":{"x":1,"y":2},"createdAt":"2026-11-18T11:06:40.000Z","documentId":"ffffffffffffffffffffffff","ext":".jpg","formats":null,"hash":"remote_abc","height":20,"id":3,"mime":"image/jpeg","name":"remote.jpg","previewUrl":null,"provider":"aws-s3","provider_metadata":{"region":"eu-west-3"},"publishedAt":"2026-11-18T11:06:40.000Z","size":1.5,"updatedAt":"2026-11-18T11:06:40.000Z","url":"https://bucket.s3.amazonaws.com/remote_abc.jpg","width":10},` +
					`"documentId":"uuuuuuuuuuuuuuuuuuuuuu07","id":7,"username":"carol"}`},
			{"locale", "/api/categories?locale=fr&fields[0]=name", "public", "",
				`{"data":[{"documentId":"cccccccccccccccccccccccc","id":2,"name":"Sciences"}],"meta":{"pagination":{"page":1,"pageCount":1,"pageSize":25,"total":1}}}`},
			{"a component in a component: relation, media, order", "/api/articles/aaaaaaaaaaaaaaaaaaaaaaaa?fields[0]=title&populate[seo][populate][links][populate][tag][fields][0]=name&populate[seo][populate][links][populate][icon][fields][0]=url", "public", "",
				`{"data":{"documentId":"aaaaaaaaaaaaaaaaaaaaaaaa","id":2,"title":"First","seo":{"id":5,"metaTitle":"SEO title","metaDescription":null,"links":[` +
					`{"id":11,"label":"L1","icon":null,"tag":{"documentId":"tttttttttttttttttttttt02","id":2,"name":"two"}},` +
					`{"id":12,"label":"L2","tag":null,"icon":{"alternativeText":null,"caption":null,"focalPoint":{"x":1,"y":2},"createdAt":"2026-11-18T11:06:40.000Z","documentId":"ffffffffffffffffffffffff","ext":".jpg","formats":null,"hash":"remote_abc","height":20,"id":3,"mime":"image/jpeg","name":"remote.jpg","previewUrl":null,"provider":"aws-s3","provider_metadata":{"region":"eu-west-3"},"publishedAt":"2026-11-18T11:06:40.000Z","size":1.5,"updatedAt":"2026-11-18T11:06:40.000Z","url":"https://bucket.s3.amazonaws.com/remote_abc.jpg","width":10}}]}},"meta":{}}`},
			{"a relation of a type to itself", "/api/tags/tttttttttttttttttttttt01?fields[0]=name&populate[related][fields][0]=name", "public", "",
				`{"data":{"documentId":"tttttttttttttttttttttt01","id":1,"name":"one","related":[{"documentId":"tttttttttttttttttttttt02","id":2,"name":"two"},{"documentId":"tttttttttttttttttttttt01","id":1,"name":"one"}]},"meta":{}}`},
			{"custom token", "/api/tags?fields[0]=name&sort=id", "sqlite-token", "",
				`{"data":[{"documentId":"tttttttttttttttttttttt01","id":1,"name":"one"},{"documentId":"tttttttttttttttttttttt02","id":2,"name":"two"}],"meta":{"pagination":{"page":1,"pageCount":1,"pageSize":25,"total":2}}}`},
			{"custom token: no other permission", "/api/articles", "sqlite-token", "",
				`{"data":null,"error":{"details":{},"message":"Forbidden","name":"ForbiddenError","status":403}}`},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, got := get(c.path, c.cred, nil)
				var w, g any
				_ = json.Unmarshal([]byte(c.want), &w)
				_ = json.Unmarshal([]byte(got), &g)
				var d []string
				diff("body", w, g, &d)
				if len(d) > 0 {
					t.Errorf("GET %s:\n  %v\n got %s", c.path, d, got)
				}
			})
		}
		// Polymorphic relations, populated: the documents in Strapi's
		// order, each with its __type, in the reader's version and locale.
		for _, c := range []struct{ path, want string }{
			{"/api/pins?populate=target&sort=id", `first: api::article.article aaaaaaaaaaaaaaaaaaaaaaaa First | second: api::tag.tag tttttttttttttttttttttt02 two | empty: null | elsewhere: null`},
			// Strapi keeps every morphToOne of a type in target_id, target_type.
			{"/api/pins?populate=also&sort=id&filters[id][$lte]=2", `first: api::article.article aaaaaaaaaaaaaaaaaaaaaaaa First | second: api::tag.tag tttttttttttttttttttttt02 two`},
			{"/api/pins?populate=items&sort=id", `first: [api::article.article aaaaaaaaaaaaaaaaaaaaaaaa First, api::tag.tag tttttttttttttttttttttt02 two, api::tag.tag tttttttttttttttttttttt01 one] | ` +
				`second: [api::category.category cccccccccccccccccccccccc Science] | empty: [] | elsewhere: []`},
			// Row 1 is the article's draft: the published version answers.
			{"/api/articles?populate=mentions&fields[0]=title", `: [api::category.category cccccccccccccccccccccccc Science, api::tag.tag tttttttttttttttttttttt02 two]`},
			{"/api/articles?populate=mentions&fields[0]=title&status=draft", `: [api::tag.tag tttttttttttttttttttttt01 one]`},
			{"/api/pins?populate[items]=true&populate[target]=true&filters[label][$eq]=first", `first: api::article.article aaaaaaaaaaaaaaaaaaaaaaaa First [api::article.article aaaaaaaaaaaaaaaaaaaaaaaa First, api::tag.tag tttttttttttttttttttttt02 two, api::tag.tag tttttttttttttttttttttt01 one]`},
		} {
			st, got := get(c.path, "public", nil)
			if st != 200 {
				t.Errorf("GET %s: %d %s", c.path, st, got)
				continue
			}
			if s := morphSummary(t, got); s != c.want {
				t.Errorf("GET %s:\n got  %s\n want %s\n%s", c.path, s, c.want, got)
			}
		}
		for _, want := range []string{"api::pin.pin row 4: target: api::page.page 1 is not a content type of the project",
			"api::pin.pin row 1: items: api::tag.tag row 9 not found", "api::pin.pin row 3: items: api::page.page 1 is not a content type",
			"api::pin.pin: target, also are morphToOne relations, which Strapi keeps in the same two columns"} {
			if !strings.Contains(strings.Join(rep.Warnings, "\n"), want) {
				t.Errorf("the report does not warn %q: %v", want, rep.Warnings)
			}
		}
		st, got := get("/api/auth/local", "public", json.RawMessage(`{"identifier":"carol@example.com","password":"Carol-pass-1"}`))
		if st != 200 || !json.Valid([]byte(got)) || !contains(got, `"username":"carol"`) {
			t.Errorf("login with the imported hash: %d %s", st, got)
		}
		// The roles have Strapi's permissions, not a new project's: the
		// public role of this Strapi may not register.
		st, got = get("/api/auth/local/register", "public", json.RawMessage(`{"username":"dave","email":"dave@example.com","password":"Dave-pass-1"}`))
		if st != 403 {
			t.Errorf("register, which Strapi's public role may not: %d %s", st, got)
		}
		st, got = get("/admin/login", "public", json.RawMessage(`{"email":"ada@example.com","password":"Carol-pass-1"}`))
		if st != 200 || !contains(got, `"token"`) {
			t.Fatalf("admin login with the imported hash: %d %s", st, got)
		}
		var login struct{ Data struct{ Token string } }
		_ = json.Unmarshal([]byte(got), &login)
		req, _ := http.NewRequest("GET", srv+"/admin/webhooks", nil)
		req.Header.Set("Authorization", "Bearer "+login.Data.Token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var hooks struct{ Data []map[string]any }
		_ = json.Unmarshal(b, &hooks)
		if res.StatusCode != 200 || len(hooks.Data) != 1 || hooks.Data[0]["id"] != 4.0 || hooks.Data[0]["url"] != "https://ci.example.com/build" ||
			short(hooks.Data[0]["events"]) != `["entry.publish"]` || short(hooks.Data[0]["headers"]) != `{"X-Token":"abc"}` || hooks.Data[0]["isEnabled"] != true {
			t.Errorf("the imported webhooks: %d %s", res.StatusCode, b)
		}
	})
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// morphSummary writes the pins of a list answer and their populated
// polymorphic relations as "label: __type documentId title-or-name ...".
func morphSummary(t *testing.T, body string) string {
	t.Helper()
	var res struct {
		Data []map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	one := func(raw json.RawMessage) string {
		var d map[string]any
		if json.Unmarshal(raw, &d) != nil || d == nil {
			return "null"
		}
		name, _ := d["title"].(string)
		if name == "" {
			name, _ = d["name"].(string)
		}
		return fmt.Sprintf("%v %v %s", d["__type"], d["documentId"], name)
	}
	var out []string
	for _, p := range res.Data {
		var label string
		_ = json.Unmarshal(p["label"], &label)
		line := label + ":"
		if raw, ok := p["mentions"]; ok {
			p["items"] = raw
		}
		if raw, ok := p["also"]; ok {
			p["target"] = raw
		}
		if raw, ok := p["target"]; ok {
			line += " " + one(raw)
		}
		if raw, ok := p["items"]; ok {
			var items []json.RawMessage
			_ = json.Unmarshal(raw, &items)
			parts := make([]string, len(items))
			for i, it := range items {
				parts[i] = one(it)
			}
			line += " [" + strings.Join(parts, ", ") + "]"
		}
		out = append(out, line)
	}
	return strings.Join(out, " | ")
}

// failAfter is the Stratum database, failing after n transactions (an
// import interrupted: a crash, a lost connection, Ctrl-C).
type failAfter struct {
	*store.Store
	n int
}

func (f *failAfter) Import(ctx context.Context, fn func(*store.ImportTx) error) error {
	if f.n == 0 {
		return errors.New("interrupted")
	}
	f.n--
	return f.Store.Import(ctx, fn)
}

// interrupted runs an import that stops after n transactions of one row.
func interrupted(t *testing.T, from, dir, dbURL string, n int) {
	t.Helper()
	ctx := context.Background()
	src, err := store.OpenStrapiSource(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := openApp(t, dir, dbURL)
	defer a.Close()
	_, err = strapiimport.Run(ctx, src, &failAfter{a.Store, n}, strapiimport.Options{Schema: a.Engine.Registry.Current().Schema,
		Project: dir, Batch: 1})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("the interrupted import: %v", err)
	}
}
