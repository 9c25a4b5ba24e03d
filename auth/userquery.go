package auth

import (
	"github.com/stratum-cms/stratum/errs"
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
}

func userShapeOf(q *query.Query) (*userShape, error) {
	sh := &userShape{}
	if q == nil {
		return sh, nil
	}
	for k := range q.Populate {
		if k != "role" && k != "*" {
			return nil, errs.InvalidKey(k, k, "query", "populate")
		}
		sh.populateRole = true
	}
	if q.Fields != nil {
		for _, f := range q.Fields {
			if !userFields[f] {
				return nil, errs.InvalidKey(f, f, "query", "fields")
			}
		}
		sh.fields = q.Fields
	}
	return sh, nil
}

// view is a user as the answer shows it: the view, or a map of the
// selected fields.
func (sh *userShape) view(u *UserWithRole) any {
	v := userView(&u.User, u.Role)
	if sh.fields == nil {
		return v
	}
	m := map[string]any{"id": v.ID, "documentId": v.DocumentID}
	full := map[string]any{"username": v.Username, "email": v.Email, "provider": v.Provider, "confirmed": v.Confirmed,
		"blocked": v.Blocked, "createdAt": v.CreatedAt, "updatedAt": v.UpdatedAt, "publishedAt": v.PublishedAt}
	for _, f := range sh.fields {
		if val, ok := full[f]; ok {
			m[f] = val
		}
	}
	if v.Role != nil {
		m["role"] = v.Role
	}
	return m
}
