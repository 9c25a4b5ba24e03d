package rest_test

import (
	"strings"
	"testing"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/internal/testenv"
	"github.com/stratum-cms/stratum/rest"
)

func TestLocalesEndpoint(t *testing.T) {
	testenv.Each(t, func(t *testing.T, db func(testing.TB) string) {
		cfg := engine.Config{Locales: []string{"fr", "en", "pt-BR"}, DefaultLocale: "en"}
		e := testenv.Start(t, db(t), testenv.Options{Config: cfg, Public: []string{rest.ActionListLocales}})
		r := e.Do("GET", "/api/i18n/locales", nil)
		if r.Status != 200 {
			t.Fatalf("locales: %d %s", r.Status, r.Body)
		}
		testenv.Golden(t, "i18n_locales", r.Body)
		closed := testenv.Start(t, db(t), testenv.Options{Config: cfg, Public: []string{}})
		if r := closed.Do("GET", "/api/i18n/locales", nil); r.Status != 403 {
			t.Fatalf("without the permission: %d", r.Status)
		}
		// The GraphQL plugin's queries, behind the same permission.
		q := map[string]any{"query": `{ i18NLocales { data { id attributes { name code isDefault } } meta { pagination { total } } }
			one: i18NLocale(id: "2") { data { attributes { code } } } none: i18NLocale(id: "9") { data { id } } }`}
		r = e.Do("POST", "/graphql", q)
		want := `{"data":{"i18NLocales":{"data":[{"id":"1","attributes":{"name":"English (en)","code":"en","isDefault":true}},` +
			`{"id":"2","attributes":{"name":"French (fr)","code":"fr","isDefault":false}},` +
			`{"id":"3","attributes":{"name":"Brazilian Portuguese (pt-BR)","code":"pt-BR","isDefault":false}}],"meta":{"pagination":{"total":3}}},` +
			`"one":{"data":{"attributes":{"code":"fr"}}},"none":{"data":null}}}`
		if strings.TrimSpace(string(r.Body)) != want {
			t.Fatalf("graphql locales:\n%s\nwant\n%s", r.Body, want)
		}
		if r := closed.Do("POST", "/graphql", q); !strings.Contains(string(r.Body), "Forbidden") {
			t.Fatalf("graphql without the permission: %s", r.Body)
		}
	})
}
