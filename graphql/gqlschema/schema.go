package gqlschema

import (
	"encoding/json"
	"fmt"
	"sort"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"github.com/stratum-cms/stratum/graphql/executor"
	"github.com/stratum-cms/stratum/models"
)

// ctTypes are the generated types of one content-type.
type ctTypes struct {
	ct         *models.ContentType
	name       string
	attrs      *gql.Object // Article
	entity     *gql.Object // ArticleEntity
	response   *gql.Object // ArticleEntityResponse
	collection *gql.Object // ArticleEntityResponseCollection
	relation   *gql.Object // ArticleRelationResponseCollection
	input      *gql.InputObject
	filters    *gql.InputObject
}

// compTypes are the generated types of one component.
type compTypes struct {
	c       *models.Component
	name    string
	obj     *gql.Object
	input   *gql.InputObject
	filters *gql.InputObject
}

// zoneTypes are the union and input scalar of one dynamic zone.
type zoneTypes struct {
	union  *gql.Union
	input  *gql.Scalar
	byName map[string]string // component type name -> uid
}

// builder turns a schema snapshot and the customisations into a graphql-go
// schema. Types reference each other through thunks, resolved when the
// schema is assembled.
type builder struct {
	srv    *Builder
	ms     *models.Schema
	sh     *shared
	cust   *custSnapshot
	types  map[string]*ctTypes   // by uid
	byName map[string]*ctTypes   // by GraphQL type name
	comps  map[string]*compTypes // by uid
	zones  map[*models.Attribute]*zoneTypes
	// zoneInputs finds a zone by its input scalar.
	zoneInputs map[gql.Type]*zoneTypes
	enums      map[string]*gql.Enum
	named      map[string]gql.Type // extension types from typeDefs
	// extraAST holds the `extend type` fields of typeDefs, by type name.
	extraAST map[string][]*ast.FieldDefinition
	upTypes  map[string]gql.Type // users-permissions types
	errs     []error
	// custom marks "Type.field" whose resolver is not the generated one
	// (Use() resolvers, resolversConfig, typeDefs): the fast executor
	// leaves those operations to graphql-go.
	custom map[string]bool
	query  gql.Fields
	mut    gql.Fields
	// actions maps "Query.articles" to the permission the shadow resolver needs.
	actions map[string]string
	// morph is the GenericMorph union, made on first use.
	morph *gql.Union
}

// build assembles the schema of a snapshot.
func (s *Builder) build(ms *models.Schema, cust *custSnapshot) (gql.Schema, *builder, error) {
	b := &builder{srv: s, ms: ms, sh: newShared(), cust: cust, types: map[string]*ctTypes{}, byName: map[string]*ctTypes{},
		comps: map[string]*compTypes{}, zones: map[*models.Attribute]*zoneTypes{}, zoneInputs: map[gql.Type]*zoneTypes{}, enums: map[string]*gql.Enum{},
		named: map[string]gql.Type{}, extraAST: map[string][]*ast.FieldDefinition{}, upTypes: map[string]gql.Type{}, custom: map[string]bool{}, query: gql.Fields{}, mut: gql.Fields{},
		actions: map[string]string{}}
	shadow := s.cfg.shadowCRUD()
	if shadow {
		for _, c := range ms.Components {
			b.component(c)
		}
		for _, ct := range ms.Types {
			if !cust.typeEnabled(ct.UID) {
				continue
			}
			b.contentType(ct)
		}
		// Relations to files use the upload plugin's types (user_relations.go).
		if ft := ms.Type(models.FileUID); ft != nil && b.sh.uploadResponse != nil {
			b.types[models.FileUID] = &ctTypes{ct: ft, name: "UploadFile", entity: b.sh.uploadEntity,
				response: b.sh.uploadResponse, relation: b.sh.uploadRelation}
		}
		for _, ct := range ms.Types {
			if t := b.types[ct.UID]; t != nil {
				b.operations(t)
			}
		}
	}
	if s.accounts != nil {
		b.usersPermissions()
	}
	b.i18n(s.eng)
	if s.cfg.Uploads != nil {
		b.uploads(s.cfg.Uploads)
	}
	if err := b.extensions(); err != nil {
		return gql.Schema{}, nil, err
	}
	if len(b.query) == 0 && len(b.extraAST["Query"]) == 0 {
		// A schema needs a query type with a field: say so rather than fail.
		b.query["_empty"] = &gql.Field{Type: gql.String, Description: "The schema has no query: every content-type is disabled.",
			Resolve: func(gql.ResolveParams) (any, error) { return nil, nil }}
	}
	cfg := gql.SchemaConfig{Query: gql.NewObject(gql.ObjectConfig{Name: "Query", Fields: b.fields("Query", func() gql.Fields { return b.query })})}
	if len(b.mut) > 0 || len(b.extraAST["Mutation"]) > 0 {
		cfg.Mutation = gql.NewObject(gql.ObjectConfig{Name: "Mutation", Fields: b.fields("Mutation", func() gql.Fields { return b.mut })})
	}
	for _, t := range b.named {
		cfg.Types = append(cfg.Types, t)
	}
	sort.Slice(cfg.Types, func(i, j int) bool { return cfg.Types[i].Name() < cfg.Types[j].Name() })
	schema, err := buildSchema(cfg)
	if err == nil && len(b.errs) > 0 {
		err = b.errs[0]
	}
	if err != nil {
		return gql.Schema{}, nil, err
	}
	if s.cfg.Tracing {
		schema.AddExtensions(executor.Tracer{})
	}
	return schema, b, nil
}

// buildSchema turns graphql-go's panics on bad definitions into errors.
func buildSchema(cfg gql.SchemaConfig) (schema gql.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("graphql schema: %v", r)
		}
	}()
	return gql.NewSchema(cfg)
}

// fields finishes the field map of an object type: extension fields from
// typeDefs, resolvers from Use(), and resolversConfig wrappers.
func (b *builder) fields(typeName string, base func() gql.Fields) gql.FieldsThunk {
	return func() gql.Fields {
		out := gql.Fields{}
		for k, v := range base() {
			out[k] = v
		}
		for k, v := range b.astFields(b.extraAST[typeName]) {
			out[k] = v
			b.custom[typeName+"."+k] = true
		}
		_, extensionType := b.named[typeName]
		for name, f := range out {
			if _, configured := b.cust.configs[typeName+"."+name]; configured || extensionType {
				b.custom[typeName+"."+name] = true
			}
			if fn := b.cust.resolver(typeName, name); fn != nil {
				f.Resolve = fn
				b.custom[typeName+"."+name] = true
			}
			if f.Resolve == nil {
				f.Resolve = defaultResolve
			}
			f.Resolve = b.wrap(typeName, name, f.Resolve)
		}
		return out
	}
}

func (b *builder) component(c *models.Component) {
	t := &compTypes{c: c, name: ComponentName(c)}
	b.comps[c.UID] = t
	t.obj = gql.NewObject(gql.ObjectConfig{Name: t.name, Description: c.Info.Description, Fields: b.fields(t.name, func() gql.Fields {
		f := gql.Fields{"id": &gql.Field{Type: gql.NewNonNull(gql.ID), Resolve: func(p gql.ResolveParams) (any, error) {
			return rawToID(p.Source.(*compValue).m["id"]), nil
		}}}
		for _, a := range c.Attributes {
			if fd := b.outputField(c.UID, t.name, a); fd != nil {
				f[a.Name] = fd
			}
		}
		return f
	})})
	t.input = gql.NewInputObject(gql.InputObjectConfig{Name: t.name + "Input", Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
		m := gql.InputObjectConfigFieldMap{"id": {Type: gql.ID}}
		for _, a := range c.Attributes {
			if it := b.inputType(c.UID, t.name, a); it != nil {
				m[a.Name] = &gql.InputObjectFieldConfig{Type: it}
			}
		}
		return m
	})})
	t.filters = b.filterInput(t.name+"FiltersInput", c.UID, c.Attributes, nil)
}

func (b *builder) contentType(ct *models.ContentType) {
	t := &ctTypes{ct: ct, name: TypeName(ct)}
	b.types[ct.UID], b.byName[t.name] = t, t
	t.attrs = gql.NewObject(gql.ObjectConfig{Name: t.name, Description: ct.Info.Description, Fields: b.fields(t.name, func() gql.Fields {
		f := gql.Fields{}
		for _, a := range ct.Attributes {
			if fd := b.outputField(ct.UID, t.name, a); fd != nil {
				f[a.Name] = fd
			}
		}
		f["createdAt"] = &gql.Field{Type: dateTimeScalar, Resolve: resolveSystem("createdAt")}
		f["updatedAt"] = &gql.Field{Type: dateTimeScalar, Resolve: resolveSystem("updatedAt")}
		f["publishedAt"] = &gql.Field{Type: dateTimeScalar, Resolve: resolveSystem("publishedAt")}
		if ct.Localized {
			f["locale"] = &gql.Field{Type: gql.String, Resolve: resolveSystem("locale")}
			f["localizations"] = &gql.Field{Type: t.relation, Resolve: b.resolveLocalizations(t),
				Description: "The document in its other locales (same publication state)",
				Args:        gql.FieldConfigArgument{"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}}}}
		}
		return f
	})})
	t.entity = gql.NewObject(gql.ObjectConfig{Name: t.name + "Entity", Fields: b.fields(t.name+"Entity", func() gql.Fields {
		return gql.Fields{
			"id":         &gql.Field{Type: gql.ID, Resolve: resolveEntityID},
			"attributes": &gql.Field{Type: t.attrs, Resolve: resolveSource},
		}
	})})
	t.response = gql.NewObject(gql.ObjectConfig{Name: t.name + "EntityResponse", Fields: b.fields(t.name+"EntityResponse", func() gql.Fields {
		return gql.Fields{"data": &gql.Field{Type: t.entity, Resolve: resolveResponseData}}
	})})
	t.collection = gql.NewObject(gql.ObjectConfig{Name: t.name + "EntityResponseCollection", Fields: b.fields(t.name+"EntityResponseCollection", func() gql.Fields {
		return gql.Fields{
			"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(t.entity))), Resolve: resolveCollectionData},
			"meta": &gql.Field{Type: gql.NewNonNull(b.sh.meta), Resolve: resolveCollectionMeta},
		}
	})})
	t.relation = gql.NewObject(gql.ObjectConfig{Name: t.name + "RelationResponseCollection", Fields: b.fields(t.name+"RelationResponseCollection", func() gql.Fields {
		return gql.Fields{"data": &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(t.entity))), Resolve: resolveCollectionData}}
	})})
	t.input = gql.NewInputObject(gql.InputObjectConfig{Name: t.name + "Input", Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
		m := gql.InputObjectConfigFieldMap{}
		for _, a := range ct.Attributes {
			if it := b.inputType(ct.UID, t.name, a); it != nil {
				m[a.Name] = &gql.InputObjectFieldConfig{Type: it}
			}
		}
		// Accepted and ignored, as the REST API does with publishedAt.
		m["createdAt"] = &gql.InputObjectFieldConfig{Type: dateTimeScalar}
		m["updatedAt"] = &gql.InputObjectFieldConfig{Type: dateTimeScalar}
		m["publishedAt"] = &gql.InputObjectFieldConfig{Type: dateTimeScalar}
		return m
	})})
	system := []string{"createdAt", "updatedAt", "publishedAt"}
	if ct.Localized {
		system = append(system, "locale")
	}
	if !ct.IsSingle() {
		system = append(system, "id")
	}
	t.filters = b.filterInput(t.name+"FiltersInput", ct.UID, ct.Attributes, system)
}

// scalarType maps a scalar attribute to its GraphQL type (enums excluded).
func scalarType(a *models.Attribute) *gql.Scalar {
	switch a.Type {
	case models.TypeString, models.TypeText, models.TypeRichText, models.TypeEmail, models.TypeUID,
		models.TypePassword, models.TypeEnumeration:
		return gql.String
	case models.TypeInteger:
		return gql.Int
	case models.TypeBigInteger:
		return longScalar
	case models.TypeFloat, models.TypeDecimal:
		return gql.Float
	case models.TypeDate:
		return dateScalar
	case models.TypeTime:
		return timeScalar
	case models.TypeDateTime, models.TypeTimestamp:
		return dateTimeScalar
	case models.TypeBoolean:
		return gql.Boolean
	case models.TypeJSON, models.TypeBlocks:
		return jsonScalar
	}
	return nil
}

func decoderOf(a *models.Attribute) func(json.RawMessage) any {
	switch a.Type {
	case models.TypeInteger:
		return decodeInt
	case models.TypeBigInteger:
		return decodeLong
	case models.TypeFloat, models.TypeDecimal:
		return decodeFloat
	case models.TypeBoolean:
		return decodeBool
	case models.TypeJSON, models.TypeBlocks:
		return decodeJSON
	}
	return decodeString
}

func (b *builder) enum(owner string, a *models.Attribute) *gql.Enum {
	name := enumName(owner, a)
	if e := b.enums[name]; e != nil {
		return e
	}
	vals := gql.EnumValueConfigMap{}
	for _, v := range a.Enum {
		vals[enumValueName(v)] = &gql.EnumValueConfig{Value: v}
	}
	e := orderEnum(gql.NewEnum(gql.EnumConfig{Name: name, Values: vals}), a.Enum)
	b.enums[name] = e
	return e
}

// targetOf is the generated types of a relation's target, or nil when the
// target is polymorphic or disabled.
func (b *builder) targetOf(a *models.Attribute) *ctTypes {
	if a.Type != models.TypeRelation || a.Target == "" {
		return nil
	}
	return b.types[a.Target]
}

// outputField is the field of an attribute in an output type, or nil when it
// has none (hidden, disabled, polymorphic, or a relation inside a component).
func (b *builder) outputField(owner, ownerName string, a *models.Attribute) *gql.Field {
	if a.IsHidden() || !b.cust.fieldOutput(owner, a.Name) {
		return nil
	}
	inComponent := b.ms.Type(owner) == nil
	switch a.Type {
	case models.TypeRelation:
		if a.IsMorph() {
			u := b.genericMorph()
			if u == nil || inComponent {
				return nil
			}
			if a.Relation == models.MorphToMany {
				return &gql.Field{Type: gql.NewList(u), Resolve: b.resolveMorph(a)}
			}
			return &gql.Field{Type: u, Resolve: b.resolveMorph(a)}
		}
		t := b.targetOf(a)
		if t == nil {
			return nil
		}
		if t.ct.System {
			return b.systemRelationField(a, t, inComponent)
		}
		if inComponent {
			if a.IsToMany() {
				return &gql.Field{Type: t.relation, Resolve: b.resolveComponentRelation(a, t),
					Args: gql.FieldConfigArgument{"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}}}}
			}
			return &gql.Field{Type: t.response, Resolve: b.resolveComponentRelation(a, t)}
		}
		if a.IsToMany() {
			return &gql.Field{Type: t.relation, Args: b.listArgs(t.filters), Resolve: b.resolveRelation(a)}
		}
		return &gql.Field{Type: t.response, Resolve: b.resolveRelation(a)}
	case models.TypeMedia:
		if a.Multiple {
			return &gql.Field{Type: b.sh.uploadRelation, Args: gql.FieldConfigArgument{
				"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}},
				"sort":       {Type: gql.NewList(gql.String), DefaultValue: []any{}},
			}, Resolve: resolveMedia(a)}
		}
		return &gql.Field{Type: b.sh.uploadResponse, Resolve: resolveMedia(a)}
	case models.TypeComponent:
		ct := b.comps[a.Component]
		if ct == nil {
			return nil
		}
		if a.Repeatable {
			return &gql.Field{Type: gql.NewList(ct.obj), Args: b.listArgs(ct.filters), Resolve: b.resolveComponent(a)}
		}
		return &gql.Field{Type: ct.obj, Resolve: b.resolveComponent(a)}
	case models.TypeDynamicZone:
		z := b.zone(ownerName, a)
		return &gql.Field{Type: gql.NewList(z.union), Resolve: b.resolveZone(a)}
	case models.TypeEnumeration:
		return &gql.Field{Type: b.enum(ownerName, a), Resolve: resolveScalar(a.Name, decodeString)}
	}
	sc := scalarType(a)
	if sc == nil {
		return nil
	}
	return &gql.Field{Type: sc, Resolve: resolveScalar(a.Name, decoderOf(a))}
}

func (b *builder) listArgs(filters *gql.InputObject) gql.FieldConfigArgument {
	return gql.FieldConfigArgument{
		"filters":    {Type: filters},
		"pagination": {Type: b.sh.paginationArg, DefaultValue: map[string]any{}},
		"sort":       {Type: gql.NewList(gql.String), DefaultValue: []any{}},
	}
}

func (b *builder) zone(ownerName string, a *models.Attribute) *zoneTypes {
	if z := b.zones[a]; z != nil {
		return z
	}
	name := ownerName + pascal(a.Name) + "DynamicZone"
	z := &zoneTypes{byName: map[string]string{}}
	var members []*gql.Object
	for _, uid := range a.Components {
		if ct := b.comps[uid]; ct != nil {
			members = append(members, ct.obj)
			z.byName[ct.name] = uid
		}
	}
	members = append(members, b.sh.errorType)
	z.union = gql.NewUnion(gql.UnionConfig{Name: name, Types: members, ResolveType: func(p gql.ResolveTypeParams) *gql.Object {
		if cv, ok := p.Value.(*compValue); ok {
			if ct := b.comps[cv.c.UID]; ct != nil {
				return ct.obj
			}
		}
		return b.sh.errorType
	}})
	z.input = gql.NewScalar(gql.ScalarConfig{Name: name + "Input",
		Description:  "A dynamic zone item: an object whose __typename names the component type",
		Serialize:    func(v any) any { return v },
		ParseValue:   func(v any) any { return v },
		ParseLiteral: func(v ast.Value) any { return executor.LiteralValue(v, nil) }})
	b.zones[a] = z
	b.zoneInputs[z.input] = z
	return z
}

// inputType is the type of an attribute in <Type>Input, or nil.
func (b *builder) inputType(owner, ownerName string, a *models.Attribute) gql.Input {
	if !a.IsWritable() || !b.cust.fieldInput(owner, a.Name) {
		return nil
	}
	switch a.Type {
	case models.TypeRelation:
		if b.targetOf(a) == nil {
			return nil
		}
		if a.IsToMany() {
			return gql.NewList(gql.ID)
		}
		return gql.ID
	case models.TypeMedia:
		if a.Multiple {
			return gql.NewList(gql.ID)
		}
		return gql.ID
	case models.TypeComponent:
		ct := b.comps[a.Component]
		if ct == nil {
			return nil
		}
		if a.Repeatable {
			return gql.NewList(ct.input)
		}
		return ct.input
	case models.TypeDynamicZone:
		return gql.NewList(gql.NewNonNull(b.zone(ownerName, a).input))
	case models.TypeEnumeration:
		return b.enum(ownerName, a)
	}
	if sc := scalarType(a); sc != nil {
		return sc
	}
	return nil
}

// filterInput builds <Name>FiltersInput: a <Scalar>FilterInput per scalar,
// nested filters for relations and components; no media or zones.
func (b *builder) filterInput(name, owner string, attrs []*models.Attribute, system []string) *gql.InputObject {
	var self *gql.InputObject
	inComponent := b.ms.Type(owner) == nil
	self = gql.NewInputObject(gql.InputObjectConfig{Name: name, Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
		m := gql.InputObjectConfigFieldMap{}
		for _, a := range attrs {
			if a.IsHidden() || !b.cust.fieldFilters(owner, a.Name) {
				continue
			}
			switch a.Type {
			case models.TypeRelation:
				if t := b.targetOf(a); t != nil && t.filters != nil && !inComponent {
					m[a.Name] = &gql.InputObjectFieldConfig{Type: t.filters}
				}
			case models.TypeComponent:
				if ct := b.comps[a.Component]; ct != nil {
					m[a.Name] = &gql.InputObjectFieldConfig{Type: ct.filters}
				}
			case models.TypeMedia, models.TypeDynamicZone:
			default:
				if sc := scalarType(a); sc != nil {
					m[a.Name] = &gql.InputObjectFieldConfig{Type: b.sh.filters[sc]}
				}
			}
		}
		for _, s := range system {
			if s == "id" {
				m[s] = &gql.InputObjectFieldConfig{Type: b.sh.idFilter}
			} else if s == "locale" {
				m[s] = &gql.InputObjectFieldConfig{Type: b.sh.filters[gql.String]}
			} else {
				m[s] = &gql.InputObjectFieldConfig{Type: b.sh.filters[dateTimeScalar]}
			}
		}
		m["and"] = &gql.InputObjectFieldConfig{Type: gql.NewList(self)}
		m["or"] = &gql.InputObjectFieldConfig{Type: gql.NewList(self)}
		m["not"] = &gql.InputObjectFieldConfig{Type: self}
		return m
	})})
	return self
}

// operations adds the queries and mutations of a content-type.
func (b *builder) operations(t *ctTypes) {
	ct := t.ct
	sing, plur := camel(ct.Info.SingularName), camel(ct.Info.PluralName)
	readArgs := func(args gql.FieldConfigArgument) gql.FieldConfigArgument {
		if ct.HasDraftAndPublish() {
			args["publicationState"] = &gql.ArgumentConfig{Type: b.sh.publicationState, DefaultValue: "LIVE"}
		}
		if ct.Localized {
			args["locale"] = &gql.ArgumentConfig{Type: localeScalar}
		}
		return args
	}
	writeArgs := func(args gql.FieldConfigArgument, status bool) gql.FieldConfigArgument {
		if status && ct.HasDraftAndPublish() {
			args["status"] = &gql.ArgumentConfig{Type: b.sh.publicationStatus, DefaultValue: "PUBLISHED",
				Description: "DRAFT writes the draft only; PUBLISHED (the default) writes and publishes"}
		}
		if ct.Localized {
			args["locale"] = &gql.ArgumentConfig{Type: localeScalar}
		}
		return args
	}
	q, m := b.cust.queriesOn(ct.UID), b.cust.mutationsOn(ct.UID)
	if ct.IsSingle() {
		if q && b.cust.actionOn(ct.UID, "find") {
			b.query[sing] = &gql.Field{Type: t.response, Args: readArgs(gql.FieldConfigArgument{}), Resolve: b.resolveSingle(t)}
			b.actions["Query."+sing] = ct.Action("find")
		}
		if m && b.cust.actionOn(ct.UID, "update") {
			b.mut["update"+t.name] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{
				"data": {Type: gql.NewNonNull(t.input)}}, true), Resolve: b.resolveUpdate(t)}
			b.actions["Mutation.update"+t.name] = ct.Action("update")
		}
		if m && b.cust.actionOn(ct.UID, "delete") {
			b.mut["delete"+t.name] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{}, false), Resolve: b.resolveDelete(t)}
			b.actions["Mutation.delete"+t.name] = ct.Action("delete")
		}
		return
	}
	if q && b.cust.actionOn(ct.UID, "find") {
		args := b.listArgs(t.filters)
		b.query[plur] = &gql.Field{Type: t.collection, Args: readArgs(args), Resolve: b.resolveFind(t)}
		b.actions["Query."+plur] = ct.Action("find")
	}
	if q && b.cust.actionOn(ct.UID, "findOne") {
		b.query[sing] = &gql.Field{Type: t.response, Args: readArgs(gql.FieldConfigArgument{"id": {Type: gql.ID}}), Resolve: b.resolveFindOne(t)}
		b.actions["Query."+sing] = ct.Action("findOne")
	}
	if m && b.cust.actionOn(ct.UID, "create") {
		b.mut["create"+t.name] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{
			"data": {Type: gql.NewNonNull(t.input)}}, true), Resolve: b.resolveCreate(t)}
		b.actions["Mutation.create"+t.name] = ct.Action("create")
	}
	if m && ct.Localized && b.cust.actionOn(ct.UID, "create") {
		// The v4 plugin's create<Type>Localization: the document id in a
		// new locale, with the create permission.
		b.mut["create"+t.name+"Localization"] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{
			"id": {Type: gql.NewNonNull(gql.ID)}, "data": {Type: gql.NewNonNull(t.input)}}, true), Resolve: b.resolveCreateLocalization(t)}
		b.actions["Mutation.create"+t.name+"Localization"] = ct.Action("create")
	}
	if m && b.cust.actionOn(ct.UID, "update") {
		b.mut["update"+t.name] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{
			"id": {Type: gql.NewNonNull(gql.ID)}, "data": {Type: gql.NewNonNull(t.input)}}, true), Resolve: b.resolveUpdate(t)}
		b.actions["Mutation.update"+t.name] = ct.Action("update")
	}
	if m && b.cust.actionOn(ct.UID, "delete") {
		b.mut["delete"+t.name] = &gql.Field{Type: t.response, Args: writeArgs(gql.FieldConfigArgument{
			"id": {Type: gql.NewNonNull(gql.ID)}}, false), Resolve: b.resolveDelete(t)}
		b.actions["Mutation.delete"+t.name] = ct.Action("delete")
	}
}

// orderEnum puts an enum's values in definition order: graphql-go builds
// them from a map, so their order would change from build to build.
// Values() returns the enum's own slice, sorted here in place.
func orderEnum(e *gql.Enum, order []string) *gql.Enum {
	pos := map[any]int{}
	for i, v := range order {
		pos[v] = i
	}
	vals := e.Values()
	sort.SliceStable(vals, func(i, j int) bool { return pos[vals[i].Value] < pos[vals[j].Value] })
	return e
}
