package gqlschema

import (
	"context"
	"encoding/json"
	"time"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/engine"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// A content type's relation to users-permissions users is a field of type
// UsersPermissionsUserEntityResponse (or ...RelationResponseCollection),
// one to files UploadFileEntityResponse (...RelationResponseCollection):
// the engine reads them as documents of the system types, and they are
// shown through the plugins' own types.

// userBaseFields are the user's built-in attributes in a document's fields.
var userBaseFields = map[string]bool{"username": true, "email": true, "provider": true, "confirmed": true, "blocked": true}

// roleBaseFields are the role's built-in attributes in a document's fields.
var roleBaseFields = map[string]bool{"name": true, "description": true, "type": true}

// extMembers writes the members of m that are not base as JSON members
// (an extension's attributes), in key order.
func extMembers(m map[string]json.RawMessage, base map[string]bool) []byte {
	var ext []byte
	for _, k := range sortedKeys(m) {
		if base[k] {
			continue
		}
		if len(ext) > 0 {
			ext = append(ext, ',')
		}
		key, _ := json.Marshal(k)
		ext = append(append(append(ext, key...), ':'), m[k]...)
	}
	return ext
}

// upUserOf is the users-permissions view of a user read as a document.
func upUserOf(d *engine.Document) *upUser {
	if d == nil {
		return nil
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(append(append([]byte{'{'}, d.Fields...), '}'), &m)
	v := &auth.UserView{ID: d.ID, DocumentID: d.DocumentID, CreatedAt: jsTime(d.CreatedAt), UpdatedAt: jsTime(d.UpdatedAt)}
	_ = json.Unmarshal(m["username"], &v.Username)
	_ = json.Unmarshal(m["email"], &v.Email)
	_ = json.Unmarshal(m["provider"], &v.Provider)
	_ = json.Unmarshal(m["confirmed"], &v.Confirmed)
	_ = json.Unmarshal(m["blocked"], &v.Blocked)
	if d.PublishedAt != nil {
		s := jsTime(*d.PublishedAt)
		v.PublishedAt = &s
	}
	v.Ext = extMembers(m, userBaseFields)
	for _, r := range d.Related {
		if r.Name == "role" && r.One != nil {
			var rm map[string]json.RawMessage
			_ = json.Unmarshal(append(append([]byte{'{'}, r.One.Fields...), '}'), &rm)
			role := &auth.RoleSummary{ID: r.One.ID, DocumentID: r.One.DocumentID, CreatedAt: jsTime(r.One.CreatedAt),
				UpdatedAt: jsTime(r.One.UpdatedAt), Ext: extMembers(rm, roleBaseFields)}
			_ = json.Unmarshal(rm["name"], &role.Name)
			_ = json.Unmarshal(rm["description"], &role.Description)
			_ = json.Unmarshal(rm["type"], &role.Type)
			v.Role = role
		}
	}
	return &upUser{v: v}
}

func jsTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// asUsers turns what a relation resolver returns (a response, a
// collection, or a deferred one) into the users-permissions types' values.
func asUsers(v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *entityResponse:
		if x.data == nil {
			return &upUserResponse{}, nil
		}
		return &upUserResponse{u: upUserOf(x.data.doc)}, nil
	case *collection:
		out := make([]*upUser, 0, len(x.data))
		for _, e := range x.data {
			if u := upUserOf(e.doc); u != nil {
				out = append(out, u)
			}
		}
		return batched(out), nil
	case func() (any, error):
		return func() (any, error) { return asUsers(x()) }, nil
	}
	return v, nil
}

// asFiles does the same for relations to files: the UploadFile types'
// values, from the file read as a document.
func asFiles(v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *entityResponse:
		if x.data == nil {
			return (*fileValue)(nil), nil
		}
		return decodeFile(x.data.doc.AppendJSON(nil, engine.FormatV5)), nil
	case *collection:
		out := make([]*fileValue, 0, len(x.data))
		for _, e := range x.data {
			if f := decodeFile(e.doc.AppendJSON(nil, engine.FormatV5)); f != nil {
				out = append(out, f)
			}
		}
		return out, nil
	case func() (any, error):
		return func() (any, error) { return asFiles(x()) }, nil
	}
	return v, nil
}

// systemRelationField is the field of a relation to users or files, with
// their plugins' types.
func (b *builder) systemRelationField(a *models.Attribute, t *ctTypes, inComponent bool) *gql.Field {
	resolve := b.resolveRelation(a)
	if inComponent {
		resolve = b.resolveComponentRelation(a, t)
	}
	convert := asUsers
	if t.ct.UID == models.FileUID {
		convert = asFiles
	}
	wrapped := func(p gql.ResolveParams) (any, error) { return convert(resolve(p)) }
	if a.IsToMany() {
		args := gql.FieldConfigArgument{"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}}}
		if !inComponent && t.filters != nil {
			args = b.listArgs(t.filters)
		}
		return &gql.Field{Type: t.relation, Args: args, Resolve: wrapped}
	}
	return &gql.Field{Type: t.response, Resolve: wrapped}
}

// userExtensionFields adds to UsersPermissionsUser the relations, media
// and components a users-permissions extension adds. They are read for a
// user when one of them is first resolved (all of them, in one populate by
// the engine, with the reader's permissions), so a list of users costs one
// read per user that selects them.
func (b *builder) userExtensionFields(svc *auth.Service, userType *gql.Object) {
	ct := b.ms.Type(models.UserUID)
	if ct == nil || ct.Extension() == nil {
		return
	}
	var pops []string
	for _, a := range ct.Extension().Attributes {
		if a.IsPopulatable() && !a.IsHidden() {
			pops = append(pops, a.Name)
		}
	}
	load := func(p gql.ResolveParams, name string) (json.RawMessage, error) {
		u, _ := p.Source.(*upUser)
		if u == nil {
			return nil, nil
		}
		if u.ext == nil {
			users := []*upUser{u}
			if u.batch != nil && !u.batch.read {
				u.batch.read = true
				users = u.batch.users
			}
			if err := readUserExtensions(p.Context, svc, users, pops); err != nil {
				return nil, err
			}
		}
		return u.ext[name], nil
	}
	for _, a := range ct.Extension().Attributes {
		if a.IsHidden() {
			continue
		}
		a := a
		switch a.Type {
		case models.TypeMedia:
			f := &gql.Field{Type: b.sh.uploadResponse, Resolve: func(p gql.ResolveParams) (any, error) {
				raw, err := load(p, a.Name)
				if err != nil {
					return nil, err
				}
				return decodeFiles(raw, false), nil
			}}
			if a.Multiple {
				f = &gql.Field{Type: b.sh.uploadRelation, Args: gql.FieldConfigArgument{
					"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}}},
					Resolve: func(p gql.ResolveParams) (any, error) {
						raw, err := load(p, a.Name)
						if err != nil {
							return nil, err
						}
						fs, _ := decodeFiles(raw, true).([]*fileValue)
						start, end, err := b.srv.window(p.Args["pagination"], len(fs))
						if err != nil {
							return nil, err
						}
						return fs[start:end], nil
					}}
			}
			userType.AddFieldConfig(a.Name, f)
		case models.TypeComponent:
			cts := b.comps[a.Component]
			c := b.ms.Component(a.Component)
			if cts == nil {
				continue
			}
			typ := gql.Output(cts.obj)
			if a.Repeatable {
				typ = gql.NewList(cts.obj)
			}
			userType.AddFieldConfig(a.Name, &gql.Field{Type: typ, Resolve: func(p gql.ResolveParams) (any, error) {
				raw, err := load(p, a.Name)
				if err != nil {
					return nil, err
				}
				if !a.Repeatable {
					if cv := b.decodeComponent(c, raw); cv != nil {
						return cv, nil
					}
					return nil, nil
				}
				var items []json.RawMessage
				_ = json.Unmarshal(raw, &items)
				return b.componentList(p, c, items)
			}})
		case models.TypeRelation:
			t := b.targetOf(a)
			if t == nil || t.ct.System || a.IsMorph() {
				continue
			}
			resolve := func(p gql.ResolveParams) (any, error) {
				if !access(p.Context).Can(t.ct.Action("find")) {
					return nil, errs.Forbidden()
				}
				raw, err := load(p, a.Name)
				if err != nil {
					return nil, err
				}
				return b.relationFromJSON(p, a, t, raw)
			}
			if a.IsToMany() {
				userType.AddFieldConfig(a.Name, &gql.Field{Type: t.relation, Resolve: resolve,
					Args: gql.FieldConfigArgument{"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}}}})
			} else {
				userType.AddFieldConfig(a.Name, &gql.Field{Type: t.response, Resolve: resolve})
			}
		}
	}
}

// readUserExtensions reads the populated extension attributes pops of
// users (those not read yet) in one query.
func readUserExtensions(ctx context.Context, svc *auth.Service, users []*upUser, pops []string) error {
	byID := map[int64][]*upUser{}
	var ids []any
	for _, u := range users {
		if u.ext != nil {
			continue
		}
		if byID[u.v.ID] == nil {
			ids = append(ids, u.v.ID)
		}
		byID[u.v.ID] = append(byID[u.v.ID], u)
		u.ext = map[string]json.RawMessage{}
	}
	if len(ids) == 0 {
		return nil
	}
	q := &query.Query{Filter: &query.Cond{Path: []string{"id"}, Op: query.OpIn, Value: ids},
		Populate: map[string]*query.Populate{}, Page: query.Pagination{OffsetMode: true, Limit: len(ids)}}
	for _, n := range pops {
		q.Populate[n] = &query.Populate{}
	}
	list, err := svc.ListUsers(ctx, access(ctx), q)
	if err != nil {
		for _, us := range byID {
			for _, u := range us {
				u.ext = nil
			}
		}
		return err
	}
	for _, v := range list {
		uv, ok := v.(*auth.UserView)
		if !ok || len(uv.Populated) == 0 {
			continue
		}
		for _, u := range byID[uv.ID] {
			_ = json.Unmarshal(append(append([]byte{'{'}, uv.Populated...), '}'), &u.ext)
		}
	}
	return nil
}
