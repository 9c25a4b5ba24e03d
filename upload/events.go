package upload

import (
	"encoding/json"
	"time"
)

// Media events, as Strapi's webhooks name them. The store writes each to
// the event outbox in the statement's transaction.
const (
	EventMediaCreate = "media.create"
	EventMediaUpdate = "media.update"
	EventMediaDelete = "media.delete"
	// FileUID is the upload plugin's file type.
	FileUID = "plugin::upload.file"
)

// MediaPayload is Strapi's webhook body of a media event: {event,
// createdAt, media}.
func MediaPayload(event string, r *FileRecord, at time.Time) []byte {
	b, _ := json.Marshal(struct {
		Event     string `json:"event"`
		CreatedAt string `json:"createdAt"`
		Media     *File  `json:"media"`
	}{event, at.UTC().Format("2006-01-02T15:04:05.000Z"), r.View()})
	return b
}
