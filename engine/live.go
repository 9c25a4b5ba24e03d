package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
)

// SchemaFiles are the definitions read from the project's files; they are
// read-only at run time (change the file and restart).
type SchemaFiles struct {
	Types      []*models.ContentType
	Components []*models.Component
}

// ChangeMode says what a schema change does with its definition.
type ChangeMode int

const (
	ChangeCreate ChangeMode = iota
	ChangeReplace
	ChangeDelete
)

// SchemaChange is one change of a runtime definition (the admin API).
type SchemaChange struct {
	Mode ChangeMode
	Kind string // KindContentType or KindComponent
	UID  string
	Body []byte // the schema file JSON; nil for ChangeDelete
	// Force allows changes that lose data (removed attributes or types
	// holding values, values that do not convert).
	Force bool
}

// UseFiles records the file definitions the runtime ones are built on.
func (e *Engine) UseFiles(f SchemaFiles) { e.files, e.filesSet = f, true }

// Boot builds the engine of a project: its file definitions plus those kept
// in the database, with every table migrated. Use it rather than New when
// schemas may change at run time.
func Boot(ctx context.Context, store Backend, files SchemaFiles, cfg Config) (*Engine, error) {
	ss, ok := store.(SchemaStore)
	if !ok {
		return nil, errors.New("the store cannot keep definitions")
	}
	base, err := BuildSchema(files, nil)
	if err != nil {
		return nil, err
	}
	// The file types' tables and the system tables come first: the stored
	// definitions are read from one of them.
	if err := store.Migrate(ctx, base); err != nil {
		return nil, err
	}
	schema, version, err := LoadSchema(ctx, ss, files)
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx, schema); err != nil {
		return nil, err
	}
	e := New(NewRegistryAt(schema, version), store, cfg)
	e.UseFiles(files)
	return e, nil
}

// Files returns the file definitions.
func (e *Engine) Files() SchemaFiles { return e.files }

// BuildSchema builds the schema of the files plus stored definitions.
func BuildSchema(files SchemaFiles, defs []Definition) (*models.Schema, error) {
	types := append([]*models.ContentType(nil), files.Types...)
	comps := append([]*models.Component(nil), files.Components...)
	fromFile := map[string]string{}
	rawFile := map[string][]byte{}
	for _, t := range files.Types {
		fromFile[t.UID], rawFile[t.UID] = t.Source, t.Raw
	}
	for _, c := range files.Components {
		fromFile[c.UID], rawFile[c.UID] = c.Source, c.Raw
	}
	for _, d := range defs {
		if src, ok := fromFile[d.UID]; ok {
			// `stratum types export` writes the stored definitions as
			// files and leaves the stored copies (deleting them would take
			// the types offline on the nodes still running without the
			// files): an identical stored copy is the file's, ignored.
			if sameDefinition(rawFile[d.UID], d.Body) {
				continue
			}
			return nil, fmt.Errorf("%s is defined both in %s and in the database, differently: keep one", d.UID, src)
		}
		src := "definition " + d.UID
		if d.Kind == KindComponent {
			cat, _, _ := strings.Cut(d.UID, ".")
			c, err := models.ParseComponent(d.UID, cat, src, d.Body)
			if err != nil {
				return nil, err
			}
			c.Source = "database"
			comps = append(comps, c)
			continue
		}
		t, err := models.ParseContentType(d.UID, src, d.Body)
		if err != nil {
			return nil, err
		}
		types = append(types, t)
	}
	s, err := models.Build(types, comps)
	if err != nil {
		return nil, err
	}
	for _, t := range s.Types {
		if _, ok := fromFile[t.UID]; !ok {
			t.Source = "database"
		}
	}
	return s, nil
}

// LoadSchema builds the current schema from files and the database.
func LoadSchema(ctx context.Context, ss SchemaStore, files SchemaFiles) (*models.Schema, int64, error) {
	defs, v, err := ss.Definitions(ctx)
	if err != nil {
		return nil, 0, err
	}
	s, err := BuildSchema(files, defs)
	return s, v, err
}

// IsFileDefined reports whether a uid comes from a file (read-only here).
func (e *Engine) IsFileDefined(uid string) (string, bool) {
	for _, t := range e.files.Types {
		if t.UID == uid {
			return t.Source, true
		}
	}
	for _, c := range e.files.Components {
		if c.UID == uid {
			return c.Source, true
		}
	}
	return "", false
}

// ChangeSchema validates and applies one change: the definitions, the
// tables and their rows change in one transaction with a new schema
// version that every node picks up; then this node swaps its snapshot.
// Requests in flight finish on the snapshot they started with.
func (e *Engine) ChangeSchema(ctx context.Context, ch SchemaChange) (*Snapshot, error) {
	ss, ok := e.store.(SchemaStore)
	if !ok {
		return nil, errs.Errorf(errs.KindInternal, "this store cannot change schemas")
	}
	if !e.filesSet { // without them every file type would look removed
		return nil, errs.Errorf(errs.KindInternal, "schema changes need the engine built by Boot")
	}
	if src, ok := e.IsFileDefined(ch.UID); ok {
		return nil, errs.Errorf(errs.KindConflict, "%s is defined in %s: change the file and restart", ch.UID, src)
	}
	var next *Snapshot
	err := ss.Evolve(ctx, func(tx SchemaTx) error {
		defs, err := tx.LoadDefinitions()
		if err != nil {
			return err
		}
		old, err := BuildSchema(e.files, defs)
		if err != nil {
			return err
		}
		idx := -1
		for i, d := range defs {
			if d.UID == ch.UID {
				idx = i
			}
		}
		switch {
		case ch.Mode == ChangeCreate && idx >= 0:
			return errs.Errorf(errs.KindConflict, "%s already exists", ch.UID)
		case ch.Mode != ChangeCreate && idx < 0:
			return errs.NotFound()
		case idx >= 0 && defs[idx].Kind != ch.Kind:
			return errs.NotFound()
		}
		nd := append([]Definition(nil), defs...)
		switch {
		case ch.Mode == ChangeDelete:
			nd = append(nd[:idx], nd[idx+1:]...)
		case idx >= 0:
			nd[idx] = Definition{UID: ch.UID, Kind: ch.Kind, Body: ch.Body}
		default:
			nd = append(nd, Definition{UID: ch.UID, Kind: ch.Kind, Body: ch.Body})
		}
		ns, err := BuildSchema(e.files, nd)
		if err != nil {
			return definitionError(err)
		}
		// Everything served from the schema is built before anything is
		// written: a change one API cannot serve is refused whole.
		var be *BuildError
		if next, err = e.Registry.Build(ns, 0); errors.As(err, &be) {
			return buildError(be)
		} else if err != nil {
			return err
		}
		if err := e.migrate(tx, old, ns, ch.Force); err != nil {
			return err
		}
		if ch.Mode == ChangeDelete {
			err = tx.DeleteDefinition(ch.UID)
		} else {
			err = tx.SaveDefinition(Definition{UID: ch.UID, Kind: ch.Kind, Body: ch.Body})
		}
		if err != nil {
			return err
		}
		next.Version, err = tx.BumpVersion()
		return err
	})
	if errors.Is(err, ErrUniqueViolation) {
		return nil, errs.Errorf(errs.KindConflict, "a unique attribute would have duplicate values among published documents")
	}
	if err != nil {
		return nil, err
	}
	return e.Registry.Install(next), nil
}

// Reload installs the stored schema if another node changed it.
func (e *Engine) Reload(ctx context.Context) error {
	ss, ok := e.store.(SchemaStore)
	if !ok {
		return nil
	}
	e.reloading.Lock()
	defer e.reloading.Unlock()
	v, err := ss.SchemaVersion(ctx)
	if err != nil || v <= e.Registry.Current().Version {
		return err
	}
	if st := e.Registry.Stale(); st != nil && st.Version == v {
		return nil // already tried and logged; a newer version will be tried
	}
	defs, v, err := ss.Definitions(ctx)
	if err != nil {
		return err
	}
	s, err := BuildSchema(e.files, defs)
	if err == nil {
		_, err = e.Registry.Swap(s, v)
	}
	if err != nil {
		// Keep serving the snapshot we have, and say so in /_health.
		e.Registry.markStale(v, err)
		return fmt.Errorf("schema version %d cannot be served, version %d keeps serving: %w", v, e.Registry.Current().Version, err)
	}
	return nil
}

// Watch keeps this node's schema in step with the database until ctx ends.
func (e *Engine) Watch(ctx context.Context, onError func(error)) {
	ss, ok := e.store.(SchemaStore)
	if !ok {
		return
	}
	ss.Watch(ctx, func() {
		if err := e.Reload(ctx); err != nil && ctx.Err() == nil && onError != nil {
			onError(err)
		}
	})
}

func definitionError(err error) error {
	var de *models.DefinitionError
	if errors.As(err, &de) {
		return &errs.Error{Kind: errs.KindValidation, Message: de.Error(),
			Details: map[string]any{"attribute": de.Attribute, "source": de.Source}}
	}
	return &errs.Error{Kind: errs.KindValidation, Message: err.Error()}
}

// migrate changes tables and rows from old to next.
func (e *Engine) migrate(tx SchemaTx, old, next *models.Schema, force bool) error {
	for _, ot := range old.Types {
		if next.Type(ot.UID) != nil {
			continue
		}
		n, err := tx.CountRows(ot)
		if err != nil {
			return err
		}
		if n > 0 && !force {
			return &errs.Error{Kind: errs.KindConflict, Message: fmt.Sprintf("%s holds %d rows; deleting it loses them: pass force=true", ot.UID, n),
				Details: map[string]any{"uid": ot.UID, "rows": n}}
		}
		if err := tx.DropType(ot); err != nil {
			return err
		}
	}
	for _, nt := range next.Types {
		ot := old.Type(nt.UID)
		if ot == nil {
			if err := tx.CreateType(nt); err != nil {
				return err
			}
			continue
		}
		if ot.Table() != nt.Table() {
			if err := tx.RenameTable(ot.Table(), nt.Table()); err != nil {
				return err
			}
		}
		if err := e.rewriteRows(tx, ot, nt, force); err != nil {
			return err
		}
		if err := tx.SyncIndexes(ot, nt); err != nil {
			return err
		}
	}
	return nil
}

// rewriteRows moves every row of a changed type to its new shape.
func (e *Engine) rewriteRows(tx SchemaTx, ot, nt *models.ContentType, force bool) error {
	same := string(attrsKey(ot)) == string(attrsKey(nt)) && ot.HasDraftAndPublish() == nt.HasDraftAndPublish() && ot.Localized == nt.Localized
	if same {
		return nil
	}
	rows, err := tx.Rows(nt)
	if err != nil {
		return err
	}
	problems := map[string]int{}
	for i := range rows {
		r := &rows[i]
		m := map[string]any{}
		decodeInto(r.Data, m)
		decodeInto(r.Extra, m)
		out := convertRow(ot, nt, m, problems, force)
		if r.Data, r.Extra, err = encodeColumns(nt, out); err != nil {
			return err
		}
		if err := tx.Update(nt, r); err != nil {
			return err
		}
	}
	if err := e.changeVersions(tx, ot, nt, rows, problems, force); err != nil {
		return err
	}
	if len(problems) > 0 && !force {
		msgs := make([]string, 0, len(problems))
		for m, n := range problems {
			msgs = append(msgs, fmt.Sprintf("%s (%d rows)", m, n))
		}
		sort.Strings(msgs)
		return &errs.Error{Kind: errs.KindConflict, Message: "The change would lose data: " + strings.Join(msgs, "; ") + ". Pass force=true to apply it anyway.",
			Details: map[string]any{"problems": msgs}}
	}
	return nil
}

// changeVersions follows draft & publish and i18n being turned on or off.
func (e *Engine) changeVersions(tx SchemaTx, ot, nt *models.ContentType, rows []Row, problems map[string]int, force bool) error {
	switch {
	case !ot.HasDraftAndPublish() && nt.HasDraftAndPublish():
		for i := range rows { // every existing row is published: give it its draft
			d := rows[i]
			d.ID, d.PublishedAt = 0, nil
			if err := tx.Insert(nt, &d); err != nil {
				return err
			}
		}
	case ot.HasDraftAndPublish() && !nt.HasDraftAndPublish():
		published := map[string]*Row{}
		for i := range rows {
			if rows[i].PublishedAt != nil {
				published[rows[i].DocumentID+"\x00"+rows[i].Locale] = &rows[i]
			}
		}
		for i := range rows {
			r := &rows[i]
			if r.PublishedAt != nil {
				continue
			}
			if p := published[r.DocumentID+"\x00"+r.Locale]; p != nil {
				if string(p.Data) != string(r.Data) || string(p.Extra) != string(r.Extra) {
					problems["unpublished draft changes are dropped"]++
				}
				if err := tx.DeleteRow(nt, r.ID); err != nil {
					return err
				}
				continue
			}
			now := e.now()
			r.PublishedAt = &now // a draft that was never published becomes the document
			if err := tx.Update(nt, r); err != nil {
				return err
			}
		}
	}
	if ot.HasDraftAndPublish() != nt.HasDraftAndPublish() {
		// Drafts were added, or published from drafts: count again.
		if err := tx.Recount(nt); err != nil {
			return err
		}
	}
	switch {
	case !ot.Localized && nt.Localized:
		return tx.SetLocale(nt, "", e.cfg.DefaultLocale)
	case ot.Localized && !nt.Localized:
		for i := range rows {
			if rows[i].Locale != e.cfg.DefaultLocale {
				problems["localizations other than "+e.cfg.DefaultLocale+" are dropped"]++
				if err := tx.DeleteRow(nt, rows[i].ID); err != nil {
					return err
				}
			}
		}
		return tx.SetLocale(nt, e.cfg.DefaultLocale, "")
	}
	return nil
}

// attrsKey is a comparable form of a type's attributes.
func attrsKey(ct *models.ContentType) []byte {
	var b []byte
	for _, a := range ct.Attributes {
		j := rawOf(a)
		b = append(b, a.Name...)
		b = append(b, j...)
	}
	return b
}

// convertRow maps one row's values from the old attributes to the new.
func convertRow(ot, nt *models.ContentType, m map[string]any, problems map[string]int, force bool) map[string]any {
	out := map[string]any{}
	used := map[string]bool{}
	for _, a := range nt.Attributes {
		src := a.Name
		if ot.Attr(src) == nil && a.RenamedFrom != "" && ot.Attr(a.RenamedFrom) != nil {
			src = a.RenamedFrom
		}
		oa := ot.Attr(src)
		if oa == nil {
			if len(a.Default) > 0 && a.IsScalar() {
				var v any
				_ = json.Unmarshal(a.Default, &v)
				if nv, msg := normalizeScalar(a, jsonNumbers(v)); msg == "" {
					out[a.Name] = nv
				}
			}
			continue
		}
		used[src] = true
		v, ok := m[src]
		if !ok {
			continue
		}
		if v == nil {
			out[a.Name] = nil
			continue
		}
		nv, problem := convertValue(oa, a, v)
		if problem != "" {
			problems[fmt.Sprintf("attribute %q: %s", a.Name, problem)]++
			if force {
				out[a.Name] = nil
			} else {
				out[a.Name] = v
			}
			continue
		}
		out[a.Name] = nv
	}
	for _, oa := range ot.Attributes {
		if used[oa.Name] {
			continue
		}
		if v, ok := m[oa.Name]; ok && !emptyValue(v) {
			problems[fmt.Sprintf("attribute %q is removed and holds values", oa.Name)]++
		}
	}
	return out
}

func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}

// convertValue converts a stored value to a changed attribute, or says why
// it cannot.
func convertValue(oa, a *models.Attribute, v any) (any, string) {
	switch {
	case oa.IsScalar() && a.IsScalar():
		if a.Type == models.TypePassword || oa.Type == models.TypePassword {
			if a.Type == oa.Type {
				return v, ""
			}
			return nil, "password hashes cannot change type"
		}
		if a.IsText() {
			if s, ok := scalarString(v); ok {
				v = s
			}
		}
		nv, msg := normalizeScalar(a, v)
		if msg != "" {
			return nil, fmt.Sprintf("values that do not become %s: %s", a.Type, msg)
		}
		return nv, ""
	case oa.Type == models.TypeRelation && a.Type == models.TypeRelation:
		if oa.Target != a.Target || !a.IsOwner() {
			return nil, "the relation points elsewhere now"
		}
		ids := refIDs(rawOf(v))
		if !a.IsToMany() {
			if len(ids) > 1 {
				return nil, "several related documents cannot become one"
			}
			if len(ids) == 0 {
				return nil, ""
			}
			return ids[0], ""
		}
		out := make([]any, len(ids))
		for i, id := range ids {
			out[i] = id
		}
		return out, ""
	case oa.Type == models.TypeComponent && a.Type == models.TypeComponent:
		if oa.Component != a.Component {
			return nil, "the component changed"
		}
		list, isList := v.([]any)
		switch {
		case a.Repeatable && !isList:
			return []any{v}, ""
		case !a.Repeatable && isList && len(list) > 1:
			return nil, "several components cannot become one"
		case !a.Repeatable && isList && len(list) == 1:
			return list[0], ""
		case !a.Repeatable && isList:
			return nil, ""
		}
		return v, ""
	case oa.Type == models.TypeDynamicZone && a.Type == models.TypeDynamicZone:
		list, _ := v.([]any)
		for _, it := range list {
			m, _ := it.(map[string]any)
			uid, _ := m["__component"].(string)
			allowed := false
			for _, c := range a.Components {
				allowed = allowed || c == uid
			}
			if !allowed {
				return nil, "items of components the zone no longer allows"
			}
		}
		return v, ""
	case oa.Type == models.TypeMedia && a.Type == models.TypeMedia:
		return v, ""
	}
	if emptyValue(v) {
		return nil, ""
	}
	return nil, fmt.Sprintf("%s values cannot become %s", oa.Type, a.Type)
}

// sameDefinition compares two schema documents as JSON values, without the
// keys only an admin API request carries.
func sameDefinition(a, b []byte) bool {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(stripRequestKeys(x), stripRequestKeys(y))
}

func stripRequestKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		delete(t, "uid")
		delete(t, "renamedFrom")
		for k, c := range t {
			t[k] = stripRequestKeys(c)
		}
	case []any:
		for i, c := range t {
			t[i] = stripRequestKeys(c)
		}
	}
	return v
}
