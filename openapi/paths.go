package openapi

import (
	"github.com/stratum-cms/stratum/models"
)

// addTypePaths adds a content type's REST endpoints.
func addTypePaths(paths obj, prefix string, ct *models.ContentType, name string) {
	tag := []any{name}
	read := pref("fields", "populate", "locale", "status")
	listParams := pref("filters", "sort", "pagination", "fields", "populate", "locale", "status")
	op := func(summary, id string, params []any, body obj, ok obj, codes ...string) obj {
		o := obj{"summary": summary, "operationId": id, "tags": tag, "responses": withErrors(ok, codes...)}
		if len(params) > 0 {
			o["parameters"] = params
		}
		if body != nil {
			o["requestBody"] = body
		}
		return o
	}
	one := answer("The document", ref(name+"Response"))
	req := jsonBody(ref(name + "Request"))
	if ct.IsSingle() {
		paths[prefix+"/"+ct.Info.SingularName] = obj{
			"get":    op("Get the "+ct.Info.SingularName, "get"+name, read, nil, obj{"200": one}, "400", "401", "403", "404"),
			"put":    op("Create or update the "+ct.Info.SingularName, "put"+name, pref("locale", "status"), req, obj{"200": one}, "400", "401", "403"),
			"delete": op("Delete the "+ct.Info.SingularName, "delete"+name, pref("locale"), nil, obj{"204": obj{"description": "Deleted"}}, "401", "403"),
		}
		return
	}
	plural := ct.Info.PluralName
	paths[prefix+"/"+plural] = obj{
		"get":  op("List "+plural, "list"+name, listParams, nil, obj{"200": answer("A page of documents", ref(name+"ListResponse"))}, "400", "401", "403"),
		"post": op("Create a "+ct.Info.SingularName, "create"+name, pref("locale", "status"), req, obj{"201": answer("The created document", ref(name+"Response"))}, "400", "401", "403"),
	}
	idParam := pref("documentId")
	paths[prefix+"/"+plural+"/{documentId}"] = obj{
		"get":    op("Get a "+ct.Info.SingularName, "get"+name, append(idParam, read...), nil, obj{"200": one}, "400", "401", "403", "404"),
		"put":    op("Update a "+ct.Info.SingularName, "update"+name, append(pref("documentId"), pref("locale", "status")...), req, obj{"200": one}, "400", "401", "403", "404"),
		"delete": op("Delete a "+ct.Info.SingularName, "delete"+name, append(pref("documentId"), pref("locale")...), nil, obj{"204": obj{"description": "Deleted"}}, "401", "403", "404"),
	}
}

// addPluginPaths adds users-permissions and upload.
func addPluginPaths(paths obj, prefix string) {
	str := obj{"type": "string"}
	body := func(required []any, props obj) obj {
		return jsonBody(obj{"type": "object", "required": required, "properties": props})
	}
	session := answer("A JWT and the user", ref("Session"))
	ok := answer("Done", obj{"type": "object", "properties": obj{"ok": obj{"type": "boolean"}}})
	user := answer("A user", ref("User"))
	auth := func(summary string, b obj, res obj) obj {
		return obj{"post": obj{"summary": summary, "tags": []any{"Users-Permissions"}, "security": []any{obj{}},
			"requestBody": b, "responses": withErrors(obj{"200": res}, "400", "403", "429")}}
	}
	paths[prefix+"/auth/local"] = auth("Log in", body([]any{"identifier", "password"}, obj{"identifier": str, "password": str}), session)
	paths[prefix+"/auth/local/register"] = auth("Register", body([]any{"username", "email", "password"},
		obj{"username": str, "email": str, "password": str}), session)
	paths[prefix+"/auth/forgot-password"] = auth("Ask for a password reset mail", body([]any{"email"}, obj{"email": str}), ok)
	paths[prefix+"/auth/reset-password"] = auth("Set a password with a reset code", body([]any{"code", "password", "passwordConfirmation"},
		obj{"code": str, "password": str, "passwordConfirmation": str}), session)
	paths[prefix+"/auth/change-password"] = auth("Change the logged-in user's password", body([]any{"currentPassword", "password", "passwordConfirmation"},
		obj{"currentPassword": str, "password": str, "passwordConfirmation": str}), session)
	paths[prefix+"/auth/send-email-confirmation"] = auth("Send the confirmation mail again", body([]any{"email"}, obj{"email": str}),
		answer("Sent", obj{"type": "object", "properties": obj{"email": str, "sent": obj{"type": "boolean"}}}))
	paths[prefix+"/auth/email-confirmation"] = obj{"get": obj{"summary": "Confirm an email", "tags": []any{"Users-Permissions"},
		"parameters": []any{obj{"name": "confirmation", "in": "query", "required": true, "schema": str}},
		"responses":  withErrors(obj{"302": obj{"description": "To the confirmation page"}}, "400")}}
	userTag := []any{"Users-Permissions"}
	paths[prefix+"/users"] = obj{
		"get": obj{"summary": "List users", "tags": userTag, "parameters": pref("filters", "sort", "pagination", "fields", "populate"),
			"responses": withErrors(obj{"200": answer("Users (a plain array)", obj{"type": "array", "items": ref("User")})}, "400", "401", "403")},
		"post": obj{"summary": "Create a user", "tags": userTag, "requestBody": body([]any{"username", "email", "password"},
			obj{"username": str, "email": str, "password": str, "role": obj{"type": "integer"}}),
			"responses": withErrors(obj{"201": user}, "400", "401", "403")}}
	paths[prefix+"/users/me"] = obj{"get": obj{"summary": "The logged-in user", "tags": userTag, "parameters": pref("fields", "populate"),
		"responses": withErrors(obj{"200": user}, "401", "403")}}
	paths[prefix+"/users/count"] = obj{"get": obj{"summary": "Count users", "tags": userTag, "parameters": pref("filters"),
		"responses": withErrors(obj{"200": answer("A number", obj{"type": "integer"})}, "401", "403")}}
	paths[prefix+"/users/{id}"] = obj{
		"get":    obj{"summary": "Get a user", "tags": userTag, "parameters": pref("id", "fields", "populate"), "responses": withErrors(obj{"200": user, "204": obj{"description": "No such user"}}, "401", "403")},
		"put":    obj{"summary": "Update a user", "tags": userTag, "parameters": pref("id"), "requestBody": jsonBody(obj{"type": "object"}), "responses": withErrors(obj{"200": user}, "400", "401", "403", "404")},
		"delete": obj{"summary": "Delete a user", "tags": userTag, "parameters": pref("id"), "responses": withErrors(obj{"200": user}, "401", "403", "404")}}
	files := answer("Files", obj{"type": "array", "items": ref("Media")})
	upTag := []any{"Upload"}
	paths[prefix+"/upload"] = obj{"post": obj{"summary": "Upload files (or, with ?id=, update a file's info)", "tags": upTag,
		"parameters": []any{obj{"name": "id", "in": "query", "schema": obj{"type": "integer"}}},
		"requestBody": obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": obj{"type": "object", "properties": obj{
			"files":    obj{"type": "array", "items": obj{"type": "string", "contentEncoding": "binary"}},
			"fileInfo": obj{"type": "string", "description": "JSON: {name, alternativeText, caption}"}}}}}},
		"responses": withErrors(obj{"201": files, "200": answer("The updated file", ref("Media"))}, "400", "401", "403")}}
	paths[prefix+"/upload/files"] = obj{"get": obj{"summary": "List files", "tags": upTag, "responses": withErrors(obj{"200": files}, "401", "403")}}
	paths[prefix+"/upload/files/{id}"] = obj{
		"get":    obj{"summary": "Get a file", "tags": upTag, "parameters": pref("id"), "responses": withErrors(obj{"200": answer("A file", ref("Media"))}, "401", "403", "404")},
		"delete": obj{"summary": "Delete a file", "tags": upTag, "parameters": pref("id"), "responses": withErrors(obj{"200": answer("The deleted file", ref("Media"))}, "401", "403", "404")}}
	paths[prefix+"/realtime"] = obj{"get": obj{"summary": "Document events as Server-Sent Events", "tags": []any{"Realtime"},
		"parameters": []any{obj{"name": "types", "in": "query", "schema": str}, obj{"name": "documentId", "in": "query", "schema": str},
			obj{"name": "status", "in": "query", "schema": obj{"type": "string", "enum": []any{"published", "draft"}}}},
		"responses": withErrors(obj{"200": obj{"description": "An event stream", "content": obj{"text/event-stream": obj{"schema": str}}}}, "400", "403", "429")}}
}
