package engine

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// Limits bound the work and memory of one read request, whatever its
// query: a nested populate or a GraphQL selection can otherwise turn a
// few hundred bytes into gigabytes. Over a limit the request is a 400
// naming the limit, never a partial answer.
type Limits struct {
	// MaxPopulateDepth is the deepest populate (relations, components and
	// zones each count one level).
	MaxPopulateDepth int
	// MaxRows is the number of stored rows one request may read.
	MaxRows int
	// MaxResponseBytes bounds the documents of one answer (counted once
	// for every place a document appears) and the bytes of the rows read.
	MaxResponseBytes int64
}

// DefaultLimits are the limits of config/api.json's rest keys when unset.
var DefaultLimits = Limits{MaxPopulateDepth: 6, MaxRows: 20000, MaxResponseBytes: 32 << 20}

func (l Limits) orDefaults() Limits {
	if l.MaxPopulateDepth <= 0 {
		l.MaxPopulateDepth = DefaultLimits.MaxPopulateDepth
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultLimits.MaxRows
	}
	if l.MaxResponseBytes <= 0 {
		l.MaxResponseBytes = DefaultLimits.MaxResponseBytes
	}
	return l
}

// budget is what one request has left; every read spends from it.
type budget struct {
	lim   Limits
	rows  atomic.Int64
	bytes atomic.Int64
	// over is the first limit passed: a GraphQL operation goes on after a
	// resolver fails, but its answer is this error alone.
	over atomic.Pointer[errs.Error]
}

func (b *budget) fail(e *errs.Error) *errs.Error {
	b.over.CompareAndSwap(nil, e)
	return e
}

// BudgetError is the limit a request passed, or nil.
func BudgetError(ctx context.Context) *errs.Error {
	if b := budgetOf(ctx); b != nil {
		return b.over.Load()
	}
	return nil
}

type budgetKey struct{}

// WithBudget gives ctx one request's budget, shared by every read made
// with it (a GraphQL request makes many).
func (e *Engine) WithBudget(ctx context.Context) context.Context {
	if budgetOf(ctx) != nil {
		return ctx
	}
	c := &budgetCtx{Context: ctx}
	c.b.lim = e.cfg.Limits
	return c
}

// budgetCtx carries the budget in the context value itself: one
// allocation per request where context.WithValue and the budget were two.
type budgetCtx struct {
	context.Context
	b budget
}

func (c *budgetCtx) Value(key any) any {
	if _, ok := key.(budgetKey); ok {
		return &c.b
	}
	return c.Context.Value(key)
}

func budgetOf(ctx context.Context) *budget {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	return b
}

func rowsError(max int) *errs.Error {
	return &errs.Error{Kind: errs.KindValidation,
		Message: fmt.Sprintf("The request reads more than %d stored rows: ask for fewer documents or a shallower populate", max),
		Details: map[string]any{"limit": "maxRows", "max": max}}
}

func bytesError(max int64) *errs.Error {
	return &errs.Error{Kind: errs.KindValidation,
		Message: fmt.Sprintf("The answer would be larger than %d bytes: ask for fewer documents or a shallower populate", max),
		Details: map[string]any{"limit": "maxResponseBytes", "max": max}}
}

// list reads rows within the request's budget: a read never asks the
// database for more rows than the budget has left.
// listBatch reads several lists in one round trip when the backend can,
// within the request's read budget as list does.
func (e *Engine) listBatch(ctx context.Context, items []BatchItem) ([][]Row, error) {
	bl, ok := e.store.(BatchLister)
	if !ok {
		out := make([][]Row, len(items))
		for i, it := range items {
			rows, err := e.list(ctx, it.Type, it.Query)
			if err != nil {
				return nil, err
			}
			out[i] = rows
		}
		return out, nil
	}
	b := budgetOf(ctx)
	if b == nil {
		return bl.ListBatch(ctx, items, -1)
	}
	left := int64(b.lim.MaxRows) - b.rows.Load()
	if left < 0 {
		return nil, b.fail(rowsError(b.lim.MaxRows))
	}
	// The whole batch asks for at most one row more than the budget has
	// left (one more tells that it is exceeded), as a single list does.
	out, err := bl.ListBatch(ctx, items, int(left)+1)
	if err != nil {
		return nil, err
	}
	for _, rows := range out {
		if err := b.charge(rows); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// charge counts rows against the budget.
func (b *budget) charge(rows []Row) error {
	if b.rows.Add(int64(len(rows))) > int64(b.lim.MaxRows) {
		return b.fail(rowsError(b.lim.MaxRows))
	}
	var n int64
	for i := range rows {
		n += int64(len(rows[i].Data) + len(rows[i].Extra))
	}
	if b.bytes.Add(n) > b.lim.MaxResponseBytes {
		return b.fail(bytesError(b.lim.MaxResponseBytes))
	}
	return nil
}

func (e *Engine) list(ctx context.Context, ct *models.ContentType, lq *ListQuery) ([]Row, error) {
	return e.budgeted(ctx, lq, func(q *ListQuery) ([]Row, error) { return e.store.List(ctx, ct, q) })
}

// listCounted is list with the page's total when the backend reads both
// in one statement (counted false: count as usual).
func (e *Engine) listCounted(ctx context.Context, ct *models.ContentType, lq *ListQuery) ([]Row, int64, bool, error) {
	lc, ok := e.store.(ListCounter)
	if !ok {
		rows, err := e.list(ctx, ct, lq)
		return rows, 0, false, err
	}
	var total int64
	var counted bool
	rows, err := e.budgeted(ctx, lq, func(q *ListQuery) ([]Row, error) {
		rows, n, c, err := lc.ListCounted(ctx, ct, q)
		total, counted = n, c
		return rows, err
	})
	return rows, total, counted, err
}

// budgeted runs read within the request's read budget: it asks for at
// most one row more than the budget has left and charges what it got.
func (e *Engine) budgeted(ctx context.Context, lq *ListQuery, read func(*ListQuery) ([]Row, error)) ([]Row, error) {
	b := budgetOf(ctx)
	if b == nil {
		return read(lq)
	}
	left := int64(b.lim.MaxRows) - b.rows.Load()
	if left < 0 {
		return nil, b.fail(rowsError(b.lim.MaxRows))
	}
	if lq.Limit < 0 || int64(lq.Limit) > left {
		bounded := *lq
		bounded.Limit = int(left) + 1 // one more tells that the budget is exceeded
		lq = &bounded
	}
	rows, err := read(lq)
	if err != nil {
		return nil, err
	}
	if err := b.charge(rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// checkSize refuses documents whose JSON would pass the byte budget. A
// document populated under many parents is written once for each, so the
// size is counted per place, with each document's own size computed once.
func checkSize(ctx context.Context, docs []*Document) error {
	b := budgetOf(ctx)
	if b == nil {
		return nil
	}
	max := b.lim.MaxResponseBytes
	flat := int64(0) // documents with nothing populated need no walk
	for _, d := range docs {
		if len(d.Related) > 0 {
			flat = -1
			break
		}
		flat += ownSize(d)
	}
	if flat >= 0 {
		if flat > max {
			return b.fail(bytesError(max))
		}
		return nil
	}
	memo := map[*Document]int64{}
	var size func(d *Document) int64
	size = func(d *Document) int64 {
		if d == nil {
			return 4
		}
		if n, ok := memo[d]; ok {
			return n
		}
		memo[d] = max + 1 // a cycle would never end: count it as too big
		n := ownSize(d)
		for i := range d.Related {
			r := &d.Related[i]
			n += int64(len(r.Name)+len(r.Raw)) + 16
			n += size(r.One)
			for _, m := range r.Many {
				if n += size(m); n > max {
					break
				}
			}
			if n > max {
				break
			}
		}
		memo[d] = n
		return n
	}
	var total int64
	for _, d := range docs {
		if total += size(d); total > max {
			return b.fail(bytesError(max))
		}
	}
	return nil
}

// ownSize is about the JSON of a document without what is populated in
// it: its fields, its id and the system fields.
func ownSize(d *Document) int64 {
	return int64(160 + len(d.Fields) + len(d.DocumentID) + len(d.Type))
}

// populateDepth is the depth of a populate tree: one per level of
// relations, components and dynamic zones.
func populateDepth(pop map[string]*query.Populate) int {
	depth := 0
	for _, p := range pop {
		d := 1
		if p != nil {
			d += populateDepth(p.Populate)
			for _, on := range p.On {
				if on != nil {
					d = max(d, 1+populateDepth(on.Populate))
				}
			}
		}
		depth = max(depth, d)
	}
	return depth
}
