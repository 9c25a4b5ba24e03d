package auth

import (
	"encoding/json"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// The users collection accepts the content API's query model. Filters,
// sort and pagination are the store's (Tx.FindUsers, compiled with the
// documents' compiler); what a user looks like in the answer (fields,
// populate=role) is checked and applied here.

// userFields are the fields a users query may select.
var userFields = map[string]bool{
	"id": true, "documentId": true, "username": true, "email": true, "provider": true, "confirmed": true,
	"blocked": true, "createdAt": true, "updatedAt": true, "publishedAt": true,
}

type userShape struct {
	fields       []string // nil: all
	populateRole bool
	// populate holds the extension's attributes to populate.
	populate map[string]*query.Populate
}

// userShapeOf checks fields and populate of a users query: the built-in
// fields and role, and the attributes of the users-permissions extension
// (ct: the user type, nil without one).
func userShapeOf(q *query.Query, ct *models.ContentType) (*userShape, error) {
	sh := &userShape{}
	if q == nil {
		return sh, nil
	}
	var ext *models.ContentType
	if ct != nil {
		ext = ct.Extension()
	}
	for k, p := range q.Populate {
		switch {
		case k == "role":
			sh.populateRole = true
		case k == "*":
			sh.populateRole = true
			if ext != nil {
				for _, a := range ext.Attributes {
					if a.IsPopulatable() && !a.IsHidden() {
						if sh.populate == nil {
							sh.populate = map[string]*query.Populate{}
						}
						if _, set := sh.populate[a.Name]; !set {
							sh.populate[a.Name] = &query.Populate{}
						}
					}
				}
			}
		case ext != nil && ext.Attr(k) != nil && ext.Attr(k).IsPopulatable() && !ext.Attr(k).IsHidden():
			if sh.populate == nil {
				sh.populate = map[string]*query.Populate{}
			}
			sh.populate[k] = p
		default:
			return nil, errs.InvalidKey(k, k, "query", "populate")
		}
	}
	if q.Fields != nil {
		for _, f := range q.Fields {
			if userFields[f] {
				continue
			}
			if a := extAttr(ext, f); a == nil || !a.IsScalar() || a.IsHidden() {
				return nil, errs.InvalidKey(f, f, "query", "fields")
			}
		}
		sh.fields = q.Fields
	}
	return sh, nil
}

func extAttr(ext *models.ContentType, name string) *models.Attribute {
	if ext == nil {
		return nil
	}
	return ext.Attr(name)
}

// view is a user as the answer shows it: the view, or a map of the
// selected fields.
func (sh *userShape) view(u *UserWithRole, populated []byte) any {
	v := userView(&u.User, u.Role)
	v.Populated = populated
	if sh.fields == nil {
		return v
	}
	m := map[string]any{"id": v.ID, "documentId": v.DocumentID}
	full := map[string]any{"username": v.Username, "email": v.Email, "provider": v.Provider, "confirmed": v.Confirmed,
		"blocked": v.Blocked, "createdAt": v.CreatedAt, "updatedAt": v.UpdatedAt, "publishedAt": v.PublishedAt}
	var ext map[string]json.RawMessage
	_ = json.Unmarshal(u.Data, &ext)
	for _, f := range sh.fields {
		if val, ok := full[f]; ok {
			m[f] = val
		} else if val, ok := ext[f]; ok {
			m[f] = val
		}
	}
	if v.Role != nil {
		m["role"] = v.Role
	}
	if len(populated) > 0 {
		var pop map[string]json.RawMessage
		_ = json.Unmarshal([]byte("{"+string(populated)+"}"), &pop)
		for k, val := range pop {
			m[k] = val
		}
	}
	return m
}
