package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Media is the media library as the engine needs it: the API JSON of files
// by id. The upload package implements it.
type Media interface {
	Files(ctx context.Context, ids []int64) (map[int64]json.RawMessage, error)
}

// UseMedia connects the media library; without one, media attributes
// cannot be written.
func (e *Engine) UseMedia(m Media) { e.media = m }

// mediaValue reads a media attribute's body value: a file id, {id}, a list
// of those for multiple media, or {connect, disconnect, set}; every file
// must exist. Stored as an id or a list of ids.
func (w *writer) mediaValue(a *models.Attribute, v any, old any, path []string) any {
	if v == nil {
		if a.Multiple {
			return []any{}
		}
		return nil
	}
	if w.e.media == nil {
		w.errs.Add(path, nil, "%s: no media library is configured", a.Name)
		return old
	}
	ids, err := fileIDs(v, fileIDsOf(old))
	if err != nil {
		w.errs.Add(path, nil, "%s: %v", a.Name, err)
		return old
	}
	ctx := w.ctx
	if ctx == nil { // the file check is one short query
		ctx = context.Background()
	}
	found, err := w.e.media.Files(ctx, ids)
	if err != nil {
		w.errs.Add(path, nil, "%s: %v", a.Name, err)
		return old
	}
	for _, id := range ids {
		f, ok := found[id]
		if !ok {
			w.errs.Add(path, id, "%s: file %d not found", a.Name, id)
			return old
		}
		if kind := mediaKind(f); !allowedMedia(a.AllowedTypes, kind) {
			w.errs.Add(path, id, "%s: file %d is one of the %s, and only %s are allowed", a.Name, id, kind, strings.Join(a.AllowedTypes, ", "))
			return old
		}
	}
	if !a.Multiple {
		if len(ids) == 0 {
			return nil
		}
		return ids[len(ids)-1]
	}
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// fileIDs resolves the accepted forms to file ids.
func fileIDs(v any, current []int64) ([]int64, error) {
	if m, ok := v.(map[string]any); ok {
		if _, isRef := m["id"]; !isRef {
			list := current
			if set, ok := m["set"]; ok {
				ids, err := fileIDs(set, nil)
				if err != nil {
					return nil, err
				}
				list = ids
			}
			if dis, ok := m["disconnect"]; ok {
				drop, err := fileIDs(dis, nil)
				if err != nil {
					return nil, err
				}
				kept := list[:0:0]
				for _, id := range list {
					if !containsID(drop, id) {
						kept = append(kept, id)
					}
				}
				list = kept
			}
			if con, ok := m["connect"]; ok {
				add, err := fileIDs(con, nil)
				if err != nil {
					return nil, err
				}
				for _, id := range add {
					if !containsID(list, id) {
						list = append(list, id)
					}
				}
			}
			return list, nil
		}
	}
	items := asList(v)
	out := make([]int64, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			it = m["id"]
		}
		s, ok := scalarString(it)
		if !ok {
			return nil, fmt.Errorf("a file is given by its numeric id")
		}
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("invalid file id %q", s)
		}
		out = append(out, id)
	}
	return out, nil
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// fileIDsOf reads a stored media value: an id or a list of ids.
func fileIDsOf(v any) []int64 {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		items = x
	default:
		items = []any{x}
	}
	out := make([]int64, 0, len(items))
	for _, it := range items {
		if s, ok := scalarString(it); ok {
			if id, err := strconv.ParseInt(s, 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out
}

// rawFileIDs reads a stored media value from its JSON.
func rawFileIDs(raw json.RawMessage) []int64 {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return fileIDsOf(v)
}

// fileFields are the keys of a file object (the upload package's File), in
// its order: what a media populate's `fields` may name.
var fileFields = []string{"id", "documentId", "name", "alternativeText", "caption", "focalPoint", "width", "height",
	"formats", "hash", "ext", "mime", "size", "url", "previewUrl", "provider", "provider_metadata",
	"createdAt", "updatedAt", "publishedAt"}

// checkFileFields refuses fields a file object does not have.
func checkFileFields(fields []string, path string) error {
	for _, f := range fields {
		if f != "*" && !slices.Contains(fileFields, f) {
			return errs.InvalidKey(f, path+".fields."+f, "query", "populate")
		}
	}
	return nil
}

// mediaJSON renders a media value from the files fetched for the page,
// with only the fields sub selects (id and documentId always, as for
// relations).
func (p *populator) mediaJSON(a *models.Attribute, raw json.RawMessage, sub *query.Populate) []byte {
	ids := rawFileIDs(raw)
	if o, ok := p.mediaOrder[a]; ok {
		ids = o.apply(ids)
	}
	file := func(b []byte, f json.RawMessage) []byte {
		if sub == nil || sub.Fields == nil || slices.Contains(sub.Fields, "*") {
			return append(b, f...)
		}
		return selectFileFields(b, f, sub.Fields)
	}
	if !a.Multiple {
		for i := len(ids) - 1; i >= 0; i-- {
			if f, ok := p.files[ids[i]]; ok {
				return file(nil, f)
			}
		}
		return []byte("null")
	}
	b := []byte{'['}
	n := 0
	for _, id := range ids {
		if f, ok := p.files[id]; ok {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = file(b, f)
		}
	}
	return append(b, ']')
}

func selectFileFields(b []byte, f json.RawMessage, fields []string) []byte {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(f, &m)
	b = append(b, '{')
	n := 0
	for _, k := range fileFields {
		if k != "id" && k != "documentId" && !slices.Contains(fields, k) {
			continue
		}
		v, ok := m[k]
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendQuoted(b, k)
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// loadFiles fetches every file the page's media values reference, in one call.
func (p *populator) loadFiles(ids []int64) error {
	if p.e.media == nil || len(ids) == 0 {
		return nil
	}
	var missing []int64
	for _, id := range ids {
		if _, ok := p.files[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	got, err := p.e.media.Files(p.ctx, missing)
	if err != nil {
		return err
	}
	if p.files == nil {
		p.files = map[int64]json.RawMessage{}
	}
	for id, f := range got {
		p.files[id] = f
	}
	return nil
}

// mediaKind is the allowedTypes family of a file: images, videos, audios,
// or files for every other type.
func mediaKind(file json.RawMessage) string {
	var f struct {
		Mime string `json:"mime"`
	}
	_ = json.Unmarshal(file, &f)
	switch t, _, _ := strings.Cut(f.Mime, "/"); t {
	case "image":
		return "images"
	case "video":
		return "videos"
	case "audio":
		return "audios"
	}
	return "files"
}

func allowedMedia(allowed []string, kind string) bool {
	return len(allowed) == 0 || slices.Contains(allowed, kind)
}

// mediaQuery resolves the filters and sort of a media populate
// (`populate[gallery][filters][mime][$startsWith]=image&populate[gallery][sort]=name`)
// against the media library's file type, as Strapi applies them; nil when
// there are none.
func mediaQuery(s *models.Schema, acc Access, sub *query.Populate) (query.Filter, []query.Sort, error) {
	if sub == nil || (sub.Filter == nil && len(sub.Sort) == 0) {
		return nil, nil, nil
	}
	ct := s.Type(models.FileUID)
	if ct == nil {
		return nil, nil, errs.Errorf(errs.KindValidation, "media filters need the media library")
	}
	f, err := resolveFilter(s, acc, scope{ct: ct}, sub.Filter)
	if err != nil {
		return nil, nil, err
	}
	sorts, err := resolveSort(s, acc, scope{ct: ct}, sub.Sort)
	return f, sorts, err
}

// filterMedia reads, for a media attribute populated with filters or a
// sort, which of the page's files match and in which order: one query for
// the page. mediaJSON then shows only those, in that order.
func (p *populator) filterMedia(a *models.Attribute, ids []int64, sub *query.Populate) error {
	f, sorts, err := mediaQuery(p.schema, p.acc, sub)
	if err != nil || (f == nil && len(sorts) == 0) {
		return err
	}
	ct := p.schema.Type(models.FileUID)
	in := make([]any, len(ids))
	for i, id := range ids {
		in[i] = id
	}
	byID := &query.Cond{Path: []string{"id"}, Op: query.OpIn, Values: in,
		Steps: []query.Step{{Type: ct, System: "id"}}}
	filter := query.Filter(byID)
	if f != nil {
		filter = query.And{byID, f}
	}
	rows, err := p.e.list(p.ctx, ct, &ListQuery{Version: VersionPublished, Filter: filter, Sort: sorts, Limit: -1})
	if err != nil {
		return err
	}
	order := make(map[int64]int, len(rows))
	for i := range rows {
		order[rows[i].ID] = i
	}
	if p.mediaOrder == nil {
		p.mediaOrder = map[*models.Attribute]mediaOrder{}
	}
	p.mediaOrder[a] = mediaOrder{pos: order, sorted: len(sorts) > 0}
	return nil
}

// mediaOrder is the files of a filtered or sorted media populate: their
// positions in the query's order.
type mediaOrder struct {
	pos    map[int64]int
	sorted bool
}

// apply keeps the ids that matched, in the query's order when it sorts.
func (o mediaOrder) apply(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if _, ok := o.pos[id]; ok {
			out = append(out, id)
		}
	}
	if o.sorted {
		slices.SortStableFunc(out, func(x, y int64) int { return o.pos[x] - o.pos[y] })
	}
	return out
}
