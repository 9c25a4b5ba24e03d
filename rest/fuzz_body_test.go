package rest_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stratum-cms/stratum/internal/testenv"
)

// FuzzCreateBody sends arbitrary bytes as the JSON body of a create through
// the whole stack (body reader, decoder, validation, relations, SQLite):
// never a 500, always Strapi's envelope.
func FuzzCreateBody(f *testing.F) {
	for _, seed := range []string{
		`{"data":{"title":"x"}}`, `{"data":{"title":"x","views":"3","rating":4.5,"featured":"t","kind":"news"}}`,
		`{"data":{"title":"x","content":[{"type":"paragraph","children":[{"type":"text","text":"a"}]}]}}`,
		`{"data":{"title":"x","seo":{"metaTitle":"m"},"quotes":[{"body":"b"}],"blocks":[{"__component":"shared.quote","body":"q"}]}}`,
		`{"data":{"title":"x","tags":{"connect":[{"documentId":"x","position":{"before":"y"}}]}}}`,
		`{"data":{"title":"\u0000"}}`, "{\"data\":{\"title\":\"\xff\"}}", `{"data":[1,2]}`, `[{"data":{}}]`, `{"data":{"title":"x"}} trailing`,
		`{"data":{"publishDate":"2024-02-30","publishTime":"25:00","scheduledAt":"1e400","shares":"99999999999999999999"}}`,
	} {
		f.Add([]byte(seed))
	}
	e := testenv.Start(f, filepath.Join(f.TempDir(), "fuzz.db"), testenv.Options{Public: testenv.AllActions(f, "")})
	f.Fuzz(func(t *testing.T, body []byte) {
		e.T = t
		r := e.Do("POST", "/api/articles", body)
		if r.Status >= 500 {
			t.Fatalf("%q: %d %s", body, r.Status, r.Body)
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(r.Body, &env); err != nil || (r.Status >= 400 && string(env["data"]) != "null") {
			t.Fatalf("%q: not an envelope: %d %s", body, r.Status, r.Body)
		}
	})
}
