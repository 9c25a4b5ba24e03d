package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
)

// The executor's own tests run it on a small hand-made schema, beside
// graphql-go's executor: the answer of both, encoded, must be the same
// bytes. The graphql package's differential test does the same on
// generated Stratum schemas against real databases.

type item struct {
	ID   int
	Name string
}

type plainHooks struct{}

func (plainHooks) Custom(t *gql.Object, field string) bool { return field == "custom" }
func (plainHooks) LiteralValue(v ast.Value, t gql.Type) any {
	return LiteralValue(v, nil)
}
func (plainHooks) VariableValue(raw any, t gql.Type) any { return raw }
func (plainHooks) Nil(v any) (bool, bool) {
	if x, ok := v.(*item); ok {
		return x == nil, true
	}
	return false, false
}
func (plainHooks) Items(v any) []any {
	if l, ok := v.([]*item); ok {
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = x
		}
		return out
	}
	return nil
}
func (plainHooks) FormatError(fe gqlerrors.FormattedError) Error {
	return Error{Message: fe.Message, Locations: fe.Locations, Path: fe.Path}
}

func intArg(v any) int {
	var n int
	_, _ = fmt.Sscan(fmt.Sprint(v), &n)
	return n
}

func testSchema(t *testing.T) gql.Schema {
	t.Helper()
	named := gql.NewInterface(gql.InterfaceConfig{Name: "Named", Fields: gql.Fields{"name": {Type: gql.String}},
		ResolveType: func(p gql.ResolveTypeParams) *gql.Object { return nil }})
	var itemType *gql.Object
	itemType = gql.NewObject(gql.ObjectConfig{Name: "Item", Interfaces: []*gql.Interface{named}, Fields: gql.FieldsThunk(func() gql.Fields {
		return gql.Fields{
			"id":   {Type: gql.NewNonNull(gql.ID), Resolve: func(p gql.ResolveParams) (any, error) { return fmt.Sprint(p.Source.(*item).ID), nil }},
			"name": {Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return p.Source.(*item).Name, nil }},
			"tags": {Type: gql.NewList(gql.String), Resolve: func(p gql.ResolveParams) (any, error) {
				return []any{"a", "b\n\"c\""}, nil
			}},
			// next resolves through a thunk, as the loaders do.
			"next": {Type: itemType, Resolve: func(p gql.ResolveParams) (any, error) {
				src := p.Source.(*item)
				return func() (any, error) {
					if src.ID >= 3 {
						return (*item)(nil), nil
					}
					return &item{ID: src.ID + 1, Name: fmt.Sprint("n", src.ID+1)}, nil
				}, nil
			}},
			"fail": {Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return nil, errors.New("boom") }},
			// must is non-null and null for even ids: the null goes up to the item.
			"must": {Type: gql.NewNonNull(gql.String), Resolve: func(p gql.ResolveParams) (any, error) {
				if p.Source.(*item).ID%2 == 0 {
					return nil, nil
				}
				return "ok", nil
			}},
			"score": {Type: gql.Float, Resolve: func(p gql.ResolveParams) (any, error) { return float64(p.Source.(*item).ID) / 4, nil }},
		}
	})})
	query := gql.NewObject(gql.ObjectConfig{Name: "Query", Fields: gql.Fields{
		"items": {Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(itemType))), Args: gql.FieldConfigArgument{
			"n": {Type: gql.Int, DefaultValue: 2}},
			Resolve: func(p gql.ResolveParams) (any, error) {
				n := min(intArg(p.Args["n"]), 10)
				out := make([]*item, n)
				for i := range out {
					out[i] = &item{ID: i + 1, Name: fmt.Sprint("i", i+1)}
				}
				return out, nil
			}},
		"item": {Type: itemType, Args: gql.FieldConfigArgument{"id": {Type: gql.NewNonNull(gql.ID)}},
			Resolve: func(p gql.ResolveParams) (any, error) {
				return &item{ID: intArg(p.Args["id"]), Name: "one"}, nil
			}},
		"custom": {Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) { return "c", nil }},
	}})
	s, err := gql.NewSchema(gql.SchemaConfig{Query: query, Types: []gql.Type{itemType}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFastMatchesGraphqlGo(t *testing.T) {
	schema := testSchema(t)
	cases := []struct {
		name, doc string
		vars      map[string]any
		gaveUp    bool
	}{
		{"fields and aliases", `{ items { id n: name tags } }`, nil, false},
		{"argument literal", `{ items(n: 3) { id score } }`, nil, false},
		{"argument variable", `query($n: Int) { items(n: $n) { id } }`, map[string]any{"n": json.Number("4")}, false},
		{"variable default", `query($n: Int = 1) { items(n: $n) { id } }`, nil, false},
		{"thunks, nested", `{ items(n: 3) { id next { id next { id name } } } }`, nil, false},
		{"fragments", `{ items { ...F ... on Item { name } } } fragment F on Item { id tags }`, nil, false},
		{"skip and include", `query($s: Boolean!) { items { id @skip(if: $s) name @include(if: $s) } }`, map[string]any{"s": true}, false},
		{"merged selections", `{ item(id: 2) { id } item(id: 2) { name next { id } } }`, nil, false},
		{"resolver error", `{ item(id: 1) { id fail } }`, nil, false},
		{"null in non-null propagates", `{ items(n: 3) { id must } }`, nil, false},
		{"null in non-null, nullable parent", `{ item(id: 2) { id must } }`, nil, false},
		{"typename", `{ item(id: 1) { __typename id } }`, nil, false},
		{"custom resolver: gives up", `{ custom }`, nil, true},
		{"introspection: gives up", `{ __schema { queryType { name } } }`, nil, true},
		{"wrong variable type: gives up", `query($n: Int) { items(n: $n) { id } }`, map[string]any{"n": "x"}, true},
		{"mutation-less schema, unnamed op", `query Q { items { id } }`, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := parser.Parse(parser.ParseParams{Source: c.doc})
			if err != nil {
				t.Fatal(err)
			}
			if vr := gql.ValidateDocument(&schema, doc, nil); !vr.IsValid {
				t.Fatalf("invalid test document: %v", vr.Errors)
			}
			op := NewOperation(&schema, doc, "", c.vars)
			fast, _, ok := Fast(context.Background(), op, plainHooks{})
			if ok == c.gaveUp {
				t.Fatalf("fast executor ran: %v, want %v", ok, !c.gaveUp)
			}
			if !ok {
				return
			}
			var vars map[string]any
			if c.vars != nil {
				j, _ := json.Marshal(c.vars)
				_ = json.Unmarshal(j, &vars)
			}
			res := gql.Execute(gql.ExecuteParams{Schema: schema, AST: doc, Args: vars, Context: context.Background()})
			slow := []byte{'{'}
			if len(res.Errors) > 0 {
				es := make([]Error, len(res.Errors))
				for i, e := range res.Errors {
					es[i] = plainHooks{}.FormatError(e)
				}
				j, _ := json.Marshal(es)
				slow = append(append(append(slow, `"errors":`...), j...), ',')
			}
			slow = append(slow, `"data":`...)
			if data, ok := res.Data.(map[string]any); ok {
				slow = op.EncodeObject(slow, data, []*ast.SelectionSet{op.Op.SelectionSet}, op.Root())
			} else {
				slow = append(slow, "null"...)
			}
			slow = append(slow, '}', '\n')
			if string(fast) != string(slow) {
				t.Errorf("fast:\n%s\ngraphql-go:\n%s", fast, slow)
			}
		})
	}
}

// TestEncodeOrder: graphql-go's maps are written in the order the query
// selected the fields, through fragments and @include.
func TestEncodeOrder(t *testing.T) {
	schema := testSchema(t)
	doc, err := parser.Parse(parser.ParseParams{Source: `query($i: Boolean = false) { item(id: 1) { name ...F id @include(if: $i) } } fragment F on Item { tags score }`})
	if err != nil {
		t.Fatal(err)
	}
	op := NewOperation(&schema, doc, "", nil)
	data := map[string]any{"item": map[string]any{"id": "1", "score": 0.25, "tags": []any{"x"}, "name": "one"}}
	got := string(op.EncodeObject(nil, data, []*ast.SelectionSet{op.Op.SelectionSet}, op.Root()))
	// id is left out by @include(if: false) so it comes last, with the
	// values the selection does not name, in key order.
	want := `{"item":{"name":"one","tags":["x"],"score":0.25,"id":"1"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "quote\" back\\slash", "\n\r\t\x01\x1f", "é✓", "\xff invalid"} {
		want, _ := json.Marshal(s)
		if got := string(AppendString(nil, s)); got != string(want) && s != "\xff invalid" {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal(AppendString(nil, s), &back); err != nil {
			t.Errorf("%q: not JSON: %v", s, err)
		}
	}
}
