package executor

import (
	"context"
	"sync"
	"time"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
)

// Apollo tracing (apolloServer.tracing): extensions.tracing in the
// apollo-tracing format, version 1.

type traceKey struct{}

type trace struct {
	mu        sync.Mutex
	start     time.Time
	end       time.Time
	resolvers []map[string]any
}

// StartTrace gives an operation a trace that Tracer fills.
func StartTrace(ctx context.Context) context.Context {
	return context.WithValue(ctx, traceKey{}, &trace{start: time.Now()})
}

// Tracer is the graphql-go extension that fills the request's trace.
type Tracer struct{}

var _ gql.Extension = Tracer{}

func (Tracer) Init(ctx context.Context, _ *gql.Params) context.Context { return ctx }
func (Tracer) Name() string                                            { return "tracing" }
func (Tracer) HasResult() bool                                         { return true }

func (Tracer) ParseDidStart(ctx context.Context) (context.Context, gql.ParseFinishFunc) {
	return ctx, func(error) {}
}

func (Tracer) ValidationDidStart(ctx context.Context) (context.Context, gql.ValidationFinishFunc) {
	return ctx, func([]gqlerrors.FormattedError) {}
}

func (Tracer) ExecutionDidStart(ctx context.Context) (context.Context, gql.ExecutionFinishFunc) {
	return ctx, func(*gql.Result) {
		if t, _ := ctx.Value(traceKey{}).(*trace); t != nil {
			t.mu.Lock()
			t.end = time.Now()
			t.mu.Unlock()
		}
	}
}

func (Tracer) ResolveFieldDidStart(ctx context.Context, info *gql.ResolveInfo) (context.Context, gql.ResolveFieldFinishFunc) {
	t, _ := ctx.Value(traceKey{}).(*trace)
	if t == nil {
		return ctx, func(any, error) {}
	}
	began := time.Now()
	return ctx, func(any, error) {
		d := time.Since(began)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.resolvers = append(t.resolvers, map[string]any{
			"path": info.Path.AsArray(), "parentType": info.ParentType.Name(), "fieldName": info.FieldName,
			"returnType": info.ReturnType.String(), "startOffset": began.Sub(t.start).Nanoseconds(), "duration": d.Nanoseconds(),
		})
	}
}

func (Tracer) GetResult(ctx context.Context) any {
	t, _ := ctx.Value(traceKey{}).(*trace)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	end := t.end
	if end.IsZero() {
		end = time.Now()
	}
	res := t.resolvers
	if res == nil {
		res = []map[string]any{}
	}
	return map[string]any{
		"version": 1, "startTime": t.start.UTC().Format(time.RFC3339Nano), "endTime": end.UTC().Format(time.RFC3339Nano),
		"duration": end.Sub(t.start).Nanoseconds(), "execution": map[string]any{"resolvers": res},
	}
}
