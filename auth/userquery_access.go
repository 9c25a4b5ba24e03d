package auth

import (
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/query"
)

// UserQueryAccess applies the rule of every query to a users query: a
// path through the role (a filter or a sort on role.*) needs the role find
// permission, or it is an invalid key, as Strapi's query validation
// answers; a populate of the role is dropped, as its output sanitizer
// drops a relation the caller may not read. The me endpoints keep the role
// (a user may always see their own).
func UserQueryAccess(can func(string) bool, q *query.Query) error {
	if q == nil || can(ActionRoleFind) {
		return nil
	}
	if throughRole(q.Filter) {
		return errs.InvalidKey("role", "role", "query", "filters")
	}
	for _, s := range q.Sort {
		if len(s.Path) > 0 && s.Path[0] == "role" {
			return errs.InvalidKey("role", "role", "query", "sort")
		}
	}
	delete(q.Populate, "role")
	delete(q.Populate, "*")
	return nil
}

func throughRole(f query.Filter) bool {
	switch x := f.(type) {
	case query.And:
		for _, it := range x {
			if throughRole(it) {
				return true
			}
		}
	case query.Or:
		for _, it := range x {
			if throughRole(it) {
				return true
			}
		}
	case query.Not:
		return throughRole(x.Filter)
	case *query.Cond:
		return len(x.Path) > 0 && x.Path[0] == "role"
	}
	return false
}
