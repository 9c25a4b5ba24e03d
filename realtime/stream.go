package realtime

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Stream is one client's subscription.
type Stream struct {
	// IP is the client's address, counted against MaxPerClient.
	IP string
	// Types are the content-type uids streamed (every type the
	// credential may read when empty).
	Types map[string]bool
	// DocumentID keeps only one document's events when set.
	DocumentID string
	// Drafts streams the events of unpublished versions too (status=draft).
	Drafts bool
	// LastID resumes after this event (Last-Event-ID); 0 starts now.
	LastID int64
	// Readable says, at the moment of sending, whether the credential may
	// read a type's documents; it is asked again for each event, so a
	// changed role or a revoked token takes effect on an open stream.
	Readable func(ctx context.Context, uid string) (bool, error)
}

// Serve writes the stream until the client leaves, the credential stops
// being valid or the hub stops. It answers the refusal (full, stopping)
// as an error before writing anything.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, s Stream) error {
	sb, cursor, err := h.subscribe(s.IP)
	if err != nil {
		return err
	}
	defer h.unsubscribe(sb)
	fl, _ := w.(http.Flusher)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no") // nginx: do not hold events back
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	write := func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if !write([]byte("retry: 2000\n: connected\n\n")) {
		return nil
	}
	send := func(ev Event) bool {
		ok, err := s.wants(ctx, ev)
		if err != nil {
			_ = write([]byte("event: error\ndata: {\"message\":\"credentials are no longer valid\"}\n\n"))
			return false
		}
		if !ok {
			return true
		}
		b := make([]byte, 0, len(ev.Payload)+64)
		b = append(b, "id: "...)
		b = strconv.AppendInt(b, ev.ID, 10)
		b = append(b, "\nevent: "...)
		b = append(b, ev.Name...)
		b = append(b, "\ndata: "...)
		b = append(b, ev.Payload...) // compact JSON: one line
		b = append(b, "\n\n"...)
		return write(b)
	}
	// A reconnecting client first gets what it missed, up to where the
	// hub took over.
	for after := s.LastID; s.LastID > 0 && after < cursor; {
		events, err := h.st.EventsAfter(ctx, after, min(h.cfg.Backlog, 500))
		if err != nil || len(events) == 0 {
			break
		}
		for _, ev := range events {
			if ev.ID > cursor {
				break
			}
			if !send(ev) {
				return nil
			}
			after = ev.ID
		}
		if len(events) < 500 {
			break
		}
	}
	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-sb.ch:
			if !ok {
				return nil // the hub stopped, or this stream fell behind
			}
			if ev.ID <= s.LastID {
				continue
			}
			if !send(ev) {
				return nil
			}
		case <-beat.C:
			if !write([]byte(": ping\n\n")) {
				return nil
			}
		}
	}
}

// wants tells whether the stream sends an event.
func (s Stream) wants(ctx context.Context, ev Event) (bool, error) {
	if len(s.Types) > 0 && !s.Types[ev.UID] {
		return false, nil
	}
	if s.DocumentID != "" && ev.DocumentID != s.DocumentID {
		return false, nil
	}
	ok, err := s.Readable(ctx, ev.UID)
	if err != nil || !ok {
		return false, err
	}
	if s.Drafts {
		return true, nil
	}
	switch ev.Name {
	case "entry.delete", "entry.unpublish":
		return true, nil
	}
	// A draft is not for readers of published content.
	var p struct {
		Entry *struct {
			PublishedAt *string `json:"publishedAt"`
		} `json:"entry"`
	}
	if json.Unmarshal(ev.Payload, &p) != nil {
		return false, nil
	}
	return p.Entry == nil || p.Entry.PublishedAt != nil, nil
}
