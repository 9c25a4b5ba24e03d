package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/ids"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// WriteOptions carries the query parameters of a write.
type WriteOptions struct {
	Status query.Status
	Locale string
}

// Create makes a document (POST /api/:plural): published unless the status
// is Draft, in one transaction.
func (e *Engine) Create(ctx context.Context, acc Access, c Collection, data map[string]any, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		return e.save(ctx, acc, c, "create", data, opt, func(tx Tx, locale string) (*Row, bool, error) {
			r, err := e.create(tx, c, ids.NewDocumentID(), data, opt.Status, locale)
			return r, true, err
		})
	})
}

// Update changes a document (PUT /api/:plural/:documentId): a partial
// update of the draft, then a publish unless the status is Draft.
func (e *Engine) Update(ctx context.Context, acc Access, c Collection, documentID string, data map[string]any, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		return e.save(ctx, acc, c, "update", data, opt, func(tx Tx, locale string) (*Row, bool, error) {
			r, err := e.update(tx, c, documentID, data, opt.Status, locale)
			return r, false, err
		})
	})
}

// save runs one document write: the permission, the locale, the write in
// one transaction, and the written version shaped for the response.
func (e *Engine) save(ctx context.Context, acc Access, c Collection, action string, data map[string]any, opt WriteOptions,
	fn func(tx Tx, locale string) (*Row, bool, error)) (*Document, error) {
	if !acc.Can(c.Type.Action(action)) {
		return nil, errs.Forbidden()
	}
	if err := CheckText(data, "body"); err != nil {
		return nil, err
	}
	if err := checkRelationWrites(c.Schema, acc, c.Type.Attributes, data, ""); err != nil {
		return nil, err
	}
	locale, err := e.writeLocale(c.Type, opt.Locale)
	if err != nil {
		return nil, err
	}
	var out *Row
	err = e.write(ctx, c, data, func(tx Tx) error {
		var created bool
		if out, created, err = fn(tx, locale); err != nil {
			return err
		}
		name := EventUpdate
		if created {
			name = EventCreate
		}
		return e.emitWrite(tx, c.Type, name, out)
	})
	if err != nil {
		return nil, err
	}
	return shape(c.Type, out, nil), nil
}

// checkRelationWrites refuses a body that sets a relation whose target the
// writer may not find: connecting by guessed ids would tell which exist.
// It looks into components and dynamic zones too; values are validated
// later, so only well-formed parts are looked at here.
func checkRelationWrites(s *models.Schema, acc Access, attrs []*models.Attribute, data map[string]any, prefix string) error {
	byName := make(map[string]*models.Attribute, len(attrs))
	for _, a := range attrs {
		byName[a.Name] = a
	}
	for k, v := range data {
		a := byName[k]
		if a == nil || v == nil {
			continue
		}
		path := prefix + k
		switch a.Type {
		case models.TypeRelation:
			if t := s.Type(a.Target); t != nil && !acc.Can(t.Action("find")) {
				return errs.InvalidKey(k, path, "body", "data")
			}
			if a.IsMorph() {
				for _, item := range morphTargets(v) {
					if t := s.Type(item); t != nil && !acc.Can(t.Action("find")) {
						return errs.InvalidKey(k, path, "body", "data")
					}
				}
			}
		case models.TypeComponent:
			c := s.Component(a.Component)
			for i, item := range asList(v) {
				m, ok := item.(map[string]any)
				if !ok || c == nil {
					continue
				}
				sub := path + "."
				if a.Repeatable {
					sub = fmt.Sprintf("%s.%d.", path, i)
				}
				if err := checkRelationWrites(s, acc, c.Attributes, m, sub); err != nil {
					return err
				}
			}
		case models.TypeDynamicZone:
			for i, item := range asList(v) {
				m, ok := item.(map[string]any)
				if !ok {
					continue
				}
				uid, _ := m["__component"].(string)
				if c := s.Component(uid); c != nil {
					if err := checkRelationWrites(s, acc, c.Attributes, m, fmt.Sprintf("%s.%d.", path, i)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// morphTargets lists the __type of every item a polymorphic relation value
// names, in any of its forms (an item, a list, connect/set/disconnect).
func morphTargets(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, it := range x {
				walk(it)
			}
		case map[string]any:
			if t, ok := x["__type"].(string); ok {
				out = append(out, t)
			}
			for _, k := range []string{"connect", "set", "disconnect"} {
				if it, ok := x[k]; ok {
					walk(it)
				}
			}
		}
	}
	walk(v)
	return out
}

// Delete removes a document's versions in a locale (all with `*`) and the
// references other documents hold to it. An unknown document is a 404.
func (e *Engine) Delete(ctx context.Context, acc Access, c Collection, documentID string, opt WriteOptions) error {
	return e.onCurrentSchemaErr(ctx, &c, func() error {
		if !acc.Can(c.Type.Action("delete")) {
			return errs.Forbidden()
		}
		locale := e.locale(c.Type, opt.Locale)
		return e.tx(ctx, c, func(tx Tx) error {
			gone, err := tx.Get(c.Type, documentID, locale, VersionAny)
			if err != nil {
				return err
			}
			n, err := tx.Delete(c.Type, documentID, locale, VersionAny)
			if err != nil {
				return err
			}
			if n == 0 || gone == nil {
				return errs.NotFound()
			}
			if err := tx.Emit(entryEvent(EventDelete, c.Type, gone, e.now())); err != nil {
				return err
			}
			return e.dropReferences(tx, c, documentID)
		})
	})
}

// PutSingle creates or updates the document of a single type.
func (e *Engine) PutSingle(ctx context.Context, acc Access, c Collection, data map[string]any, opt WriteOptions) (*Document, error) {
	return e.onCurrentSchema(ctx, &c, func() (*Document, error) {
		return e.save(ctx, acc, c, "update", data, opt, func(tx Tx, locale string) (*Row, bool, error) {
			if err := tx.Lock(c.Type); err != nil {
				return nil, false, err
			}
			id, err := tx.FirstDocumentID(c.Type)
			if err != nil {
				return nil, false, err
			}
			if id == "" {
				r, err := e.create(tx, c, ids.NewDocumentID(), data, opt.Status, locale)
				return r, true, err
			}
			existing, err := tx.Get(c.Type, id, locale, VersionAny)
			if err != nil {
				return nil, false, err
			}
			if existing == nil { // a new locale of the single document
				r, err := e.create(tx, c, id, data, opt.Status, locale)
				return r, true, err
			}
			r, err := e.update(tx, c, id, data, opt.Status, locale)
			return r, false, err
		})
	})
}

// DeleteSingle removes the document of a single type; 204 even if none.
func (e *Engine) DeleteSingle(ctx context.Context, acc Access, c Collection, opt WriteOptions) error {
	return e.onCurrentSchemaErr(ctx, &c, func() error {
		if !acc.Can(c.Type.Action("delete")) {
			return errs.Forbidden()
		}
		locale := e.locale(c.Type, opt.Locale)
		return e.tx(ctx, c, func(tx Tx) error {
			id, err := tx.FirstDocumentID(c.Type)
			if err != nil || id == "" {
				return err
			}
			gone, err := tx.Get(c.Type, id, locale, VersionAny)
			if err != nil {
				return err
			}
			if _, err := tx.Delete(c.Type, id, locale, VersionAny); err != nil {
				return err
			}
			if gone != nil {
				if err := tx.Emit(entryEvent(EventDelete, c.Type, gone, e.now())); err != nil {
					return err
				}
			}
			return e.dropReferences(tx, c, id)
		})
	})
}

func (e *Engine) dropReferences(tx Tx, c Collection, documentID string) error {
	left, err := tx.Exists(c.Type, []string{documentID})
	if err != nil || left[documentID] {
		return err // other locales still exist: references stay
	}
	for _, ref := range c.Schema.ReferencesTo(c.Type.UID) {
		if err := tx.RemoveReference(ref, documentID); err != nil {
			return err
		}
	}
	for _, ref := range c.Schema.MorphReferences() {
		if err := tx.RemoveMorphReference(ref, c.Type.UID, documentID); err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) writeLocale(ct *models.ContentType, l string) (string, error) {
	if l == query.AllLocales && ct.Localized {
		return "", errs.Errorf(errs.KindValidation, "Cannot write to all locales (locale=*): name one locale")
	}
	if err := e.checkLocale(ct, l); err != nil {
		return "", err
	}
	return e.locale(ct, l), nil
}

// write runs fn in a transaction and turns a unique-index race into the
// same ValidationError the engine's own check gives.
func (e *Engine) write(ctx context.Context, c Collection, data map[string]any, fn func(Tx) error) error {
	err := e.tx(ctx, c, fn)
	if errors.Is(err, ErrUniqueViolation) {
		var fe errs.FieldErrors
		for _, a := range c.Type.Attributes {
			if a.IsUnique() {
				if v, ok := data[a.Name]; ok {
					fe.Add([]string{a.Name}, v, "This attribute must be unique")
				}
			}
		}
		if len(fe) == 0 {
			fe.Add(nil, nil, "This attribute must be unique")
		}
		return fe.Err()
	}
	return err
}

func (e *Engine) create(tx Tx, c Collection, documentID string, data map[string]any, st query.Status, locale string) (*Row, error) {
	ct := c.Type
	publish := st == query.Published || !ct.HasDraftAndPublish()
	w := &writer{e: e, tx: tx, schema: c.Schema, ct: ct, locale: locale, documentID: documentID, publish: publish}
	dataJSON, extraJSON, err := w.prepare(nil, data)
	if err != nil {
		return nil, err
	}
	now := e.now()
	row := &Row{DocumentID: documentID, Locale: locale, CreatedAt: now, UpdatedAt: now, Data: dataJSON, Extra: extraJSON}
	if !ct.HasDraftAndPublish() {
		row.PublishedAt = &now
	}
	rows := []*Row{row} // with draft & publish, the draft always exists
	if ct.HasDraftAndPublish() && publish {
		pub := *row
		pub.PublishedAt = &now
		rows = append(rows, &pub)
	}
	if err := tx.Insert(ct, rows...); err != nil {
		return nil, err
	}
	return rows[len(rows)-1], w.applyInverse()
}

func (e *Engine) update(tx Tx, c Collection, documentID string, data map[string]any, st query.Status, locale string) (*Row, error) {
	ct := c.Type
	v := VersionAny
	if ct.HasDraftAndPublish() {
		v = VersionDraft
	}
	cur, err := tx.Get(ct, documentID, locale, v)
	if err != nil {
		return nil, err
	}
	if cur == nil {
		return e.localize(tx, c, documentID, data, st, locale, v)
	}
	publish := st == query.Published || !ct.HasDraftAndPublish()
	w := &writer{e: e, tx: tx, schema: c.Schema, ct: ct, locale: locale, documentID: documentID, publish: publish, update: true}
	dataJSON, extraJSON, err := w.prepare(cur, data)
	if err != nil {
		return nil, err
	}
	now := e.now()
	cur.Data, cur.Extra, cur.UpdatedAt = dataJSON, extraJSON, now
	if !ct.HasDraftAndPublish() {
		cur.PublishedAt = &now
	}
	if err := tx.Update(ct, cur); err != nil {
		return nil, err
	}
	if ct.HasDraftAndPublish() && publish {
		if cur, err = e.publishRow(tx, ct, cur, now); err != nil {
			return nil, err
		}
	}
	if err := w.applyInverse(); err != nil {
		return nil, err
	}
	if ct.Localized {
		if err := e.syncLocales(tx, c, documentID, locale, data); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// publishRow makes the published version a copy of the draft. The published
// row keeps its id when it exists (Strapi deletes and re-inserts it; clients
// key on documentId, so a stable id only saves work).
func (e *Engine) publishRow(tx Tx, ct *models.ContentType, draft *Row, now time.Time) (*Row, error) {
	pub, err := tx.Get(ct, draft.DocumentID, draft.Locale, VersionPublished)
	if err != nil {
		return nil, err
	}
	if pub == nil {
		p := *draft
		p.ID, p.PublishedAt, p.UpdatedAt = 0, &now, now
		return &p, tx.Insert(ct, &p)
	}
	pub.Data, pub.Extra, pub.PublishedAt, pub.UpdatedAt = draft.Data, draft.Extra, &now, now
	return pub, tx.Update(ct, pub)
}

// writer validates one write body against a type and builds the stored
// columns.
type writer struct {
	e          *Engine
	ctx        context.Context
	tx         Tx
	schema     *models.Schema
	ct         *models.ContentType
	locale     string
	documentID string
	publish    bool // required and unique are checked (not for drafts)
	update     bool
	errs       errs.FieldErrors
	nextID     int64
	inverse    []inverseChange
	// expected are the relation targets the body names, checked together
	// once the body is read: one statement, not one per relation.
	expected []expectation
}

// expectation is one relation value's targets, which must exist; at is
// where in errs its failure goes, to keep the errors in body order.
type expectation struct {
	target *models.ContentType
	ids    []string
	path   []string
	at     int
}

// bodyKeys that Strapi refuses in a body, and publishedAt, which it ignores.
var restrictedBodyKeys = map[string]bool{"id": true, "documentId": true, "createdAt": true, "updatedAt": true,
	"createdBy": true, "updatedBy": true, "localizations": true}

func (w *writer) prepare(cur *Row, data map[string]any) ([]byte, []byte, error) {
	ct := w.ct
	merged := map[string]any{}
	if cur != nil {
		decodeInto(cur.Data, merged)
		decodeInto(cur.Extra, merged)
	}
	w.nextID = maxItemID(merged) + 1
	for k := range data {
		if restrictedBodyKeys[k] {
			return nil, nil, errs.InvalidKey(k, k, "body", k)
		}
		if k == "publishedAt" || (k == "locale" && ct.Localized) {
			continue // publication is driven by status, the locale by the query
		}
		a := ct.Attr(k)
		if a == nil || !a.IsWritable() {
			return nil, nil, errs.InvalidKey(k, k, "body", k)
		}
	}
	if cur == nil {
		for _, a := range ct.Attributes {
			if _, given := data[a.Name]; !given && len(a.Default) > 0 && a.IsScalar() {
				var v any
				_ = json.Unmarshal(a.Default, &v)
				if nv, msg := normalizeScalar(a, jsonNumbers(v)); msg == "" {
					merged[a.Name] = w.e.timeOfDay(a, nv)
				}
			}
		}
	}
	for _, a := range ct.Attributes {
		v, given := data[a.Name]
		if !given {
			continue
		}
		if v == nil && w.update && w.publish && a.Required {
			w.errs.Add([]string{a.Name}, nil, "%s cannot be null.", a.Name)
			continue
		}
		merged[a.Name] = w.value(a, v, merged[a.Name], []string{a.Name})
	}
	if err := w.checkExpected(); err != nil {
		return nil, nil, err
	}
	if err := w.fillUIDs(merged); err != nil {
		return nil, nil, err
	}
	if w.publish {
		w.checkRequired(ct.Attributes, merged, nil)
		if err := w.checkUnique(merged); err != nil {
			return nil, nil, err
		}
	}
	if err := w.errs.Err(); err != nil {
		return nil, nil, err
	}
	return encodeColumns(ct, merged)
}

// value validates and normalises one attribute value; failures go to w.errs.
func (w *writer) value(a *models.Attribute, v any, old any, path []string) any {
	switch a.Type {
	case models.TypeComponent:
		return w.componentValue(a, v, old, path)
	case models.TypeDynamicZone:
		return w.zoneValue(a, v, old, path)
	case models.TypeRelation:
		return w.relationValue(a, v, old, path)
	case models.TypeMedia:
		return w.mediaValue(a, v, old, path)
	}
	nv, msg := normalizeScalar(a, v)
	if msg != "" {
		w.errs.Add(path, v, "%s", msg.at(yupPath(path)))
		return old
	}
	if a.Type == models.TypePassword && nv != nil {
		h, err := bcrypt.GenerateFromPassword([]byte(nv.(string)), 10)
		if err != nil {
			w.errs.Add(path, nil, "%s could not be hashed", a.Name)
			return old
		}
		return string(h)
	}
	return w.e.timeOfDay(a, nv)
}

func (w *writer) componentValue(a *models.Attribute, v any, old any, path []string) any {
	c := w.schema.Component(a.Component)
	if v == nil {
		if a.Repeatable {
			return []any{}
		}
		return nil
	}
	if !a.Repeatable {
		m, ok := v.(map[string]any)
		if !ok {
			w.errs.Add(path, v, "%s", notType("object", printValue(v), nil).at(yupPath(path)))
			return old
		}
		prev, _ := old.(map[string]any)
		if id, has := m["id"]; has && (prev == nil || !sameID(prev["id"], id)) {
			w.errs.Add(append(path, "id"), id, "Some of the provided components in %s are not related to the entity", a.Name)
			return old
		}
		return w.componentItem(c, m, prev, path)
	}
	list, ok := v.([]any)
	if !ok {
		w.errs.Add(path, v, "%s", notType("array", printValue(v), nil).at(yupPath(path)))
		return old
	}
	w.checkCount(a, list, path)
	prevByID := itemsByID(old)
	out := make([]any, 0, len(list))
	for i, it := range list {
		p := append(append([]string(nil), path...), strconv.Itoa(i))
		m, ok := it.(map[string]any)
		if !ok {
			w.errs.Add(p, it, "%s", itemError(it, p))
			continue
		}
		var prev map[string]any
		if id, has := m["id"]; has {
			if prev = prevByID[idKey(id)]; prev == nil {
				w.errs.Add(append(p, "id"), id, "Some of the provided components in %s are not related to the entity", a.Name)
				continue
			}
		}
		out = append(out, w.componentItem(c, m, prev, p))
	}
	return out
}

func (w *writer) zoneValue(a *models.Attribute, v any, old any, path []string) any {
	if v == nil {
		return []any{}
	}
	list, ok := v.([]any)
	if !ok {
		w.errs.Add(path, v, "%s", notType("array", printValue(v), nil).at(yupPath(path)))
		return old
	}
	w.checkCount(a, list, path)
	prevByID := itemsByID(old)
	out := make([]any, 0, len(list))
	for i, it := range list {
		p := append(append([]string(nil), path...), strconv.Itoa(i))
		m, ok := it.(map[string]any)
		if !ok {
			w.errs.Add(p, it, "%s", itemError(it, p))
			continue
		}
		uid, _ := m["__component"].(string)
		allowed := false
		for _, cu := range a.Components {
			allowed = allowed || cu == uid
		}
		if !allowed {
			cp := append(p, "__component")
			if uid == "" {
				w.errs.Add(cp, m["__component"], "%s is a required field", yupPath(cp))
			} else {
				w.errs.Add(cp, m["__component"], "%s must be one of the following values: %s", yupPath(cp), joinStrings(a.Components))
			}
			continue
		}
		var prev map[string]any
		if id, has := m["id"]; has {
			if prev = prevByID[idKey(id)]; prev == nil || prev["__component"] != uid {
				w.errs.Add(append(p, "id"), id, "Some of the provided components in %s are not related to the entity", a.Name)
				continue
			}
		}
		item := w.componentItem(w.schema.Component(uid), m, prev, p)
		item["__component"] = uid
		out = append(out, item)
	}
	return out
}

// checkCount applies a list's min and max as Strapi's yup array does: not
// to drafts, and min only to a required or non-empty list.
func (w *writer) checkCount(a *models.Attribute, list []any, path []string) {
	if !w.publish {
		return
	}
	if a.Min != nil && float64(len(list)) < a.Min.Value && (a.Required || len(list) > 0) {
		w.errs.Add(path, nil, "%s field must have at least %s items", yupPath(path), a.Min.Raw)
	}
	if a.Max != nil && float64(len(list)) > a.Max.Value {
		w.errs.Add(path, nil, "%s field must have less than or equal to %s items", yupPath(path), a.Max.Raw)
	}
}

// itemError is yup's message for a component item that is not an object.
func itemError(it any, path []string) string {
	if it == nil {
		return yupPath(path) + " cannot be null."
	}
	return notType("object", printValue(it), nil).at(yupPath(path))
}

// componentItem validates one component object; with prev (same id) the
// given fields update it in place, otherwise it is new and gets an id.
func (w *writer) componentItem(c *models.Component, m map[string]any, prev map[string]any, path []string) map[string]any {
	out := map[string]any{}
	for k, v := range prev {
		out[k] = v
	}
	if prev == nil {
		out["id"] = w.nextID
		w.nextID++
		for _, a := range c.Attributes {
			if _, given := m[a.Name]; !given && len(a.Default) > 0 && a.IsScalar() {
				var v any
				_ = json.Unmarshal(a.Default, &v)
				if nv, msg := normalizeScalar(a, jsonNumbers(v)); msg == "" {
					out[a.Name] = w.e.timeOfDay(a, nv)
				}
			}
		}
	}
	for k, v := range m {
		if k == "id" || k == "__component" {
			continue
		}
		a := c.Attr(k)
		if a == nil || !a.IsWritable() {
			w.errs.Add(append(append([]string(nil), path...), k), nil, "Invalid key %s", k)
			continue
		}
		out[k] = w.value(a, v, out[k], append(append([]string(nil), path...), k))
	}
	if w.publish {
		w.checkRequired(c.Attributes, out, path)
	}
	return out
}

// relationValue resolves the accepted relation forms to the stored list of
// target document ids (a single id for to-one relations).
func (w *writer) relationValue(a *models.Attribute, v any, old any, path []string) any {
	if a.IsMorph() {
		return w.morphValue(a, v, old, path)
	}
	if a.IsMorphInverse() {
		w.errs.Add(path, nil, "%s is the inverse side of %s.%s: set the relation from there", a.Name, a.Target, a.MorphBy)
		return old
	}
	if !a.IsOwner() {
		w.inverseValue(a, v, path)
		return nil // the relation is stored on the owning side
	}
	target := w.schema.Type(a.Target)
	if target == nil {
		w.errs.Add(path, nil, "%s: polymorphic relations cannot be written through this API", a.Name)
		return old
	}
	current := refIDs(rawOf(old))
	list, err := w.relationOps(a, target, v, current, path)
	if err != nil {
		w.errs.Add(path, nil, "%s", err.Error())
		return old
	}
	if !a.IsToMany() {
		if len(list) == 0 {
			return nil
		}
		return list[len(list)-1] // several values: the last one wins
	}
	out := make([]any, len(list))
	for i, id := range list {
		out[i] = id
	}
	return out
}

type relRef struct {
	id       string
	position map[string]any
}

func (w *writer) relationOps(a *models.Attribute, target *models.ContentType, v any, current []string, path []string) (_ []string, err error) {
	n := len(w.expected)
	defer func() {
		if err != nil { // a refused value is told once, by its own error
			w.expected = w.expected[:n]
		}
	}()
	if v == nil {
		return nil, nil
	}
	if m, ok := v.(map[string]any); ok {
		_, hasConnect := m["connect"]
		_, hasDisconnect := m["disconnect"]
		_, hasSet := m["set"]
		if hasConnect || hasDisconnect || hasSet {
			for k := range m {
				if k != "connect" && k != "disconnect" && k != "set" && k != "options" {
					return nil, fmt.Errorf("%s: unknown relation operation %q", a.Name, k)
				}
			}
			list := current
			if hasSet {
				refs, err := w.refs(target, m["set"], path)
				if err != nil {
					return nil, err
				}
				list = idsOf(refs)
			}
			if hasDisconnect {
				refs, err := w.refs(target, m["disconnect"], path)
				if err != nil {
					return nil, err
				}
				drop := map[string]bool{}
				for _, r := range refs {
					drop[r.id] = true
				}
				kept := list[:0:0]
				for _, id := range list {
					if !drop[id] {
						kept = append(kept, id)
					}
				}
				list = kept
			}
			if hasConnect {
				refs, err := w.refs(target, m["connect"], path)
				if err != nil {
					return nil, err
				}
				return connect(list, refs)
			}
			return list, nil
		}
	}
	refs, err := w.refs(target, v, path)
	if err != nil {
		return nil, err
	}
	return idsOf(refs), nil
}

// refs reads relation references (documentIds, numeric row ids, objects with
// either); that the targets exist is checked with the body's others
// (checkExpected).
func (w *writer) refs(target *models.ContentType, v any, path []string) ([]relRef, error) {
	items := asList(v)
	refs := make([]relRef, 0, len(items))
	var rowIDs []int64
	for _, it := range items {
		var r relRef
		key := it
		if m, ok := it.(map[string]any); ok {
			if d, ok := m["documentId"]; ok {
				key = d
			} else if id, ok := m["id"]; ok {
				key = id
			} else {
				return nil, fmt.Errorf("a relation object needs documentId or id")
			}
			if p, ok := m["position"].(map[string]any); ok {
				r.position = p
			}
		}
		switch k := key.(type) {
		case string:
			if n, err := strconv.ParseInt(k, 10, 64); err == nil { // numeric strings are row ids (Strapi)
				r.id = "#" + strconv.FormatInt(n, 10)
				rowIDs = append(rowIDs, n)
			} else {
				r.id = k
			}
		case json.Number:
			n, err := k.Int64()
			if err != nil {
				return nil, fmt.Errorf("invalid relation id %s", k)
			}
			r.id = "#" + strconv.FormatInt(n, 10)
			rowIDs = append(rowIDs, n)
		default:
			return nil, fmt.Errorf("invalid relation reference")
		}
		refs = append(refs, r)
	}
	byRow, err := w.tx.DocumentIDs(target, rowIDs)
	if err != nil {
		return nil, err
	}
	var docIDs []string
	for i := range refs {
		if refs[i].id[0] == '#' {
			n, _ := strconv.ParseInt(refs[i].id[1:], 10, 64)
			d, ok := byRow[n]
			if !ok {
				return nil, fmt.Errorf("Document with id \"%d\" not found in %s", n, target.UID)
			}
			refs[i].id = d
		}
		docIDs = append(docIDs, refs[i].id)
	}
	if len(docIDs) > 0 {
		w.expected = append(w.expected, expectation{target: target, ids: docIDs, path: path, at: len(w.errs)})
	}
	return refs, nil
}

// checkExpected checks every relation target the body named, in one
// statement (one set of ids per target type), and tells each relation
// value whose target is missing where the walk of the body met it: its
// error replaces any other at the same path (a component's required check
// saw the value before this one), as before the check was gathered.
func (w *writer) checkExpected() error {
	if len(w.expected) == 0 {
		return nil
	}
	exp := w.expected
	w.expected = nil
	var sets []IDSet
	byType := map[*models.ContentType]int{}
	for _, x := range exp {
		i, ok := byType[x.target]
		if !ok {
			i = len(sets)
			byType[x.target] = i
			sets = append(sets, IDSet{Type: x.target})
		}
		sets[i].DocumentIDs = append(sets[i].DocumentIDs, x.ids...)
	}
	for i := range sets {
		slices.Sort(sets[i].DocumentIDs)
		sets[i].DocumentIDs = slices.Compact(sets[i].DocumentIDs)
	}
	found, err := w.tx.ExistAll(sets)
	if err != nil {
		return err
	}
	var failed errs.FieldErrors
	var at []int
	for _, x := range exp {
		in := found[byType[x.target]]
		missing := slices.IndexFunc(x.ids, func(id string) bool { return !in[id] })
		if missing < 0 || failed.Has(x.path) {
			continue
		}
		id := x.ids[missing]
		if x.target.Localized {
			failed.Add(x.path, nil, "Document with id %q, locale %q not found", id, w.locale)
		} else {
			failed.Add(x.path, nil, "Document with id %q not found", id)
		}
		at = append(at, x.at)
	}
	if len(failed) == 0 {
		return nil
	}
	out := make(errs.FieldErrors, 0, len(w.errs)+len(failed))
	k := 0
	for i := 0; i <= len(w.errs); i++ {
		for ; k < len(failed) && at[k] == i; k++ {
			out = append(out, failed[k])
		}
		if i < len(w.errs) && !failed.Has(w.errs[i].Path) {
			out = append(out, w.errs[i])
		}
	}
	w.errs = out
	return nil
}

// connect adds references at their positions (end by default).
func connect(list []string, refs []relRef) ([]string, error) {
	out := append([]string(nil), list...)
	for _, r := range refs {
		for i, id := range out {
			if id == r.id {
				out = append(out[:i], out[i+1:]...)
				break
			}
		}
		at := len(out)
		if p := r.position; p != nil {
			switch {
			case p["start"] == true:
				at = 0
			case p["before"] != nil || p["after"] != nil:
				anchor, _ := p["before"].(string)
				after := false
				if anchor == "" {
					anchor, _ = p["after"].(string)
					after = true
				}
				at = -1
				for i, id := range out {
					if id == anchor {
						at = i
						if after {
							at++
						}
					}
				}
				if at < 0 {
					return nil, fmt.Errorf("position anchor %q is not connected", anchor)
				}
			}
		}
		out = append(out[:at], append([]string{r.id}, out[at:]...)...)
	}
	return out, nil
}

func idsOf(refs []relRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.id
	}
	return out
}

// fillUIDs derives empty uid attributes from their targetField and keeps
// them unique among published documents by adding -1, -2, ...
func (w *writer) fillUIDs(merged map[string]any) error {
	for _, a := range w.ct.Attributes {
		if a.Type != models.TypeUID || a.TargetField == "" {
			continue
		}
		if s, _ := merged[a.Name].(string); s != "" {
			continue
		}
		src, _ := merged[a.TargetField].(string)
		base := ids.Slugify(src)
		if base == "" {
			continue
		}
		cand := base
		for i := 1; ; i++ {
			taken, err := w.tx.Taken(w.ct, a, cand, w.locale, w.documentID)
			if err != nil {
				return err
			}
			if !taken {
				break
			}
			cand = base + "-" + strconv.Itoa(i)
		}
		merged[a.Name] = cand
	}
	return nil
}

func (w *writer) checkRequired(attrs []*models.Attribute, m map[string]any, prefix []string) {
	for _, a := range attrs {
		if !a.Required {
			continue
		}
		v := m[a.Name]
		empty := v == nil
		if l, ok := v.([]any); ok && len(l) == 0 && (a.Type == models.TypeDynamicZone || a.Type == models.TypeComponent || a.IsToMany()) {
			empty = true
		}
		path := append(append([]string(nil), prefix...), a.Name)
		// A value refused above is reported once, as yup stops at a type error.
		if empty && !w.errs.Has(path) {
			w.errs.Add(path, nil, "%s must be defined.", yupPath(path))
		}
	}
}

// yupPath writes a body path as yup names it in messages: "seo.metaTitle",
// "quotes[0].body".
func yupPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil && i > 0 {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func (w *writer) checkUnique(m map[string]any) error {
	for _, a := range w.ct.Attributes {
		if !a.IsUnique() || !a.IsScalar() {
			continue
		}
		v, ok := m[a.Name]
		if !ok || v == nil {
			continue
		}
		taken, err := w.tx.Taken(w.ct, a, uniqueValue(v), w.locale, w.documentID)
		if err != nil {
			return err
		}
		if taken {
			w.errs.Add([]string{a.Name}, v, "This attribute must be unique")
		}
	}
	return nil
}

// uniqueValue is the value as the database's JSON extraction gives it.
func uniqueValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case json.RawMessage:
		var out any
		_ = json.Unmarshal(x, &out)
		return out
	}
	return v
}

// encodeColumns writes Data (public scalars, in schema order, nulls
// included so every document has the same shape) and Extra.
func encodeColumns(ct *models.ContentType, m map[string]any) ([]byte, []byte, error) {
	var data, extra bytes.Buffer
	data.WriteByte('{')
	extra.WriteByte('{')
	for _, a := range ct.Attributes {
		buf := &extra
		if InData(a) {
			buf = &data
		} else if _, ok := m[a.Name]; !ok {
			continue
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(a.Name)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := json.Marshal(m[a.Name])
		if err != nil {
			return nil, nil, err
		}
		buf.Write(v)
	}
	data.WriteByte('}')
	extra.WriteByte('}')
	return data.Bytes(), extra.Bytes(), nil
}

func decodeInto(b []byte, m map[string]any) {
	if len(b) == 0 {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var part map[string]any
	if dec.Decode(&part) == nil {
		for k, v := range part {
			m[k] = v
		}
	}
}

// jsonNumbers converts float64s from a plain Unmarshal into json.Number.
func jsonNumbers(v any) any {
	if f, ok := v.(float64); ok {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return v
}

// maxItemID is the largest component or zone item id in a document, so new
// items get ids that never collide with existing ones.
func maxItemID(v any) int64 {
	var best int64
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["id"]; ok {
			if n, err := strconv.ParseInt(idKey(id), 10, 64); err == nil && n > best {
				best = n
			}
		}
		for _, c := range x {
			best = max(best, maxItemID(c))
		}
	case []any:
		for _, c := range x {
			best = max(best, maxItemID(c))
		}
	}
	return best
}

func itemsByID(old any) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := old.([]any)
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			out[idKey(m["id"])] = m
		}
	}
	return out
}

func idKey(v any) string {
	s, _ := scalarString(v)
	return s
}

func sameID(a, b any) bool { return idKey(a) == idKey(b) && idKey(a) != "" }

func rawOf(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

func joinStrings(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x)
	}
	return b.String()
}
