package engine

import (
	"encoding/json"
	"time"

	"github.com/stratum-cms/stratum/models"
)

// Document events, as Strapi names them for webhooks. Each is written to
// the outbox in the transaction of the change it reports, so a committed
// change always has its event and a rolled-back one never does.
const (
	EventCreate    = "entry.create"
	EventUpdate    = "entry.update"
	EventDelete    = "entry.delete"
	EventPublish   = "entry.publish"
	EventUnpublish = "entry.unpublish"
)

// Event is one change in the outbox.
type Event struct {
	Name       string
	UID        string
	DocumentID string
	Locale     string
	// Payload is Strapi's webhook body: {event, createdAt, model, uid, entry}.
	Payload []byte
	At      time.Time
}

// entryEvent builds the event of a written row: the entry as the API
// shows it (public attributes only; private and password ones never are).
func entryEvent(name string, ct *models.ContentType, r *Row, at time.Time) *Event {
	entry := shape(ct, r, nil).AppendJSON(nil, FormatV5)
	payload, _ := json.Marshal(struct {
		Event     string          `json:"event"`
		CreatedAt string          `json:"createdAt"`
		Model     string          `json:"model"`
		UID       string          `json:"uid"`
		Entry     json.RawMessage `json:"entry"`
	}{name, at.UTC().Format("2006-01-02T15:04:05.000Z"), ct.Info.SingularName, ct.UID, entry})
	return &Event{Name: name, UID: ct.UID, DocumentID: r.DocumentID, Locale: r.Locale, Payload: payload, At: at}
}

// emitWrite reports a created or updated document, and its publication
// when the write published it.
func (e *Engine) emitWrite(tx Tx, ct *models.ContentType, name string, r *Row) error {
	now := e.now()
	if err := tx.Emit(entryEvent(name, ct, r, now)); err != nil {
		return err
	}
	if ct.HasDraftAndPublish() && r.PublishedAt != nil {
		return tx.Emit(entryEvent(EventPublish, ct, r, now))
	}
	return nil
}
