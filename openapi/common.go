package openapi

// The parts every document shares: media, the envelopes, the query
// parameters and the error answers.

func baseSchemas() obj {
	format := obj{"type": "object", "properties": obj{"name": obj{"type": "string"}, "hash": obj{"type": "string"},
		"ext": obj{"type": "string"}, "mime": obj{"type": "string"}, "path": obj{"type": []any{"string", "null"}},
		"width": obj{"type": "integer"}, "height": obj{"type": "integer"}, "size": obj{"type": "number"},
		"sizeInBytes": obj{"type": "integer"}, "url": obj{"type": "string"}}}
	str := obj{"type": "string"}
	nstr := obj{"type": []any{"string", "null"}}
	nint := obj{"type": []any{"integer", "null"}}
	return obj{
		"MediaFormat": format,
		"Media": obj{"type": "object", "required": []any{"id", "url"}, "properties": obj{
			"id": obj{"type": "integer"}, "documentId": str, "name": str, "alternativeText": nstr, "caption": nstr,
			"focalPoint": obj{"description": "{x, y} or null"}, "width": nint, "height": nint, "formats": obj{"type": []any{"object", "null"}, "additionalProperties": ref("MediaFormat")},
			"hash": str, "ext": str, "mime": str, "size": obj{"type": "number"}, "url": str, "previewUrl": nstr,
			"provider": str, "provider_metadata": obj{}, "createdAt": str, "updatedAt": str, "publishedAt": nstr}},
		"RelationCount": obj{"type": "object", "required": []any{"count"}, "properties": obj{"count": obj{"type": "integer"}},
			"description": "A to-many relation populated with count: true."},
		"RelationInput": obj{"description": "documentIds (or ids), a list of them, or {connect, disconnect, set} with optional positions.",
			"anyOf": []any{obj{"type": []any{"string", "integer", "null"}}, obj{"type": "array"}, obj{"type": "object",
				"properties": obj{"connect": obj{"type": "array"}, "disconnect": obj{"type": "array"}, "set": obj{"type": "array"}}}}},
		"Pagination": obj{"type": "object", "properties": obj{"page": obj{"type": "integer"}, "pageSize": obj{"type": "integer"},
			"pageCount": obj{"type": "integer"}, "start": obj{"type": "integer"}, "limit": obj{"type": "integer"}, "total": obj{"type": "integer"}}},
		"ListMeta": obj{"type": "object", "properties": obj{"pagination": ref("Pagination")}},
		"Error": obj{"type": "object", "required": []any{"data", "error"}, "properties": obj{
			"data": obj{"type": "null"},
			"error": obj{"type": "object", "required": []any{"status", "name", "message"}, "properties": obj{
				"status": obj{"type": "integer"}, "name": str, "message": str, "details": obj{}}}}},
		"User": obj{"type": "object", "required": []any{"id", "username"}, "properties": obj{
			"id": obj{"type": "integer"}, "documentId": str, "username": str, "email": str, "provider": str,
			"confirmed": obj{"type": "boolean"}, "blocked": obj{"type": "boolean"}, "createdAt": str, "updatedAt": str,
			"publishedAt": nstr, "role": obj{"type": "object"}}},
		"Session": obj{"type": "object", "required": []any{"user"}, "properties": obj{"jwt": str, "user": ref("User")}},
	}
}

// parameters are Strapi's query parameters, as qs writes them
// (filters[title][$eq]=x: deepObject).
func parameters() obj {
	deep := func(name, desc string) obj {
		return obj{"name": name, "in": "query", "style": "deepObject", "explode": true, "description": desc,
			"schema": obj{"type": "object"}}
	}
	return obj{
		"filters":    deep("filters", "filters[field][$operator]=value, nested through relations and components; $and, $or, $not."),
		"populate":   obj{"name": "populate", "in": "query", "description": "*, a list of attributes, or populate[attr][fields|filters|sort|populate|on|count]...", "schema": obj{}},
		"pagination": deep("pagination", "pagination[page] and [pageSize], or [start] and [limit]; [withCount]."),
		"sort":       obj{"name": "sort", "in": "query", "description": "field, field:asc, field:desc, relation.field, or a list (sort[0]=...).", "schema": obj{}},
		"fields":     obj{"name": "fields", "in": "query", "description": "The scalar attributes to return (fields[0]=title).", "schema": obj{}},
		"locale":     obj{"name": "locale", "in": "query", "description": "A configured locale, or * for every locale.", "schema": obj{"type": "string"}},
		"status":     obj{"name": "status", "in": "query", "description": "published (default) or draft.", "schema": obj{"type": "string", "enum": []any{"published", "draft"}}},
		"documentId": obj{"name": "documentId", "in": "path", "required": true, "schema": obj{"type": "string"}},
		"id":         obj{"name": "id", "in": "path", "required": true, "schema": obj{"type": "integer"}},
	}
}

func errorResponses() obj {
	out := obj{}
	for _, e := range []struct{ name, desc string }{
		{"BadRequest", "ValidationError, PaginationError or ApplicationError"}, {"Unauthorized", "Missing or invalid credentials"},
		{"Forbidden", "The credential lacks the permission"}, {"NotFound", "No such document"},
		{"TooManyRequests", "Rate limited"}} {
		out[e.name] = obj{"description": e.desc, "content": obj{"application/json": obj{"schema": ref("Error")}}}
	}
	return out
}

func pref(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = obj{"$ref": "#/components/parameters/" + n}
	}
	return out
}

func jsonBody(schema obj) obj {
	return obj{"required": true, "content": obj{"application/json": obj{"schema": schema}}}
}

func answer(desc string, schema obj) obj {
	return obj{"description": desc, "content": obj{"application/json": obj{"schema": schema}}}
}

func withErrors(ok map[string]any, codes ...string) obj {
	out := obj{}
	for k, v := range ok {
		out[k] = v
	}
	names := map[string]string{"400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "404": "NotFound", "429": "TooManyRequests"}
	for _, c := range codes {
		out[c] = obj{"$ref": "#/components/responses/" + names[c]}
	}
	return out
}
