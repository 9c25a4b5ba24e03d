package gqlschema

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	gql "github.com/graphql-go/graphql"

	"github.com/stratum-cms/stratum/auth"
	"github.com/stratum-cms/stratum/errs"
)

// Extensions is the customisation service (Strapi's
// `strapi.plugin('graphql').service('extension')`): shadow-CRUD switches per
// content-type and field, and extensions registered with Use(). Changes take
// effect on the next request: the schema is rebuilt and swapped.
type Extensions struct {
	mu          sync.Mutex
	version     atomic.Int64
	types       map[string]*typeState
	exts        []Extension
	policies    map[string]PolicyFunc
	middlewares map[string]func(options any) MiddlewareFunc
}

type typeState struct {
	disabled, noQueries, noMutations bool
	actions                          map[string]bool // disabled actions
	fields                           map[string]*fieldState
}

type fieldState struct{ disabled, noOutput, noInput, noFilters bool }

// Extension is what Use() registers.
type Extension struct {
	// TypeDefs is SDL: new types, and `extend type Query|Mutation|<Type>`
	// to add fields.
	TypeDefs string
	// Resolvers by type then field: {"Query": {"hello": fn}}. A resolver for
	// a shadow-CRUD field replaces the generated one.
	Resolvers map[string]map[string]gql.FieldResolveFn
	// ResolversConfig by "Type.field", e.g. "Query.articles".
	ResolversConfig map[string]ResolverConfig
}

// ResolverConfig holds the per-resolver options of resolversConfig.
type ResolverConfig struct {
	// Auth nil keeps the default: shadow-CRUD resolvers need their action's
	// permission, other resolvers none. AuthDisabled is `auth: false`.
	Auth        *Auth
	Policies    []Policy
	Middlewares []Middleware
}

// Auth is `auth: false` (Disabled) or `auth: {scope: [...]}`: the caller
// must hold every action of the scope.
type Auth struct {
	Disabled bool
	Scope    []string
}

// AuthDisabled is `auth: false`.
var AuthDisabled = &Auth{Disabled: true}

// Policy is a registered policy name (with its config) or a function.
type Policy struct {
	Name   string
	Config any
	Func   PolicyFunc
}

// PolicyFunc lets a request pass by returning true.
type PolicyFunc func(pc *PolicyContext) (bool, error)

// PolicyContext is what a policy sees.
type PolicyContext struct {
	Parent    any
	Args      map[string]any
	Context   context.Context
	Info      gql.ResolveInfo
	HTTP      *http.Request
	Principal *auth.Principal
	// Config is the `config` of a named policy.
	Config any
}

// Middleware is a registered middleware name (with its options) or a function.
type Middleware struct {
	Name    string
	Options any
	Func    MiddlewareFunc
}

// MiddlewareFunc wraps a resolver: call next to run it.
type MiddlewareFunc func(next gql.FieldResolveFn, p gql.ResolveParams) (any, error)

// NewExtensions returns an empty customisation service.
func NewExtensions() *Extensions {
	x := &Extensions{types: map[string]*typeState{}, policies: map[string]PolicyFunc{},
		middlewares: map[string]func(any) MiddlewareFunc{}}
	x.policies["is-authenticated"] = func(pc *PolicyContext) (bool, error) {
		return pc.Principal != nil && pc.Principal.Kind != "public", nil
	}
	return x
}

func (x *Extensions) state(uid string) *typeState {
	t := x.types[uid]
	if t == nil {
		t = &typeState{actions: map[string]bool{}, fields: map[string]*fieldState{}}
		x.types[uid] = t
	}
	return t
}

func (x *Extensions) change(fn func()) {
	x.mu.Lock()
	fn()
	x.mu.Unlock()
	x.version.Add(1)
}

// Use registers an extension.
func (x *Extensions) Use(e Extension) { x.change(func() { x.exts = append(x.exts, e) }) }

// UseFunc registers the extension a function returns (Strapi's `use(fn)`).
func (x *Extensions) UseFunc(fn func(*Extensions) Extension) { x.Use(fn(x)) }

// RegisterPolicy names a policy for resolversConfig (and plugins.json).
func (x *Extensions) RegisterPolicy(name string, fn PolicyFunc) {
	x.change(func() { x.policies[name] = fn })
}

// RegisterMiddleware names a middleware factory for resolversConfig.
func (x *Extensions) RegisterMiddleware(name string, fn func(options any) MiddlewareFunc) {
	x.change(func() { x.middlewares[name] = fn })
}

// ShadowCRUD returns the handle of a content-type (or component) uid.
func (x *Extensions) ShadowCRUD(uid string) *ShadowCRUD { return &ShadowCRUD{x: x, uid: uid} }

// ShadowCRUD switches the generated schema of one content-type.
type ShadowCRUD struct {
	x   *Extensions
	uid string
}

func (s *ShadowCRUD) set(fn func(*typeState)) *ShadowCRUD {
	s.x.change(func() { fn(s.x.state(s.uid)) })
	return s
}

func (s *ShadowCRUD) get(fn func(*typeState) bool) bool {
	s.x.mu.Lock()
	defer s.x.mu.Unlock()
	return fn(s.x.state(s.uid))
}

// Disable removes the content-type from the schema: types, queries, mutations.
func (s *ShadowCRUD) Disable() *ShadowCRUD { return s.set(func(t *typeState) { t.disabled = true }) }

// DisableQueries removes its queries.
func (s *ShadowCRUD) DisableQueries() *ShadowCRUD {
	return s.set(func(t *typeState) { t.noQueries = true })
}

// DisableMutations removes its mutations.
func (s *ShadowCRUD) DisableMutations() *ShadowCRUD {
	return s.set(func(t *typeState) { t.noMutations = true })
}

// DisableAction removes one action: find, findOne, create, update, delete.
func (s *ShadowCRUD) DisableAction(action string) *ShadowCRUD {
	return s.set(func(t *typeState) { t.actions[action] = true })
}

// DisableActions removes several actions.
func (s *ShadowCRUD) DisableActions(actions []string) *ShadowCRUD {
	return s.set(func(t *typeState) {
		for _, a := range actions {
			t.actions[a] = true
		}
	})
}

// IsEnabled reports whether the type is in the schema.
func (s *ShadowCRUD) IsEnabled() bool { return s.get(func(t *typeState) bool { return !t.disabled }) }

// IsDisabled is !IsEnabled.
func (s *ShadowCRUD) IsDisabled() bool { return !s.IsEnabled() }

// AreQueriesEnabled reports whether its queries are generated.
func (s *ShadowCRUD) AreQueriesEnabled() bool {
	return s.get(func(t *typeState) bool { return !t.disabled && !t.noQueries })
}

// AreQueriesDisabled is !AreQueriesEnabled.
func (s *ShadowCRUD) AreQueriesDisabled() bool { return !s.AreQueriesEnabled() }

// AreMutationsEnabled reports whether its mutations are generated.
func (s *ShadowCRUD) AreMutationsEnabled() bool {
	return s.get(func(t *typeState) bool { return !t.disabled && !t.noMutations })
}

// AreMutationsDisabled is !AreMutationsEnabled.
func (s *ShadowCRUD) AreMutationsDisabled() bool { return !s.AreMutationsEnabled() }

// IsActionEnabled reports whether the operation of an action is generated.
func (s *ShadowCRUD) IsActionEnabled(action string) bool {
	return s.get(func(t *typeState) bool { return actionOn(t, action) })
}

// IsActionDisabled is !IsActionEnabled.
func (s *ShadowCRUD) IsActionDisabled(action string) bool { return !s.IsActionEnabled(action) }

func actionOn(t *typeState, action string) bool {
	if t.disabled || t.actions[action] {
		return false
	}
	switch action {
	case "find", "findOne":
		return !t.noQueries
	case "create", "update", "delete":
		return !t.noMutations
	}
	return true
}

// Field returns the handle of one attribute.
func (s *ShadowCRUD) Field(name string) *FieldCRUD { return &FieldCRUD{s: s, name: name} }

// FieldCRUD switches one attribute in the generated types.
type FieldCRUD struct {
	s    *ShadowCRUD
	name string
}

func (f *FieldCRUD) set(fn func(*fieldState)) *FieldCRUD {
	f.s.set(func(t *typeState) {
		fs := t.fields[f.name]
		if fs == nil {
			fs = &fieldState{}
			t.fields[f.name] = fs
		}
		fn(fs)
	})
	return f
}

func (f *FieldCRUD) get(fn func(*fieldState) bool) bool {
	return f.s.get(func(t *typeState) bool {
		fs := t.fields[f.name]
		if fs == nil {
			fs = &fieldState{}
		}
		return fn(fs)
	})
}

// Disable removes the field from output, input and filters.
func (f *FieldCRUD) Disable() *FieldCRUD { return f.set(func(s *fieldState) { s.disabled = true }) }

// DisableOutput removes it from the output type.
func (f *FieldCRUD) DisableOutput() *FieldCRUD {
	return f.set(func(s *fieldState) { s.noOutput = true })
}

// DisableInput removes it from <Type>Input.
func (f *FieldCRUD) DisableInput() *FieldCRUD { return f.set(func(s *fieldState) { s.noInput = true }) }

// DisableFilters removes it from <Type>FiltersInput.
func (f *FieldCRUD) DisableFilters() *FieldCRUD {
	return f.set(func(s *fieldState) { s.noFilters = true })
}

// IsEnabled reports whether the field is generated at all.
func (f *FieldCRUD) IsEnabled() bool { return f.get(func(s *fieldState) bool { return !s.disabled }) }

// IsDisabled is !IsEnabled.
func (f *FieldCRUD) IsDisabled() bool { return !f.IsEnabled() }

// HasInputEnabled reports whether the field is in <Type>Input.
func (f *FieldCRUD) HasInputEnabled() bool {
	return f.get(func(s *fieldState) bool { return !s.disabled && !s.noInput })
}

// HasOutputEnabled reports whether the field is in the output type.
func (f *FieldCRUD) HasOutputEnabled() bool {
	return f.get(func(s *fieldState) bool { return !s.disabled && !s.noOutput })
}

// HasFiltersEnabled reports whether the field is in <Type>FiltersInput.
func (f *FieldCRUD) HasFiltersEnabled() bool {
	return f.get(func(s *fieldState) bool { return !s.disabled && !s.noFilters })
}

// custSnapshot is a frozen copy of the customisations for one build.
type custSnapshot struct {
	version     int64
	types       map[string]typeState
	fields      map[string]map[string]fieldState
	typeDefs    []string
	resolvers   map[string]map[string]gql.FieldResolveFn
	configs     map[string]ResolverConfig
	policies    map[string]PolicyFunc
	middlewares map[string]func(any) MiddlewareFunc
}

func (x *Extensions) snapshot() *custSnapshot {
	x.mu.Lock()
	defer x.mu.Unlock()
	c := &custSnapshot{version: x.version.Load(), types: map[string]typeState{}, fields: map[string]map[string]fieldState{},
		resolvers: map[string]map[string]gql.FieldResolveFn{}, configs: map[string]ResolverConfig{},
		policies: map[string]PolicyFunc{}, middlewares: map[string]func(any) MiddlewareFunc{}}
	for uid, t := range x.types {
		c.types[uid] = *t
		fm := map[string]fieldState{}
		for n, f := range t.fields {
			fm[n] = *f
		}
		c.fields[uid] = fm
	}
	for _, e := range x.exts {
		if e.TypeDefs != "" {
			c.typeDefs = append(c.typeDefs, e.TypeDefs)
		}
		for tn, fs := range e.Resolvers {
			if c.resolvers[tn] == nil {
				c.resolvers[tn] = map[string]gql.FieldResolveFn{}
			}
			for fn, r := range fs {
				c.resolvers[tn][fn] = r
			}
		}
		for k, v := range e.ResolversConfig {
			c.configs[k] = v
		}
	}
	for k, v := range x.policies {
		c.policies[k] = v
	}
	for k, v := range x.middlewares {
		c.middlewares[k] = v
	}
	return c
}

func (c *custSnapshot) typeEnabled(uid string) bool { return !c.types[uid].disabled }

func (c *custSnapshot) queriesOn(uid string) bool {
	t := c.types[uid]
	return !t.disabled && !t.noQueries
}

func (c *custSnapshot) mutationsOn(uid string) bool {
	t := c.types[uid]
	return !t.disabled && !t.noMutations
}

func (c *custSnapshot) actionOn(uid, action string) bool {
	t := c.types[uid]
	return actionOn(&t, action)
}

func (c *custSnapshot) field(uid, name string) fieldState { return c.fields[uid][name] }

func (c *custSnapshot) fieldOutput(uid, name string) bool {
	f := c.field(uid, name)
	return !f.disabled && !f.noOutput
}

func (c *custSnapshot) fieldInput(uid, name string) bool {
	f := c.field(uid, name)
	return !f.disabled && !f.noInput
}

func (c *custSnapshot) fieldFilters(uid, name string) bool {
	f := c.field(uid, name)
	return !f.disabled && !f.noFilters
}

func (c *custSnapshot) resolver(typeName, field string) gql.FieldResolveFn {
	return c.resolvers[typeName][field]
}

// policyError is Strapi's PolicyError: a ForbiddenError named otherwise.
type policyError struct{ msg string }

func (e *policyError) Error() string { return e.msg }

// wrap applies resolversConfig to a resolver: auth (on Query and Mutation
// fields), then policies, then middlewares around the resolver.
func (b *builder) wrap(typeName, field string, fn gql.FieldResolveFn) gql.FieldResolveFn {
	key := typeName + "." + field
	cfg, ok := b.cust.configs[key]
	if !ok {
		return fn
	}
	action := b.actions[key]
	root := typeName == "Query" || typeName == "Mutation"
	type pol struct {
		fn  PolicyFunc
		cfg any
	}
	var pols []pol
	for _, p := range cfg.Policies {
		f := p.Func
		if f == nil {
			f = b.cust.policies[p.Name]
		}
		if f == nil {
			b.errs = append(b.errs, fmt.Errorf("resolversConfig %s: unknown policy %q", key, p.Name))
			continue
		}
		pols = append(pols, pol{f, p.Config})
	}
	var mws []MiddlewareFunc
	for _, m := range cfg.Middlewares {
		f := m.Func
		if f == nil {
			if mk := b.cust.middlewares[m.Name]; mk != nil {
				f = mk(m.Options)
			}
		}
		if f == nil {
			b.errs = append(b.errs, fmt.Errorf("resolversConfig %s: unknown middleware %q", key, m.Name))
			continue
		}
		mws = append(mws, f)
	}
	h := fn
	for i := len(mws) - 1; i >= 0; i-- {
		mw, next := mws[i], h
		h = func(p gql.ResolveParams) (any, error) { return mw(next, p) }
	}
	return func(p gql.ResolveParams) (any, error) {
		rq := reqFrom(p.Context)
		var principal *auth.Principal
		var hr *http.Request
		if rq != nil {
			principal, hr = rq.principal, rq.http
		}
		if root && cfg.Auth != nil {
			if !cfg.Auth.Disabled {
				for _, s := range cfg.Auth.Scope {
					if !principal.Can(s) {
						return nil, errs.Forbidden()
					}
				}
			}
			if action != "" {
				p.Context = withGrant(p.Context, action)
			}
		}
		for _, pl := range pols {
			ok, err := pl.fn(&PolicyContext{Parent: p.Source, Args: p.Args, Context: p.Context, Info: p.Info,
				HTTP: hr, Principal: principal, Config: pl.cfg})
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, &policyError{msg: "Policy Failed"}
			}
		}
		return h(p)
	}
}

// Declarative is the customisation part of plugins.json graphql.config, for
// projects that do not compile Go:
//
//	"contentTypes": {"api::article.article": {"disable": false, "disableQueries": false,
//	  "disableMutations": false, "disableActions": ["delete"],
//	  "fields": {"secretNote": {"disable": true, "disableOutput": false, "disableInput": false, "disableFilters": false}}}},
//	"resolversConfig": {"Query.articles": {"auth": false, "policies": ["is-authenticated"], "middlewares": [{"name": "x", "options": {}}]}}
type Declarative struct {
	ContentTypes map[string]struct {
		Disable          bool     `json:"disable"`
		DisableQueries   bool     `json:"disableQueries"`
		DisableMutations bool     `json:"disableMutations"`
		DisableActions   []string `json:"disableActions"`
		Fields           map[string]struct {
			Disable        bool `json:"disable"`
			DisableOutput  bool `json:"disableOutput"`
			DisableInput   bool `json:"disableInput"`
			DisableFilters bool `json:"disableFilters"`
		} `json:"fields"`
	} `json:"contentTypes"`
	ResolversConfig map[string]struct {
		Auth        json.RawMessage   `json:"auth"`
		Policies    []json.RawMessage `json:"policies"`
		Middlewares []json.RawMessage `json:"middlewares"`
	} `json:"resolversConfig"`
}

// Apply registers the declarative customisations on x.
func (d *Declarative) Apply(x *Extensions) error {
	for uid, t := range d.ContentTypes {
		h := x.ShadowCRUD(uid)
		if t.Disable {
			h.Disable()
		}
		if t.DisableQueries {
			h.DisableQueries()
		}
		if t.DisableMutations {
			h.DisableMutations()
		}
		if len(t.DisableActions) > 0 {
			h.DisableActions(t.DisableActions)
		}
		for name, f := range t.Fields {
			fh := h.Field(name)
			if f.Disable {
				fh.Disable()
			}
			if f.DisableOutput {
				fh.DisableOutput()
			}
			if f.DisableInput {
				fh.DisableInput()
			}
			if f.DisableFilters {
				fh.DisableFilters()
			}
		}
	}
	if len(d.ResolversConfig) == 0 {
		return nil
	}
	cfgs := map[string]ResolverConfig{}
	for key, rc := range d.ResolversConfig {
		var out ResolverConfig
		if len(rc.Auth) > 0 && string(rc.Auth) != "null" {
			var off bool
			var scope struct {
				Scope []string `json:"scope"`
			}
			if json.Unmarshal(rc.Auth, &off) == nil {
				if off {
					return fmt.Errorf("resolversConfig %s: auth must be false or {\"scope\": [...]}", key)
				}
				out.Auth = AuthDisabled
			} else if err := json.Unmarshal(rc.Auth, &scope); err == nil {
				out.Auth = &Auth{Scope: scope.Scope}
			} else {
				return fmt.Errorf("resolversConfig %s: auth must be false or {\"scope\": [...]}", key)
			}
		}
		for _, raw := range rc.Policies {
			var name string
			var obj struct {
				Name   string `json:"name"`
				Config any    `json:"config"`
			}
			if json.Unmarshal(raw, &name) == nil {
				out.Policies = append(out.Policies, Policy{Name: name})
			} else if json.Unmarshal(raw, &obj) == nil && obj.Name != "" {
				out.Policies = append(out.Policies, Policy{Name: obj.Name, Config: obj.Config})
			} else {
				return fmt.Errorf("resolversConfig %s: a policy is a name or {\"name\", \"config\"}", key)
			}
		}
		for _, raw := range rc.Middlewares {
			var name string
			var obj struct {
				Name    string `json:"name"`
				Options any    `json:"options"`
			}
			if json.Unmarshal(raw, &name) == nil {
				out.Middlewares = append(out.Middlewares, Middleware{Name: name})
			} else if json.Unmarshal(raw, &obj) == nil && obj.Name != "" {
				out.Middlewares = append(out.Middlewares, Middleware{Name: obj.Name, Options: obj.Options})
			} else {
				return fmt.Errorf("resolversConfig %s: a middleware is a name or {\"name\", \"options\"}", key)
			}
		}
		cfgs[key] = out
	}
	x.Use(Extension{ResolversConfig: cfgs})
	return nil
}
