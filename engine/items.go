package engine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/models"
	"github.com/stratum-cms/stratum/query"
)

// ItemQuery filters and orders the items of inline component lists. The
// store compiles it with the same compiler as document queries, so a
// filter means the same on a repeatable component's items as on rows.
type ItemQuery struct {
	// Lists is a JSON array of the lists, each a JSON array of items.
	Lists   []byte
	Filter  query.Filter
	Sort    []query.Sort
	Version Version // of relation targets named inside the items
}

// ItemRef is one kept item: its list and its index in that list.
type ItemRef struct{ List, Index int }

// FilterItems applies a filter and a sort to the items of repeatable
// component lists (GraphQL's arguments on such a field), for many lists in
// one query. It answers, per list, the indices of the items kept, in order.
// Paths through relations inside the items need find on their targets.
func (e *Engine) FilterItems(ctx context.Context, acc Access, s *models.Schema, comp *models.Component,
	lists [][]json.RawMessage, f query.Filter, sorts []query.Sort, st query.Status) ([][]int, error) {
	in := scope{comp: comp}
	rf, err := resolveFilter(s, acc, in, f)
	if err != nil {
		return nil, err
	}
	rs, err := resolveSort(s, acc, in, sorts)
	if err != nil {
		return nil, err
	}
	for _, so := range rs {
		if len(so.Steps) != 1 || so.Steps[0].Attr == nil || !so.Steps[0].Attr.IsScalar() {
			p := strings.Join(so.Path, ".")
			return nil, errs.InvalidKey(p, p, "query", "sort")
		}
	}
	out := make([][]int, len(lists))
	if rf == nil && len(rs) == 0 {
		for i, l := range lists {
			out[i] = make([]int, len(l))
			for j := range l {
				out[i][j] = j
			}
		}
		return out, nil
	}
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	if total == 0 {
		return out, nil
	}
	raw, err := json.Marshal(lists)
	if err != nil {
		return nil, err
	}
	v := VersionPublished
	if st == query.Draft {
		v = VersionDraft
	}
	refs, err := e.store.FilterItems(ctx, &ItemQuery{Lists: raw, Filter: rf, Sort: rs, Version: v})
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if r.List >= 0 && r.List < len(out) {
			out[r.List] = append(out[r.List], r.Index)
		}
	}
	return out, nil
}
