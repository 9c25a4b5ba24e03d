package engine

import (
	"regexp"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// localeRe is the BCP-47-like shape Strapi checks locale codes against.
var localeRe = regexp.MustCompile(`^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$`)

// localizationsField is the virtual relation of a localized type to its
// other locales, returned only when populated.
const localizationsField = "localizations"

// Locales lists the configured locales; the first is the default.
func (e *Engine) Locales() []string {
	out := []string{e.cfg.DefaultLocale}
	for _, l := range e.cfg.Locales {
		if l != e.cfg.DefaultLocale {
			out = append(out, l)
		}
	}
	return out
}

// checkLocale refuses a locale that is not configured. Types that are not
// localized ignore the parameter, as Strapi does.
func (e *Engine) checkLocale(ct *models.ContentType, l string) error {
	if !ct.Localized || l == "" || l == query.AllLocales {
		return nil
	}
	if len(l) > 35 || !localeRe.MatchString(l) {
		return &errs.Error{Kind: errs.KindValidation, Message: "Invalid locale " + l,
			Details: map[string]any{"key": "locale", "value": l, "source": "query", "param": "locale"}}
	}
	for _, c := range e.Locales() {
		if c == l {
			return nil
		}
	}
	return &errs.Error{Kind: errs.KindValidation, Message: "Locale " + l + " is not one of the configured locales: " + strings.Join(e.Locales(), ", "),
		Details: map[string]any{"key": "locale", "value": l, "source": "query", "param": "locale"}}
}

// localizations fills the `localizations` of localized documents: their
// other locales in the same version, one query for the page.
func (p *populator) localizations(ct *models.ContentType, rows []Row, docs []*Document, sub *query.Populate, v Version) error {
	ids := make([]string, 0, len(rows))
	for i := range rows {
		ids = append(ids, rows[i].DocumentID)
	}
	fields, _ := resolveFields(ct, sub.Fields)
	trows, err := p.e.list(p.ctx, ct, &ListQuery{Version: v, Locale: query.AllLocales, Limit: -1, DocumentIDs: ids})
	if err != nil {
		return err
	}
	for i := range rows {
		r := Related{Name: localizationsField, IsList: true, Many: []*Document{}}
		for j := range trows {
			if trows[j].DocumentID == rows[i].DocumentID && trows[j].Locale != rows[i].Locale {
				r.Many = append(r.Many, shape(ct, &trows[j], fields))
			}
		}
		docs[i].Related = append(docs[i].Related, r)
	}
	return nil
}

// sharedAttributes are the attributes a localized type keeps the same in
// every locale (pluginOptions.i18n.localized: false on the attribute).
func sharedAttributes(ct *models.ContentType) []*models.Attribute {
	var out []*models.Attribute
	for _, a := range ct.Attributes {
		// Passwords are already hashed: they stay per locale.
		if !a.Localized() && a.Type != models.TypePassword {
			out = append(out, a)
		}
	}
	return out
}

// sharedValue is a shared attribute's value as another locale receives
// it: a component's or a zone's items without their ids (ids belong to
// the row that holds them), so each locale gets items of its own, as
// Strapi gives each locale its own component rows.
func sharedValue(s *models.Schema, a *models.Attribute, v any) any {
	switch a.Type {
	case models.TypeComponent:
		c := s.Component(a.Component)
		if a.Repeatable {
			list, ok := v.([]any)
			if !ok {
				return v
			}
			out := make([]any, len(list))
			for i, it := range list {
				out[i] = withoutItemIDs(s, c, it)
			}
			return out
		}
		return withoutItemIDs(s, c, v)
	case models.TypeDynamicZone:
		list, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(list))
		for i, it := range list {
			m, _ := it.(map[string]any)
			uid, _ := m["__component"].(string)
			out[i] = withoutItemIDs(s, s.Component(uid), it)
		}
		return out
	}
	return v
}

// withoutItemIDs copies one component item without its id, and its
// nested components' items without theirs.
func withoutItemIDs(s *models.Schema, c *models.Component, v any) any {
	m, ok := v.(map[string]any)
	if !ok || c == nil {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if k == "id" {
			continue
		}
		if a := c.Attr(k); a != nil && a.Type == models.TypeComponent {
			x = sharedValue(s, a, x)
		}
		out[k] = x
	}
	return out
}

// localize handles a PUT in a locale the document does not have yet: like
// Strapi 5, it creates that localization (shared attributes copied from an
// existing locale). A document that exists in no locale is a 404.
func (e *Engine) localize(tx Tx, c Collection, documentID string, data map[string]any, st query.Status, locale string, v Version) (*Row, error) {
	if !c.Type.Localized {
		return nil, errs.NotFound()
	}
	other, err := tx.Get(c.Type, documentID, query.AllLocales, v)
	if err != nil || other == nil {
		if err == nil {
			err = errs.NotFound()
		}
		return nil, err
	}
	shared := sharedAttributes(c.Type)
	if len(shared) > 0 {
		existing := map[string]any{}
		decodeInto(other.Data, existing)
		decodeInto(other.Extra, existing)
		merged := make(map[string]any, len(data)+len(shared))
		for _, a := range shared {
			if val, ok := existing[a.Name]; ok {
				merged[a.Name] = sharedValue(c.Schema, a, val)
			}
		}
		for k, val := range data {
			merged[k] = val
		}
		data = merged
	}
	return e.create(tx, c, documentID, data, st, locale)
}

// syncLocales gives the document's other locales the non-localized
// attributes an update of one locale changed, as Strapi keeps them equal
// across locales. Drafts change (and rows of types without draft &
// publish); a published version follows when that locale is published.
func (e *Engine) syncLocales(tx Tx, c Collection, documentID, locale string, data map[string]any) error {
	ct := c.Type
	shared := map[string]any{}
	for _, a := range sharedAttributes(ct) {
		if v, ok := data[a.Name]; ok {
			shared[a.Name] = sharedValue(c.Schema, a, v)
		}
	}
	if len(shared) == 0 {
		return nil
	}
	rows, err := tx.AllRows(ct, []string{documentID})
	if err != nil {
		return err
	}
	now := e.now()
	for i := range rows {
		r := &rows[i]
		if r.Locale == locale || (ct.HasDraftAndPublish() && r.PublishedAt != nil) {
			continue
		}
		w := &writer{e: e, tx: tx, schema: c.Schema, ct: ct, locale: r.Locale, documentID: documentID,
			publish: !ct.HasDraftAndPublish(), update: true}
		dataJSON, extraJSON, err := w.prepare(r, shared)
		if err != nil {
			return err
		}
		r.Data, r.Extra, r.UpdatedAt = dataJSON, extraJSON, now
		if err := tx.Update(ct, r); err != nil {
			return err
		}
		if err := w.applyInverse(); err != nil {
			return err
		}
	}
	return nil
}

// LocaleName is Strapi's display name of a locale: "French (fr)".
func LocaleName(code string) string {
	tag, err := language.Parse(code)
	if err != nil {
		return code
	}
	name := display.English.Tags().Name(tag)
	if name == "" || strings.EqualFold(name, code) {
		return code
	}
	return name + " (" + code + ")"
}
