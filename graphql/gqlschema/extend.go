package gqlschema

import (
	"fmt"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
	"github.com/stratum-cms/stratum/graphql/executor"
)

// extensions reads the typeDefs of Use(): new object, input, enum, scalar
// and union types, and `extend type X { ... }` fields. graphql-go has no SDL
// schema builder, so types are made here, resolved by name lazily.
func (b *builder) extensions() error {
	for i, sdl := range b.cust.typeDefs {
		doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(sdl), Name: fmt.Sprintf("typeDefs #%d", i+1)})})
		if err != nil {
			return fmt.Errorf("graphql extension typeDefs: %w", err)
		}
		for _, def := range doc.Definitions {
			if err := b.typeDef(def); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *builder) typeDef(def ast.Node) error {
	switch d := def.(type) {
	case *ast.TypeExtensionDefinition:
		name := d.Definition.Name.Value
		b.extraAST[name] = append(b.extraAST[name], d.Definition.Fields...)
	case *ast.ObjectDefinition:
		name := d.Name.Value
		fields := d.Fields
		b.named[name] = gql.NewObject(gql.ObjectConfig{Name: name, Description: describe(d.Description),
			Fields: b.fields(name, func() gql.Fields { return b.astFields(fields) })})
	case *ast.InputObjectDefinition:
		name := d.Name.Value
		fields := d.Fields
		b.named[name] = gql.NewInputObject(gql.InputObjectConfig{Name: name, Description: describe(d.Description),
			Fields: gql.InputObjectConfigFieldMapThunk(func() gql.InputObjectConfigFieldMap {
				m := gql.InputObjectConfigFieldMap{}
				for _, f := range fields {
					m[f.Name.Value] = &gql.InputObjectFieldConfig{Type: b.astType(f.Type), DefaultValue: executor.LiteralValue(f.DefaultValue, nil),
						Description: describe(f.Description)}
				}
				return m
			})})
	case *ast.EnumDefinition:
		vals := gql.EnumValueConfigMap{}
		var order []string
		for _, v := range d.Values {
			vals[v.Name.Value] = &gql.EnumValueConfig{Value: v.Name.Value, Description: describe(v.Description)}
			order = append(order, v.Name.Value)
		}
		b.named[d.Name.Value] = orderEnum(gql.NewEnum(gql.EnumConfig{Name: d.Name.Value, Values: vals, Description: describe(d.Description)}), order)
	case *ast.ScalarDefinition:
		b.named[d.Name.Value] = gql.NewScalar(gql.ScalarConfig{Name: d.Name.Value, Description: describe(d.Description),
			Serialize: func(v any) any { return v }, ParseValue: func(v any) any { return v },
			ParseLiteral: func(v ast.Value) any { return executor.LiteralValue(v, nil) }})
	case *ast.UnionDefinition:
		var names []string
		for _, t := range d.Types {
			names = append(names, t.Name.Value)
		}
		b.named[d.Name.Value] = gql.NewUnion(gql.UnionConfig{Name: d.Name.Value, Description: describe(d.Description),
			Types: gql.UnionTypesThunk(func() []*gql.Object {
				var out []*gql.Object
				for _, n := range names {
					if o, ok := b.lookup(n).(*gql.Object); ok {
						out = append(out, o)
					}
				}
				return out
			}),
			ResolveType: func(p gql.ResolveTypeParams) *gql.Object {
				switch v := p.Value.(type) {
				case map[string]any:
					if n, ok := v["__typename"].(string); ok {
						o, _ := b.lookup(n).(*gql.Object)
						return o
					}
				case *entity:
					if t := b.types[v.ct.UID]; t != nil {
						return t.entity
					}
				case *entityResponse:
					if v.data != nil {
						if t := b.types[v.data.ct.UID]; t != nil {
							return t.response
						}
					}
				}
				return nil
			}})
	default:
		return fmt.Errorf("graphql extension typeDefs: %T definitions are not supported (object, input, enum, scalar, union and `extend type` are)", def)
	}
	return nil
}

func describe(s *ast.StringValue) string {
	if s == nil {
		return ""
	}
	return s.Value
}

func (b *builder) astFields(defs []*ast.FieldDefinition) gql.Fields {
	out := gql.Fields{}
	for _, f := range defs {
		args := gql.FieldConfigArgument{}
		for _, a := range f.Arguments {
			args[a.Name.Value] = &gql.ArgumentConfig{Type: b.astType(a.Type), DefaultValue: executor.LiteralValue(a.DefaultValue, nil),
				Description: describe(a.Description)}
		}
		out[f.Name.Value] = &gql.Field{Type: b.astType(f.Type), Args: args, Description: describe(f.Description)}
	}
	return out
}

func (b *builder) astType(t ast.Type) gql.Type {
	switch x := t.(type) {
	case *ast.NonNull:
		return gql.NewNonNull(b.astType(x.Type))
	case *ast.List:
		return gql.NewList(b.astType(x.Type))
	case *ast.Named:
		if tt := b.lookup(x.Name.Value); tt != nil {
			return tt
		}
		b.errs = append(b.errs, fmt.Errorf("graphql extension typeDefs: unknown type %q", x.Name.Value))
		return gql.String
	}
	return gql.String
}

// lookup finds a named type among the built-in, shared, generated and
// extension types.
func (b *builder) lookup(name string) gql.Type {
	if t, ok := b.named[name]; ok {
		return t
	}
	for _, t := range []gql.Type{gql.String, gql.Int, gql.Float, gql.Boolean, gql.ID, jsonScalar, dateTimeScalar,
		dateScalar, timeScalar, longScalar, localeScalar, b.sh.pagination, b.sh.meta, b.sh.paginationArg,
		b.sh.publicationState, b.sh.publicationStatus, b.sh.errorType, b.sh.uploadFile, b.sh.uploadEntity,
		b.sh.uploadResponse, b.sh.uploadRelation, b.sh.idFilter} {
		if t.Name() == name {
			return t
		}
	}
	for _, f := range b.sh.filters {
		if f.Name() == name {
			return f
		}
	}
	for _, t := range b.types {
		if t.ct.System {
			continue // the plugins' types, looked up with theirs
		}
		for _, x := range []gql.Type{t.attrs, t.entity, t.response, t.collection, t.relation, t.input, t.filters} {
			if x.Name() == name {
				return x
			}
		}
	}
	for _, c := range b.comps {
		for _, x := range []gql.Type{c.obj, c.input, c.filters} {
			if x.Name() == name {
				return x
			}
		}
	}
	for _, z := range b.zones {
		if z.union.Name() == name {
			return z.union
		}
		if z.input.Name() == name {
			return z.input
		}
	}
	if e, ok := b.enums[name]; ok {
		return e
	}
	if t, ok := b.upTypes[name]; ok {
		return t
	}
	return nil
}
