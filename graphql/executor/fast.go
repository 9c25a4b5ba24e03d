package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
)

// The fast executor runs query operations that only touch the generated
// schema, straight over its resolvers: graphql-go's executor spends more
// than the database does on a page of documents (a ResolveInfo, argument
// maps and reflection for every field of every item). It follows the same
// rules (field collection through fragments and @skip/@include, aliases,
// arguments with defaults and variables, null propagation through non-null
// types, thunks resolved breadth-first so loaders batch) and gives up,
// before anything is written, for anything else: mutations, custom
// resolvers or resolversConfig, extension types, tracing, variables it
// cannot vouch for. graphql-go then runs the operation; queries have no
// side effects, so starting over is safe.

type fastAbort struct{ why string }

type jsonNumber = json.Number

func appendJSON(b []byte, key string, v any) []byte {
	j, _ := json.Marshal(v)
	b = AppendString(b, key)
	b = append(b, ':')
	return append(b, j...)
}

// fastResult is one object of the answer, its fields in selection order.
type fastResult struct {
	tname   string
	path    []any
	keys    []string
	vals    []any
	nonNull []bool
	groups  [][]*ast.Field
}

// fastPending is a field whose resolver returned a thunk.
type fastPending struct {
	thunk  func() (any, error)
	t      gql.Type
	fields []*ast.Field
	path   []any
	val    any
	done   bool
}

type fastExec struct {
	op     *Operation
	h      Hooks
	ctx    context.Context
	vars   map[string]any // variables with definition defaults
	errs   []Error
	queue  []*fastPending
	errors map[string]bool // paths that already carry an error
	// collected caches field collection: the items of a list share their
	// selection sets, so each (type, selection) is collected once.
	collected map[collectKey]*collectedFields
}

type collectKey struct {
	t     *gql.Object
	first *ast.SelectionSet
	// rest names the other selection sets of a field selected more than
	// once (merged): two such fields may share their first set only.
	rest string
}

type collectedFields struct {
	keys   []string
	groups map[string][]*ast.Field
}

var noArgs = map[string]any{}

// Fast runs a query operation over the schema's resolvers; ok false means
// it gave up (nothing was written: run the operation with graphql-go).
func Fast(ctx context.Context, op *Operation, h Hooks) (out []byte, errs []Error, ok bool) {
	if op == nil || op.Op == nil || op.Op.Operation != ast.OperationTypeQuery {
		return nil, nil, false
	}
	fx := &fastExec{op: op, h: h, ctx: ctx, errors: map[string]bool{}, collected: map[collectKey]*collectedFields{}}
	defer func() {
		if r := recover(); r != nil {
			if _, abort := r.(fastAbort); !abort {
				panic(r)
			}
			out, errs, ok = nil, nil, false
		}
	}()
	fx.vars = fx.variables()
	root := fx.object(op.Schema.QueryType(), nil, []*ast.SelectionSet{op.Op.SelectionSet}, nil)
	for len(fx.queue) > 0 { // breadth first: a level's thunks all register before one runs
		level := fx.queue
		fx.queue = nil
		for _, p := range level {
			v, err := p.thunk()
			if err != nil {
				fx.fail(p.path, p.fields, err)
			} else {
				p.val = fx.complete(v, p.t, p.fields, p.path)
			}
			p.done = true
		}
	}
	data := fx.finish(root)
	out = make([]byte, 0, 8192)
	out = append(out, '{')
	if len(fx.errs) > 0 {
		out = appendJSON(out, "errors", fx.errs)
		out = append(out, ',')
	}
	out = append(out, `"data":`...)
	out = fx.encode(out, data)
	out = append(out, '}', '\n')
	return out, fx.errs, true
}

func abort(why string) { panic(fastAbort{why}) }

// variables checks the request's variables against their definitions the
// way graphql-go would accept them, and adds definition defaults.
func (fx *fastExec) variables() map[string]any {
	out := map[string]any{}
	for _, vd := range fx.op.Op.VariableDefinitions {
		name := vd.Variable.Name.Value
		t := fx.astType(vd.Type)
		v, given := fx.op.Vars[name]
		if !given || v == nil {
			if vd.DefaultValue != nil {
				out[name] = LiteralValue(vd.DefaultValue, nil)
				continue
			}
			if _, nn := t.(*gql.NonNull); nn {
				abort("missing non-null variable")
			}
			continue
		}
		if !fastValid(v, t) {
			abort("variable of the wrong type")
		}
		out[name] = v
	}
	return out
}

func (fx *fastExec) astType(t ast.Type) gql.Type {
	switch x := t.(type) {
	case *ast.NonNull:
		return gql.NewNonNull(fx.astType(x.Type))
	case *ast.List:
		return gql.NewList(fx.astType(x.Type))
	case *ast.Named:
		if tt := fx.op.Schema.Type(x.Name.Value); tt != nil {
			return tt
		}
	}
	abort("unknown variable type")
	return nil
}

// fastValid checks a variable's JSON value (numbers as json.Number).
func fastValid(v any, t gql.Type) bool {
	if nn, ok := t.(*gql.NonNull); ok {
		return v != nil && fastValid(v, nn.OfType)
	}
	if v == nil {
		return true
	}
	switch tt := t.(type) {
	case *gql.List:
		if l, ok := v.([]any); ok {
			for _, it := range l {
				if !fastValid(it, tt.OfType) {
					return false
				}
			}
			return true
		}
		return fastValid(v, tt.OfType)
	case *gql.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		fields := tt.Fields()
		for k, x := range m {
			f := fields[k]
			if f == nil || !fastValid(x, f.Type) {
				return false
			}
		}
		for k, f := range fields {
			if _, nn := f.Type.(*gql.NonNull); nn && m[k] == nil && f.DefaultValue == nil {
				return false
			}
		}
		return true
	case *gql.Enum:
		s, ok := v.(string)
		return ok && tt.ParseValue(s) != nil
	case *gql.Scalar:
		switch tt {
		case gql.Int:
			n, ok := v.(jsonNumber)
			if !ok {
				return false
			}
			i, err := n.Int64()
			return err == nil && i >= -1<<31 && i < 1<<31
		case gql.Float:
			n, ok := v.(jsonNumber)
			if !ok {
				return false
			}
			_, err := n.Float64()
			return err == nil
		case gql.String:
			_, ok := v.(string)
			return ok
		case gql.Boolean:
			_, ok := v.(bool)
			return ok
		case gql.ID:
			switch v.(type) {
			case string, jsonNumber:
				return true
			}
			return false
		}
		return tt.ParseValue(v) != nil
	}
	return false
}

// args evaluates a field's arguments: the document's values (variables
// substituted), else the argument's default.
func (fx *fastExec) args(def *gql.FieldDefinition, f *ast.Field) map[string]any {
	if len(def.Args) == 0 {
		return noArgs // generated resolvers do not write to Args
	}
	out := make(map[string]any, len(def.Args))
	for _, a := range def.Args {
		var v any
		found := false
		for _, x := range f.Arguments {
			if x.Name.Value == a.Name() {
				v, found = fx.value(x.Value, a.Type), true
			}
		}
		if !found || v == nil {
			v = a.DefaultValue
		}
		if v != nil {
			out[a.Name()] = v
		}
	}
	return out
}

// value turns an argument's AST into what the generated resolvers read.
func (fx *fastExec) value(v ast.Value, t gql.Type) any {
	if vr, ok := v.(*ast.Variable); ok {
		raw, ok := fx.vars[vr.Name.Value]
		if !ok {
			return nil
		}
		return dropNullFields(fx.h.VariableValue(raw, t), t)
	}
	return dropNullFields(fx.h.LiteralValue(v, t), t)
}

// dropNullFields removes the null fields of input objects, as graphql-go's
// coercion of arguments does (only mutation data, which the fast executor
// never runs, reads them).
func dropNullFields(v any, t gql.Type) any {
	if nn, ok := t.(*gql.NonNull); ok {
		t = nn.OfType
	}
	switch tt := t.(type) {
	case *gql.List:
		if l, ok := v.([]any); ok {
			for i, it := range l {
				l[i] = dropNullFields(it, tt.OfType)
			}
		}
	case *gql.InputObject:
		if m, ok := v.(map[string]any); ok {
			fields := tt.Fields()
			for k, x := range m {
				if x == nil {
					delete(m, k)
				} else if f := fields[k]; f != nil {
					m[k] = dropNullFields(x, f.Type)
				}
			}
		}
	}
	return v
}

func (fx *fastExec) included(dirs []*ast.Directive) bool {
	return PassesDirectives(dirs, func(v ast.Value) (bool, bool) {
		switch x := v.(type) {
		case *ast.BooleanValue:
			return x.Value, true
		case *ast.Variable:
			b, ok := fx.vars[x.Name.Value].(bool)
			if !ok {
				abort("directive variable")
			}
			return b, true
		}
		return false, true
	})
}

func (fx *fastExec) applies(cond *ast.Named, t *gql.Object) bool {
	if cond != nil && cond.Name.Value != t.Name() {
		if _, ok := fx.op.Schema.Type(cond.Name.Value).(*gql.Interface); ok {
			abort("interface")
		}
	}
	return TypeApplies(fx.op.Schema, cond, t)
}

// collect groups the fields of selection sets by response key, in order.
func (fx *fastExec) collect(t *gql.Object, sets []*ast.SelectionSet) ([]string, map[string][]*ast.Field) {
	if len(sets) == 0 {
		return nil, nil
	}
	ck := collectKey{t: t, first: sets[0]}
	if len(sets) > 1 {
		var rest []byte
		for _, s := range sets[1:] {
			rest = fmt.Appendf(rest, "%p,", s)
		}
		ck.rest = string(rest)
	}
	if c := fx.collected[ck]; c != nil {
		return c.keys, c.groups
	}
	keys, groups := fx.collectFields(t, sets)
	fx.collected[ck] = &collectedFields{keys: keys, groups: groups}
	return keys, groups
}

func (fx *fastExec) collectFields(t *gql.Object, sets []*ast.SelectionSet) ([]string, map[string][]*ast.Field) {
	var keys []string
	groups := map[string][]*ast.Field{}
	seen := map[string]bool{}
	var walk func(s *ast.SelectionSet)
	walk = func(s *ast.SelectionSet) {
		if s == nil {
			return
		}
		for _, sel := range s.Selections {
			switch x := sel.(type) {
			case *ast.Field:
				if !fx.included(x.Directives) {
					continue
				}
				key := x.Name.Value
				if x.Alias != nil {
					key = x.Alias.Value
				}
				if _, ok := groups[key]; !ok {
					keys = append(keys, key)
				}
				groups[key] = append(groups[key], x)
			case *ast.InlineFragment:
				if fx.included(x.Directives) && fx.applies(x.TypeCondition, t) {
					walk(x.SelectionSet)
				}
			case *ast.FragmentSpread:
				name := x.Name.Value
				fd := fx.op.Fragments[name]
				if fd == nil || seen[name] || !fx.included(x.Directives) || !fx.applies(fd.TypeCondition, t) {
					continue
				}
				seen[name] = true
				walk(fd.SelectionSet)
			}
		}
	}
	for _, s := range sets {
		walk(s)
	}
	return keys, groups
}

func with2(path []any, k any) []any {
	return append(append(make([]any, 0, len(path)+1), path...), k)
}

// object runs the selection of an object type on source.
func (fx *fastExec) object(t *gql.Object, source any, sets []*ast.SelectionSet, path []any) *fastResult {
	keys, groups := fx.collect(t, sets)
	res := &fastResult{tname: t.Name(), path: path, keys: keys, vals: make([]any, len(keys)), nonNull: make([]bool, len(keys)),
		groups: make([][]*ast.Field, len(keys))}
	defs := t.Fields()
	for i, key := range keys {
		fields := groups[key]
		res.groups[i] = fields
		name := fields[0].Name.Value
		if name == "__typename" {
			res.vals[i], res.nonNull[i] = t.Name(), true
			continue
		}
		if name == "__schema" || name == "__type" {
			abort("introspection")
		}
		if fx.h.Custom(t, name) {
			abort("custom resolver")
		}
		def := defs[name]
		if def == nil {
			abort("unknown field")
		}
		_, res.nonNull[i] = def.Type.(*gql.NonNull)
		res.vals[i] = fx.resolve(t, def, source, fields, path, key)
	}
	return res
}

func (fx *fastExec) resolve(t *gql.Object, def *gql.FieldDefinition, source any, fields []*ast.Field, parent []any, key string) (out any) {
	var path []any // built when needed: most fields are leaves that cannot fail
	fullPath := func() []any {
		if path == nil {
			path = with2(parent, key)
		}
		return path
	}
	defer func() {
		if r := recover(); r != nil {
			if _, abort := r.(fastAbort); abort {
				panic(r)
			}
			fx.fail(fullPath(), fields, fmt.Errorf("%v", r))
			out = nil
		}
	}()
	p := gql.ResolveParams{Source: source, Args: fx.args(def, fields[0]), Context: fx.ctx,
		Info: gql.ResolveInfo{FieldName: def.Name, FieldASTs: fields, ReturnType: def.Type, ParentType: t,
			Schema: *fx.op.Schema, Operation: fx.op.Op}}
	resolve := def.Resolve
	if resolve == nil {
		abort("default resolver")
	}
	v, err := resolve(p)
	if err != nil {
		fx.fail(fullPath(), fields, err)
		return nil
	}
	if th, ok := v.(func() (any, error)); ok {
		pd := &fastPending{thunk: th, t: def.Type, fields: fields, path: fullPath()}
		fx.queue = append(fx.queue, pd)
		return pd
	}
	if leaf(def.Type) {
		return fx.complete(v, def.Type, fields, nil)
	}
	return fx.complete(v, def.Type, fields, fullPath())
}

// leaf reports a scalar or enum type, whose completion needs no path.
func leaf(t gql.Type) bool {
	if nn, ok := t.(*gql.NonNull); ok {
		t = nn.OfType
	}
	switch t.(type) {
	case *gql.Scalar, *gql.Enum:
		return true
	}
	return false
}

// complete turns a resolved value into the answer for type t.
func (fx *fastExec) complete(v any, t gql.Type, fields []*ast.Field, path []any) any {
	if nn, ok := t.(*gql.NonNull); ok {
		t = nn.OfType
	}
	if fx.isNil(v) {
		return nil
	}
	switch tt := t.(type) {
	case *gql.List:
		_, itemNonNull := tt.OfType.(*gql.NonNull)
		var items []any
		if l, ok := v.([]any); ok {
			items = make([]any, len(l))
			for i, x := range l {
				items[i] = fx.complete(x, tt.OfType, fields, with2(path, i))
			}
		} else if items = fx.h.Items(v); items != nil {
			for i, x := range items { // a fresh slice of the list's items: completed in place
				items[i] = fx.complete(x, tt.OfType, fields, with2(path, i))
			}
		} else {
			rv := reflect.ValueOf(v)
			if rv.Kind() != reflect.Slice {
				abort("list value")
			}
			items = make([]any, rv.Len())
			for i := range items {
				items[i] = fx.complete(rv.Index(i).Interface(), tt.OfType, fields, with2(path, i))
			}
		}
		return &fastList{items: items, nonNull: itemNonNull, path: path, fields: fields}
	case *gql.Object:
		return fx.object(tt, v, FieldSets(fields), path)
	case *gql.Union:
		if tt.ResolveType == nil {
			abort("union")
		}
		o := tt.ResolveType(gql.ResolveTypeParams{Value: v, Context: fx.ctx})
		if o == nil {
			abort("union member")
		}
		return fx.object(o, v, FieldSets(fields), path)
	case *gql.Scalar:
		switch x := v.(type) { // the common cases, without graphql-go's coercion
		case string:
			if tt == gql.String || tt == gql.ID {
				return x
			}
		case bool:
			if tt == gql.Boolean {
				return x
			}
		}
		return tt.Serialize(v)
	case *gql.Enum:
		return tt.Serialize(v)
	}
	abort("type")
	return nil
}

type fastList struct {
	items   []any
	nonNull bool
	path    []any
	fields  []*ast.Field
}

func (fx *fastExec) isNil(v any) bool {
	if v == nil {
		return true
	}
	if isNil, known := fx.h.Nil(v); known {
		return isNil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil() && rv.Kind() != reflect.Slice
	}
	return false
}

func pathKey(path []any) string { return fmt.Sprint(path) }

func (fx *fastExec) fail(path []any, fields []*ast.Field, err error) {
	if fx.errors[pathKey(path)] {
		return
	}
	fx.errors[pathKey(path)] = true
	le := gql.NewLocatedErrorWithPath(err, gql.FieldASTsToNodeASTs(fields), path)
	fx.errs = append(fx.errs, fx.h.FormatError(gqlerrors.FormatError(le)))
}

// finish resolves pending values and propagates nulls through non-null
// fields and items, as graphql-go does; a null where none may be is an error.
func (fx *fastExec) finish(v any) any {
	switch x := v.(type) {
	case *fastPending:
		return fx.finish(x.val)
	case *fastResult:
		for i := range x.vals {
			x.vals[i] = fx.finish(x.vals[i])
			if x.vals[i] == nil && x.nonNull[i] {
				p := with2(x.path, x.keys[i])
				if !fx.errors[pathKey(p)] {
					fx.fail(p, x.groups[i], fmt.Errorf("Cannot return null for non-nullable field %s.%s.", x.tname, x.groups[i][0].Name.Value))
				}
				fx.errors[pathKey(x.path)] = true // the null goes up with its one error
				return nil
			}
		}
		return x
	case *fastList:
		for i := range x.items {
			x.items[i] = fx.finish(x.items[i])
			if x.items[i] == nil && x.nonNull {
				p := with2(x.path, i)
				if !fx.errors[pathKey(p)] {
					fx.fail(p, x.fields, fmt.Errorf("Cannot return null for non-nullable field"))
				}
				fx.errors[pathKey(x.path)] = true
				return nil
			}
		}
		return x
	}
	return v
}

func (fx *fastExec) encode(b []byte, v any) []byte {
	switch x := v.(type) {
	case *fastResult:
		b = append(b, '{')
		for i, k := range x.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, k)
			b = append(b, ':')
			b = fx.encode(b, x.vals[i])
		}
		return append(b, '}')
	case *fastList:
		b = append(b, '[')
		for i, it := range x.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = fx.encode(b, it)
		}
		return append(b, ']')
	}
	return fx.op.Encode(b, v, nil, nil)
}
