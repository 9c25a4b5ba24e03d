package rest_test

import (
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
	})
}
