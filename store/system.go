package store

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/models"
)

// System types (users-permissions' users and roles) are read like any
// type, from auth's tables: their built-in attributes are typed columns
// (Attribute.Column), the attributes an extension adds are in data, large
// and extra as a content-type's are. Rows have no versions and no locale.
// Private columns (password, tokens) are never selected.

// systemSelect is the select list of a system type's rows: the columns
// rowCols has, extra, then the public built-in attributes' columns (a
// to-one relation's as its target's document id).
func systemSelect(ct *models.ContentType) (string, []*models.Attribute) {
	var b strings.Builder
	if ct.Extensible() {
		b.WriteString("t0.id, t0.document_id, '', t0.published_at, t0.created_at, t0.updated_at, t0.data, t0.large, t0.extra")
	} else {
		// Files and admins: no extension columns; published when made, as
		// Strapi shows types without draft & publish.
		b.WriteString("t0.id, t0.document_id, '', t0.created_at, t0.created_at, t0.updated_at, '{}', '{}', '{}'")
	}
	var attrs []*models.Attribute
	for _, a := range ct.Attributes {
		if a.Column == "" || a.IsHidden() {
			continue
		}
		attrs = append(attrs, a)
		if a.Type == models.TypeRelation {
			target := targetTable(a)
			b.WriteString(", (SELECT r.document_id FROM " + quote(target) + " r WHERE r.id = t0." + quote(a.Column) + ")")
			continue
		}
		b.WriteString(", t0." + quote(a.Column))
	}
	return b.String(), attrs
}

// targetTable is the table of a column relation's target.
func targetTable(a *models.Attribute) string {
	if a.Target == models.RoleUID {
		return "up_roles"
	}
	return "up_users"
}

// scanSystem reads a row of systemSelect: the built-in scalars go first
// in Data (in the schema's order, as Strapi shows them), a column
// relation's document id into Extra.
func (s *Store) scanSystem(sc scanner, attrs []*models.Attribute) (engine.Row, error) {
	var r engine.Row
	var locale string
	var pub, created, updated any
	var data, large, extra []byte
	vals := make([]any, len(attrs))
	dest := []any{&r.ID, &r.DocumentID, &locale, &pub, &created, &updated, &data, &large, &extra}
	for i := range vals {
		dest = append(dest, &vals[i])
	}
	if err := sc.Scan(dest...); err != nil {
		return r, err
	}
	base := map[string]any{}
	var order []string
	rel := map[string]any{}
	for i, a := range attrs {
		v := vals[i]
		if b, ok := v.([]byte); ok {
			v = string(b)
		}
		if a.Type == models.TypeRelation {
			rel[a.Name] = v
			continue
		}
		if (v == nil || v == "") && len(a.Default) > 0 { // files without a provider are local
			v = json.RawMessage(a.Default)
		}
		switch a.Type {
		case models.TypeBoolean:
			v = truthyColumn(v)
		case models.TypeDecimal, models.TypeFloat, models.TypeInteger, models.TypeBigInteger:
			if str, ok := v.(string); ok { // PostgreSQL's numeric reads as text
				v = json.Number(str)
			}
		case models.TypeJSON: // kept as JSON text (formats, focal point)
			if str, ok := v.(string); ok && json.Valid([]byte(str)) {
				v = json.RawMessage(str)
			}
		}
		base[a.Name] = v
		order = append(order, a.Name)
	}
	r.Data = joinObjects(orderedObject(order, base), joinObjects(data, large))
	r.Extra = extra
	if len(rel) > 0 {
		b, _ := json.Marshal(rel)
		r.Extra = joinObjects(b, extra)
	}
	var err error
	if pub != nil {
		t, e := toTime(pub)
		r.PublishedAt, err = &t, e
	}
	if err == nil {
		r.CreatedAt, err = toTime(created)
	}
	if err == nil {
		r.UpdatedAt, err = toTime(updated)
	}
	return r, err
}

// truthyColumn reads a boolean column: SQLite gives numbers.
func truthyColumn(v any) any {
	switch x := v.(type) {
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x == "1" || x == "true"
	}
	return v
}

// orderedObject writes a JSON object with keys in order.
func orderedObject(keys []string, m map[string]any) []byte {
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		v, _ := json.Marshal(m[k])
		b = append(b, v...)
	}
	return append(b, '}')
}

// countSystem counts a system type's rows, without the counters and the
// cache (auth's writes do not keep them).
func (s *Store) countSystem(ctx context.Context, ct *models.ContentType, q *engine.ListQuery) (int64, error) {
	c := &compiler{d: s.d}
	where, err := c.where(ct, q)
	if err != nil {
		return 0, err
	}
	var n int64
	s.statements.Add(1)
	err = again(ctx, func() error {
		return s.read.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quote(ct.Table())+" t0 WHERE "+where, c.args...).Scan(&n)
	})
	return n, err
}
