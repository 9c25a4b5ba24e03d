package gqlschema

import (
	"context"
	"encoding/json"
	"strconv"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// The users-permissions collections of the v4 plugin: usersPermissionsUser(s)
// and usersPermissionsRole(s) with their create, update and delete
// mutations. They call the same auth service functions as REST's
// /api/users and /api/users-permissions/roles, with the same permission
// actions; users are filtered, sorted and paged by store's users compiler.

// upUser is a user as the resolvers read it.
type upUser struct {
	v *auth.UserView
	// ext holds the extension's populated attributes, read on first use.
	ext map[string]json.RawMessage
	// batch is the list the user came in (a page, a relation): its users'
	// extension attributes are read together.
	batch *userBatch
}

// userBatch is the users of one list: the first whose extension's
// relations, media or components are selected reads them for all, in one
// query, instead of one query per user.
type userBatch struct {
	users []*upUser
	read  bool
}

// batched puts users in one batch.
func batched(users []*upUser) []*upUser {
	if len(users) > 1 {
		b := &userBatch{users: users}
		for _, u := range users {
			u.batch = b
		}
	}
	return users
}

type upUserResponse struct{ u *upUser }

type upUserCollection struct {
	users []*upUser
	q     *query.Query
	page  query.Pagination
	def   int
}

type upRole struct {
	v     *auth.RoleSummary
	perms []string
}

type upRoleResponse struct{ r *upRole }

type upRoleCollection struct{ roles []*upRole }

type upPermission struct {
	id     int
	action string
}

func (b *builder) usersPermissionsCollections(svc *auth.Service) {
	sh := b.sh
	str := func(get func(any) any) *gql.Field {
		return &gql.Field{Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return get(p.Source), nil }}
	}
	nn := func(get func(any) any) *gql.Field {
		f := str(get)
		f.Type = gql.NewNonNull(gql.String)
		return f
	}
	boolean := func(get func(any) any) *gql.Field {
		return &gql.Field{Type: gql.Boolean, Resolve: func(p gql.ResolveParams) (any, error) { return get(p.Source), nil }}
	}
	date := func(get func(any) any) *gql.Field {
		return &gql.Field{Type: dateTimeScalar, Resolve: func(p gql.ResolveParams) (any, error) { return nilIfEmpty(get(p.Source).(string)), nil }}
	}
	user := func(s any) *auth.UserView { return s.(*upUser).v }
	role := func(s any) *upRole { return s.(*upRole) }

	permission := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsPermission", Fields: gql.Fields{
		"action": nn(func(s any) any { return s.(*upPermission).action }),
	}})
	permissionEntity := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsPermissionEntity", Fields: gql.Fields{
		"id":         &gql.Field{Type: gql.ID, Resolve: func(p gql.ResolveParams) (any, error) { return strconv.Itoa(p.Source.(*upPermission).id), nil }},
		"attributes": &gql.Field{Type: permission, Resolve: resolveSource},
	}})
	permissionRelation := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsPermissionRelationResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(permissionEntity))), Resolve: resolveSource},
	}})

	var userEntity *gql.Object
	userRelation := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsUserRelationResponseCollection", Fields: gql.FieldsThunk(func() gql.Fields {
		return gql.Fields{"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(userEntity))), Resolve: resolveSource}}
	})})
	roleExtScalars := b.extensionScalars(models.RoleUID)
	roleType := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsRole", Fields: gql.FieldsThunk(func() gql.Fields {
		f := gql.Fields{
			"name":        nn(func(s any) any { return role(s).v.Name }),
			"description": str(func(s any) any { return nilIfEmpty(role(s).v.Description) }),
			"type":        str(func(s any) any { return nilIfEmpty(role(s).v.Type) }),
			"permissions": &gql.Field{Type: permissionRelation, Resolve: func(p gql.ResolveParams) (any, error) {
				r := role(p.Source)
				out := make([]*upPermission, len(r.perms))
				for i, a := range r.perms {
					out[i] = &upPermission{id: i + 1, action: a}
				}
				return out, nil
			}},
			"users": &gql.Field{Type: userRelation, Args: gql.FieldConfigArgument{"pagination": {Type: sh.paginationArg, DefaultValue: map[string]any{}}},
				Resolve: func(p gql.ResolveParams) (any, error) {
					if !access(p.Context).Can(auth.ActionUserFind) {
						return nil, errs.Forbidden()
					}
					q := &query.Query{Filter: &query.Cond{Path: []string{"role", "id"}, Op: query.OpEq, Value: role(p.Source).v.ID}}
					c, err := b.findUsers(p.Context, svc, q, p.Args["pagination"])
					if err != nil {
						return nil, err
					}
					return c.users, nil
				}},
			"createdAt": date(func(s any) any { return role(s).v.CreatedAt }),
			"updatedAt": date(func(s any) any { return role(s).v.UpdatedAt }),
		}
		// The scalars a role extension adds.
		for _, a := range roleExtScalars {
			f[a.Name] = extensionScalarField(a, func(s any) []byte { return role(s).v.Ext })
		}
		return f
	})})
	roleEntity := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsRoleEntity", Fields: gql.Fields{
		"id":         &gql.Field{Type: gql.ID, Resolve: func(p gql.ResolveParams) (any, error) { return strconv.FormatInt(role(p.Source).v.ID, 10), nil }},
		"attributes": &gql.Field{Type: roleType, Resolve: resolveSource},
	}})
	roleResponse := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsRoleEntityResponse", Fields: gql.Fields{
		"data": &gql.Field{Type: roleEntity, Resolve: func(p gql.ResolveParams) (any, error) {
			if r := p.Source.(*upRoleResponse).r; r != nil {
				return r, nil
			}
			return nil, nil
		}},
	}})
	roleCollection := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsRoleEntityResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(roleEntity))), Resolve: func(p gql.ResolveParams) (any, error) {
			return p.Source.(*upRoleCollection).roles, nil
		}},
		"meta": &gql.Field{Type: gql.NewNonNull(sh.meta), Resolve: func(p gql.ResolveParams) (any, error) {
			n := len(p.Source.(*upRoleCollection).roles)
			return &pageInfo{page: 1, pageSize: n, total: n, pageCount: 1}, nil
		}},
	}})

	userType := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsUser", Fields: gql.Fields{
		"username":  nn(func(s any) any { return user(s).Username }),
		"email":     nn(func(s any) any { return user(s).Email }),
		"provider":  str(func(s any) any { return nilIfEmpty(user(s).Provider) }),
		"confirmed": boolean(func(s any) any { return user(s).Confirmed }),
		"blocked":   boolean(func(s any) any { return user(s).Blocked }),
		"role": &gql.Field{Type: roleResponse, Resolve: func(p gql.ResolveParams) (any, error) {
			// A relation like any other: the role needs its find permission.
			if !access(p.Context).Can(auth.ActionRoleFind) {
				return nil, errs.Forbidden()
			}
			if r := user(p.Source).Role; r != nil {
				return &upRoleResponse{r: &upRole{v: r}}, nil
			}
			return &upRoleResponse{}, nil
		}},
		"createdAt": date(func(s any) any { return user(s).CreatedAt }),
		"updatedAt": date(func(s any) any { return user(s).UpdatedAt }),
	}})
	// The scalars a users-permissions extension adds (phone, ...).
	extScalars := b.extensionScalars(models.UserUID)
	for _, a := range extScalars {
		userType.AddFieldConfig(a.Name, extensionScalarField(a, func(s any) []byte { return user(s).Ext }))
	}
	// And its relations, media and components (user_relations.go).
	b.userExtensionFields(svc, userType)
	userEntity = gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsUserEntity", Fields: gql.Fields{
		"id":         &gql.Field{Type: gql.ID, Resolve: func(p gql.ResolveParams) (any, error) { return strconv.FormatInt(user(p.Source).ID, 10), nil }},
		"attributes": &gql.Field{Type: userType, Resolve: resolveSource},
	}})
	userResponse := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsUserEntityResponse", Fields: gql.Fields{
		"data": &gql.Field{Type: userEntity, Resolve: func(p gql.ResolveParams) (any, error) {
			if u := p.Source.(*upUserResponse).u; u != nil {
				return u, nil
			}
			return nil, nil
		}},
	}})
	userCollection := gql.NewObject(gql.ObjectConfig{Name: "UsersPermissionsUserEntityResponseCollection", Fields: gql.Fields{
		"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(userEntity))), Resolve: func(p gql.ResolveParams) (any, error) {
			return p.Source.(*upUserCollection).users, nil
		}},
		"meta": &gql.Field{Type: gql.NewNonNull(sh.meta), Resolve: func(p gql.ResolveParams) (any, error) {
			c := p.Source.(*upUserCollection)
			total, err := svc.CountUsers(p.Context, access(p.Context), c.q)
			if err != nil {
				return nil, err
			}
			return c.meta(int(total)), nil
		}},
	}})

	roleFilters := gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsRoleFiltersInput", Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
		return gql.InputObjectConfigFieldMap{
			"id": {Type: sh.idFilter}, "name": {Type: sh.filters[gql.String]}, "description": {Type: sh.filters[gql.String]},
			"type": {Type: sh.filters[gql.String]}, "createdAt": {Type: sh.filters[dateTimeScalar]}, "updatedAt": {Type: sh.filters[dateTimeScalar]},
		}
	})})
	var userFilters *gql.InputObject
	userFilters = gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsUserFiltersInput", Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
		m := gql.InputObjectConfigFieldMap{
			"id": {Type: sh.idFilter}, "username": {Type: sh.filters[gql.String]}, "email": {Type: sh.filters[gql.String]},
			"provider": {Type: sh.filters[gql.String]}, "confirmed": {Type: sh.filters[gql.Boolean]}, "blocked": {Type: sh.filters[gql.Boolean]},
			"role": {Type: roleFilters}, "createdAt": {Type: sh.filters[dateTimeScalar]}, "updatedAt": {Type: sh.filters[dateTimeScalar]},
			"and": {Type: gql.NewList(userFilters)}, "or": {Type: gql.NewList(userFilters)}, "not": {Type: userFilters},
		}
		for _, a := range extScalars {
			if f := b.sh.filters[scalarType(a)]; f != nil {
				m[a.Name] = &gql.InputObjectFieldConfig{Type: f}
			}
		}
		return m
	})})
	// Content types' relations to users use these types (user_relations.go).
	if ut := b.ms.Type(models.UserUID); ut != nil {
		b.types[models.UserUID] = &ctTypes{ct: ut, name: "UsersPermissionsUser", attrs: userType, entity: userEntity,
			response: userResponse, collection: userCollection, relation: userRelation, filters: userFilters}
	}
	userInput := gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsUserInput", Fields: gql.InputObjectConfigFieldMap{
		"username": {Type: gql.String}, "email": {Type: gql.String}, "provider": {Type: gql.String}, "password": {Type: gql.String},
		"confirmed": {Type: gql.Boolean}, "blocked": {Type: gql.Boolean}, "role": {Type: gql.ID},
	}})
	for _, a := range extScalars {
		if a.IsWritable() {
			userInput.AddFieldConfig(a.Name, &gql.InputObjectFieldConfig{Type: scalarType(a)})
		}
	}
	roleInput := gql.NewInputObject(gql.InputObjectConfig{Name: "UsersPermissionsRoleInput", Fields: gql.InputObjectConfigFieldMap{
		"name": {Type: gql.String}, "description": {Type: gql.String}, "type": {Type: gql.String},
		// The actions the role may take ("api::article.article.find").
		"permissions": {Type: gql.NewList(gql.ID)},
	}})
	for _, a := range roleExtScalars {
		if a.IsWritable() {
			roleInput.AddFieldConfig(a.Name, &gql.InputObjectFieldConfig{Type: scalarType(a)})
		}
	}
	ok := func(name string) *gql.Object {
		return gql.NewObject(gql.ObjectConfig{Name: name, Fields: gql.Fields{
			"ok": &gql.Field{Type: gql.NewNonNull(gql.Boolean), Resolve: func(gql.ResolveParams) (any, error) { return true, nil }},
		}})
	}
	createRolePayload, updateRolePayload, deleteRolePayload := ok("UsersPermissionsCreateRolePayload"), ok("UsersPermissionsUpdateRolePayload"), ok("UsersPermissionsDeleteRolePayload")
	for _, t := range []gql.Type{permission, permissionEntity, permissionRelation, roleType, roleEntity, roleResponse, roleCollection,
		userType, userEntity, userResponse, userCollection, roleFilters, userFilters, userInput, roleInput,
		createRolePayload, updateRolePayload, deleteRolePayload} {
		b.upTypes[t.Name()] = t
	}

	can := func(ctx context.Context, action string) error {
		if !access(ctx).Can(action) {
			return errs.Forbidden()
		}
		return nil
	}
	idArg := func(p gql.ResolveParams) (int64, bool) {
		s, _ := p.Args["id"].(string)
		id, err := strconv.ParseInt(s, 10, 64)
		return id, err == nil && id > 0
	}
	userNotFound := func() error { return errs.Errorf(errs.KindNotFound, "User not found") }
	roleNotFound := func() error { return errs.Errorf(errs.KindNotFound, "Role not found") }
	userByID := func(ctx context.Context, id int64) (*upUser, error) {
		v, err := svc.GetUser(ctx, access(ctx), id, b.userQuery(ctx, &query.Query{}))
		if err != nil || v == nil {
			return nil, err
		}
		uv, _ := v.(*auth.UserView)
		if uv == nil {
			return nil, nil
		}
		return &upUser{v: uv}, nil
	}
	view := func(ctx context.Context, id int64, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		u, err := userByID(ctx, id)
		if err != nil {
			return nil, err
		}
		return &upUserResponse{u: u}, nil
	}
	userData := func(p gql.ResolveParams) map[string]any {
		data, _ := p.Args["data"].(map[string]any)
		out := make(map[string]any, len(data))
		for k, v := range data {
			if k == "role" { // an ID: REST's body takes the number
				if s, ok := v.(string); ok {
					if n, err := strconv.ParseInt(s, 10, 64); err == nil {
						v = n
					}
				}
				out[k] = v
				continue
			}
			out[k] = bodyValue(v)
		}
		return out
	}
	pageArgs := gql.FieldConfigArgument{
		"filters":    {Type: userFilters},
		"pagination": {Type: sh.paginationArg, DefaultValue: map[string]any{}},
		"sort":       {Type: gql.NewList(gql.String), DefaultValue: []any{}},
	}

	b.query["usersPermissionsUsers"] = &gql.Field{Type: userCollection, Args: pageArgs, Resolve: func(p gql.ResolveParams) (any, error) {
		if err := can(p.Context, auth.ActionUserFind); err != nil {
			return nil, err
		}
		f, err := userFilter(p.Args["filters"])
		if err != nil {
			return nil, err
		}
		sorts, err := parseSort(p.Args["sort"])
		if err != nil {
			return nil, err
		}
		return b.findUsers(p.Context, svc, &query.Query{Filter: f, Sort: sorts}, p.Args["pagination"])
	}}
	b.query["usersPermissionsUser"] = &gql.Field{Type: userResponse, Args: gql.FieldConfigArgument{"id": {Type: gql.ID}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionUserOne); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return &upUserResponse{}, nil
			}
			u, err := userByID(p.Context, id)
			if err != nil {
				return nil, err
			}
			return &upUserResponse{u: u}, nil
		}}
	b.mut["createUsersPermissionsUser"] = &gql.Field{Type: gql.NewNonNull(userResponse), Args: gql.FieldConfigArgument{"data": {Type: gql.NewNonNull(userInput)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionUserCreate); err != nil {
				return nil, err
			}
			u, err := svc.CreateUser(p.Context, userData(p))
			if err != nil {
				return nil, err
			}
			return view(p.Context, u.ID, nil)
		}}
	b.mut["updateUsersPermissionsUser"] = &gql.Field{Type: gql.NewNonNull(userResponse),
		Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}, "data": {Type: gql.NewNonNull(userInput)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionUserUpdate); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return nil, userNotFound()
			}
			body := userData(p)
			if err := auth.SelfUpdate(Principal(p.Context), id, body); err != nil {
				return nil, err
			}
			_, err := svc.UpdateUser(p.Context, id, body)
			return view(p.Context, id, err)
		}}
	b.mut["deleteUsersPermissionsUser"] = &gql.Field{Type: gql.NewNonNull(userResponse), Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionUserDelete); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return nil, userNotFound()
			}
			u, err := userByID(p.Context, id) // answered as it was before the delete
			if err != nil {
				return nil, err
			}
			if u == nil {
				return nil, userNotFound()
			}
			if _, err := svc.DeleteUser(p.Context, id); err != nil {
				return nil, err
			}
			return &upUserResponse{u: u}, nil
		}}

	b.query["usersPermissionsRoles"] = &gql.Field{Type: roleCollection, Resolve: func(p gql.ResolveParams) (any, error) {
		if err := can(p.Context, auth.ActionRoleFind); err != nil {
			return nil, err
		}
		views, err := svc.ListRoles(p.Context)
		if err != nil {
			return nil, err
		}
		out := &upRoleCollection{roles: make([]*upRole, len(views))}
		for i := range views {
			out.roles[i] = &upRole{v: &views[i].RoleSummary, perms: views[i].Permissions}
		}
		return out, nil
	}}
	b.query["usersPermissionsRole"] = &gql.Field{Type: roleResponse, Args: gql.FieldConfigArgument{"id": {Type: gql.ID}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionRoleFindOne); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return &upRoleResponse{}, nil
			}
			v, err := svc.GetRole(p.Context, id)
			if err != nil {
				if errs.From(err).Kind == errs.KindNotFound {
					return &upRoleResponse{}, nil // {data: null}, as for an unknown id elsewhere
				}
				return nil, err
			}
			return &upRoleResponse{r: &upRole{v: &v.RoleSummary, perms: v.Permissions}}, nil
		}}
	roleData := func(p gql.ResolveParams, create bool) (auth.RoleInput, error) {
		data, _ := p.Args["data"].(map[string]any)
		body := map[string]any{}
		for k, v := range data {
			if k != "type" { // the type follows the name, as in REST
				body[k] = bodyValue(v)
			}
		}
		return auth.ParseRoleInput(body, create)
	}
	b.mut["createUsersPermissionsRole"] = &gql.Field{Type: createRolePayload, Args: gql.FieldConfigArgument{"data": {Type: gql.NewNonNull(roleInput)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionRoleCreate); err != nil {
				return nil, err
			}
			in, err := roleData(p, true)
			if err != nil {
				return nil, err
			}
			if _, err := svc.CreateRole(p.Context, in); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}}
	b.mut["updateUsersPermissionsRole"] = &gql.Field{Type: updateRolePayload,
		Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}, "data": {Type: gql.NewNonNull(roleInput)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionRoleUpdate); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return nil, roleNotFound()
			}
			in, err := roleData(p, false)
			if err != nil {
				return nil, err
			}
			if _, err := svc.UpdateRole(p.Context, id, in); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}}
	b.mut["deleteUsersPermissionsRole"] = &gql.Field{Type: deleteRolePayload, Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}},
		Resolve: func(p gql.ResolveParams) (any, error) {
			if err := can(p.Context, auth.ActionRoleDelete); err != nil {
				return nil, err
			}
			id, ok := idArg(p)
			if !ok {
				return nil, roleNotFound()
			}
			if err := svc.PublicRoleDeletion(p.Context, id); err != nil {
				return nil, err
			}
			if _, err := svc.DeleteRole(p.Context, id); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}}
}

// userQuery populates the role when the caller may read roles (the role
// field checks again, and answers FORBIDDEN at its path otherwise).
func (b *builder) userQuery(ctx context.Context, q *query.Query) *query.Query {
	if access(ctx).Can(auth.ActionRoleFind) {
		q.Populate = map[string]*query.Populate{"role": {}}
	}
	return q
}

// findUsers reads one page of users.
func (b *builder) findUsers(ctx context.Context, svc *auth.Service, q *query.Query, pagination any) (*upUserCollection, error) {
	page, err := b.srv.pagination(pagination)
	if err != nil {
		return nil, err
	}
	def := min(b.srv.eng.Config().DefaultLimit, b.srv.cfg.amountLimit())
	if !page.OffsetMode && page.PageSize == 0 {
		page.PageSize = def
	}
	if page.OffsetMode && page.Limit == 0 {
		page.Limit = def
	}
	q.Page = page
	if err := auth.UserQueryAccess(access(ctx).Can, q); err != nil {
		return nil, err
	}
	list, err := svc.ListUsers(ctx, access(ctx), b.userQuery(ctx, q))
	if err != nil {
		return nil, err
	}
	out := &upUserCollection{q: q, page: page, def: def, users: make([]*upUser, 0, len(list))}
	for _, v := range list {
		if uv, ok := v.(*auth.UserView); ok {
			out.users = append(out.users, &upUser{v: uv})
		}
	}
	batched(out.users)
	return out, nil
}

func (c *upUserCollection) meta(total int) *pageInfo {
	size, page := c.page.PageSize, max(c.page.Page, 1)
	if c.page.OffsetMode {
		size = c.page.Limit
		page = c.page.Start/max(size, 1) + 1
	}
	size = max(size, 1)
	return &pageInfo{page: page, pageSize: size, total: total, pageCount: (total + size - 1) / size}
}

// extensionScalarField reads a scalar of a user's or role's extension from
// its JSON members (ext of the source).
func extensionScalarField(a *models.Attribute, ext func(any) []byte) *gql.Field {
	name := a.Name
	return &gql.Field{Type: scalarType(a), Resolve: func(p gql.ResolveParams) (any, error) {
		var m map[string]any
		if e := ext(p.Source); len(e) > 0 {
			_ = json.Unmarshal([]byte("{"+string(e)+"}"), &m)
		}
		return m[name], nil
	}}
}

// extensionScalars are the public scalar attributes a users-permissions
// extension adds to the user or the role, as GraphQL fields of their types.
func (b *builder) extensionScalars(uid string) []*models.Attribute {
	ct := b.ms.Type(uid)
	if ct == nil || ct.Extension() == nil {
		return nil
	}
	var out []*models.Attribute
	for _, a := range ct.Extension().Attributes {
		if a.IsScalar() && !a.IsHidden() && scalarType(a) != nil {
			out = append(out, a)
		}
	}
	return out
}

// userFilter turns a UsersPermissionsUserFiltersInput into the filter
// tree store's users compiler reads (role.* through the role).
func userFilter(v any) (query.Filter, error) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, nil
	}
	return userFilterNode(nil, m)
}

func userFilterNode(path []string, m map[string]any) (query.Filter, error) {
	var parts []query.Filter
	for _, k := range sortedKeys(m) {
		v := m[k]
		var f query.Filter
		var err error
		switch k {
		case "and", "or", "not":
			f, err = logical(k, v, func(im map[string]any) (query.Filter, error) { return userFilterNode(path, im) })
		case "role":
			if im, _ := v.(map[string]any); len(im) > 0 && path == nil {
				f, err = userFilterNode([]string{"role"}, im)
			}
		default:
			f, err = scalarOps(with(path, k), v)
		}
		if err != nil {
			return nil, err
		}
		if f != nil {
			parts = append(parts, f)
		}
	}
	return combine(parts, false), nil
}
