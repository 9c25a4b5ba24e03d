package strapiimport

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// locales reads Strapi's locales (i18n_locale and the default in the core
// store) and writes them to config/plugins.json when the project has no
// locales configured: Stratum reads locales from configuration.
func (im *importer) locales() error {
	im.defLoc = "en"
	if im.src.Has("strapi_core_store_settings", "key", "value") {
		err := im.src.Rows(im.ctx, "strapi_core_store_settings", []string{"key", "value"}, []string{"id"}, func(r map[string]any) error {
			if str(r["key"]) == "plugin_i18n_default_locale" {
				var l string
				if json.Unmarshal([]byte(str(r["value"])), &l) == nil && l != "" {
					im.defLoc = l
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var codes []string
	if im.src.Has("i18n_locale", "code") {
		err := im.src.Rows(im.ctx, "i18n_locale", []string{"code"}, []string{"id"}, func(r map[string]any) error {
			if c := str(r["code"]); c != "" {
				codes = append(codes, c)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	im.rep.Counts["locales"] = len(codes)
	localized := false
	for _, ct := range im.o.Schema.Types {
		localized = localized || ct.Localized
	}
	if len(codes) == 0 || !localized || im.o.Project == "" {
		return nil
	}
	// The default first, the others in Strapi's order.
	sort.SliceStable(codes, func(i, j int) bool { return codes[i] == im.defLoc && codes[j] != im.defLoc })
	return writeLocales(filepath.Join(im.o.Project, "config", "plugins.json"), codes, im.defLoc, im.rep)
}

// writeLocales sets i18n's locales in plugins.json, unless some are set.
func writeLocales(file string, codes []string, def string, rep *Report) error {
	cfg := map[string]any{}
	if b, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	i18n, _ := cfg["i18n"].(map[string]any)
	if i18n == nil {
		i18n = map[string]any{}
	}
	c, _ := i18n["config"].(map[string]any)
	if c == nil {
		c = map[string]any{}
	}
	if have, ok := c["locales"].([]any); ok && len(have) > 0 {
		rep.warn("%s already lists locales %v: kept (Strapi's are %v, default %s)", file, have, codes, def)
		return nil
	}
	c["locales"], c["defaultLocale"] = codes, def
	i18n["config"] = c
	cfg["i18n"] = i18n
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}
