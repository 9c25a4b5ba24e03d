package engine

import (
	"encoding/json"

	"github.com/stratum-cms/stratum/models"
)

// inverseChange is a write to the inverse side of a relation (the side with
// mappedBy): the owning attribute of the target documents changes instead.
type inverseChange struct {
	attr    *models.Attribute // the inverse attribute on the written type
	owner   *models.Attribute // the owning attribute on the target type
	target  *models.ContentType
	add     []string // target documents that must point at us
	remove  []string // target documents that must stop pointing at us
	ordered []string // the requested list, for the response
}

// inverseValue reads a body value for an inverse relation into a change,
// applied once the document row exists (applyInverse).
func (w *writer) inverseValue(a *models.Attribute, v any, path []string) {
	target := w.schema.Type(a.Target)
	owner := w.schema.Inverse(a)
	if target == nil || owner == nil {
		w.errs.Add(path, nil, "%s cannot be written", a.Name)
		return
	}
	current, err := w.tx.Referencing(models.Reference{Owner: target, Attr: owner}, w.documentID)
	if err != nil {
		w.errs.Add(path, nil, "%s", err.Error())
		return
	}
	list, err := w.relationOps(a, target, v, current, path)
	if err != nil {
		w.errs.Add(path, nil, "%s", err.Error())
		return
	}
	if !a.IsToMany() && len(list) > 1 {
		list = list[len(list)-1:]
	}
	keep := map[string]bool{}
	for _, id := range list {
		keep[id] = true
	}
	ch := inverseChange{attr: a, owner: owner, target: target, ordered: list}
	had := map[string]bool{}
	for _, id := range current {
		had[id] = true
		if !keep[id] {
			ch.remove = append(ch.remove, id)
		}
	}
	for _, id := range list {
		if !had[id] {
			ch.add = append(ch.add, id)
		}
	}
	w.inverse = append(w.inverse, ch)
}

// applyInverse rewrites the owning attribute on every row (each version and
// locale) of the target documents, in the write's transaction.
func (w *writer) applyInverse() error {
	for _, ch := range w.inverse {
		ids := append(append([]string(nil), ch.add...), ch.remove...)
		rows, err := w.tx.AllRows(ch.target, ids)
		if err != nil {
			return err
		}
		adding := map[string]bool{}
		for _, id := range ch.add {
			adding[id] = true
		}
		for i := range rows {
			r := &rows[i]
			extra := map[string]any{}
			decodeInto(r.Extra, extra)
			refs := refIDs(rawOf(extra[ch.owner.Name]))
			var next []string
			for _, id := range refs {
				if id != w.documentID {
					next = append(next, id)
				}
			}
			if adding[r.DocumentID] {
				if ch.owner.IsToMany() {
					next = append(next, w.documentID)
				} else {
					next = []string{w.documentID}
				}
			}
			if ch.owner.IsToMany() {
				out := make([]any, len(next))
				for j, id := range next {
					out[j] = id
				}
				extra[ch.owner.Name] = out
			} else if len(next) > 0 {
				extra[ch.owner.Name] = next[len(next)-1]
			} else {
				extra[ch.owner.Name] = nil
			}
			b, err := json.Marshal(extra)
			if err != nil {
				return err
			}
			r.Extra = b
			if err := w.tx.Update(ch.target, r); err != nil {
				return err
			}
		}
	}
	return nil
}
