package gqlschema

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// resolveComponentRelation answers a relation inside a component: the
// engine populates it into the component's value (one query per relation
// attribute for the page), and each document becomes an entity of its
// type. As for other relations, a target the credential may not read is a
// FORBIDDEN error at its path.
func (b *builder) resolveComponentRelation(a *models.Attribute, t *ctTypes) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		cv, _ := p.Source.(*compValue)
		if cv == nil {
			return nil, nil
		}
		if !access(p.Context).Can(t.ct.Action("find")) {
			return nil, errs.Forbidden()
		}
		return b.relationFromJSON(p, a, t, cv.m[a.Name])
	}
}

// relationFromJSON is the value of a relation field read from a populated
// value's JSON (a component's, a user's extension): a response for a
// to-one relation, a page of the pagination argument for a to-many one.
func (b *builder) relationFromJSON(p gql.ResolveParams, a *models.Attribute, t *ctTypes, raw json.RawMessage) (any, error) {
	if !a.IsToMany() {
		if e := entityFromJSON(t.ct, raw); e != nil {
			return &entityResponse{data: e}, nil
		}
		return &entityResponse{}, nil
	}
	var items []json.RawMessage
	_ = json.Unmarshal(raw, &items)
	list := make([]*entity, 0, len(items))
	for _, it := range items {
		if e := entityFromJSON(t.ct, it); e != nil {
			list = append(list, e)
		}
	}
	start, end, err := b.srv.window(p.Args["pagination"], len(list))
	if err != nil {
		return nil, err
	}
	return &collection{data: list[start:end]}, nil
}

// systemMembers are the members of a document's JSON that are not its
// attributes.
var systemMembers = map[string]bool{"id": true, "documentId": true, "locale": true, "createdAt": true,
	"updatedAt": true, "publishedAt": true, "__type": true, "localizations": true}

// entityFromJSON makes an entity of a populated document's JSON (as the
// engine writes it into a component's value); nil for anything else.
func entityFromJSON(ct *models.ContentType, raw json.RawMessage) *entity {
	if isNull(raw) || len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	raw = bytes.TrimSpace(raw)
	m := scanMembers(raw[1 : len(raw)-1]) // members without their braces, as documents' Fields
	d := &engine.Document{Localized: ct.Localized}
	if json.Unmarshal(m["documentId"], &d.DocumentID) != nil || d.DocumentID == "" {
		return nil
	}
	_ = json.Unmarshal(m["id"], &d.ID)
	_ = json.Unmarshal(m["locale"], &d.Locale)
	d.CreatedAt, d.UpdatedAt = jsonTime(m["createdAt"]), jsonTime(m["updatedAt"])
	if t := jsonTime(m["publishedAt"]); !t.IsZero() {
		d.PublishedAt = &t
	}
	var fields strings.Builder
	for _, k := range sortedRawKeys(m) {
		if systemMembers[k] {
			continue
		}
		if fields.Len() > 0 {
			fields.WriteByte(',')
		}
		j, _ := json.Marshal(k)
		fields.Write(j)
		fields.WriteByte(':')
		fields.Write(m[k])
	}
	d.Fields = []byte(fields.String())
	st := query.Published
	if d.PublishedAt == nil {
		st = query.Draft
	}
	return &entity{ct: ct, doc: d, status: st, locale: d.Locale}
}

func jsonTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func sortedRawKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// The fields are read by name, so any fixed order does.
	sort.Strings(keys)
	return keys
}
