// Package realtime streams document events to clients as Server-Sent
// Events. One hub per node reads the shared event outbox (so a change made
// on any node reaches every node's clients) and hands each event to the
// streams subscribed to its type; each stream checks its credential before
// it sends, so a client only sees documents it may read.
package realtime

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Event is one outbox event as streams see it.
type Event struct {
	ID         int64
	Name       string
	UID        string
	DocumentID string
	Locale     string
	Payload    []byte
	CreatedAt  int64 // Unix ms
}

// Store reads the outbox; package store implements it.
type Store interface {
	// EventsAfter lists up to limit events with ids above after, in id order.
	EventsAfter(ctx context.Context, after int64, limit int) ([]Event, error)
	// LastEventID is the newest event's id (0 for none).
	LastEventID(ctx context.Context) (int64, error)
}

// Config tunes the hub; zero values take the defaults.
type Config struct {
	// Poll is how often the outbox is read (250 ms).
	Poll time.Duration
	// GapWait is how long an event id missing below newer ones is waited
	// for (5 s): ids are taken when a transaction writes and become
	// visible when it commits, so a slow transaction's event can appear
	// after a newer one; a rolled-back one never appears.
	GapWait time.Duration
	// Heartbeat is the interval of the comment lines that keep idle
	// streams open through proxies (15 s).
	Heartbeat time.Duration
	// MaxStreams in total and MaxPerClient per client address (1000, 10).
	MaxStreams, MaxPerClient int
	// Backlog bounds how many events a reconnecting client is sent from
	// before it connected (1000).
	Backlog int
	Log     *slog.Logger
}

func (c *Config) defaults() {
	if c.Poll <= 0 {
		c.Poll = 250 * time.Millisecond
	}
	if c.GapWait <= 0 {
		c.GapWait = 5 * time.Second
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = 15 * time.Second
	}
	if c.MaxStreams <= 0 {
		c.MaxStreams = 1000
	}
	if c.MaxPerClient <= 0 {
		c.MaxPerClient = 10
	}
	if c.Backlog <= 0 {
		c.Backlog = 1000
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Hub polls the outbox and fans events out to subscribers.
type Hub struct {
	st  Store
	cfg Config

	mu       sync.Mutex
	subs     map[*sub]bool
	perIP    map[string]int
	cursor   int64 // every event up to here was handed out
	started  bool
	closed   bool
	closedCh chan struct{}
	// missing notes when a gap below newer events was first seen.
	missing map[int64]time.Time
}

type sub struct {
	ch chan Event
	ip string
}

// New makes a hub; Run polls.
func New(st Store, cfg Config) *Hub {
	cfg.defaults()
	return &Hub{st: st, cfg: cfg, subs: map[*sub]bool{}, perIP: map[string]int{}, closedCh: make(chan struct{}), missing: map[int64]time.Time{}}
}

// Run reads the outbox until ctx ends, then closes every stream.
func (h *Hub) Run(ctx context.Context) {
	defer h.close()
	last, err := h.st.LastEventID(ctx)
	for err != nil && ctx.Err() == nil {
		time.Sleep(h.cfg.Poll)
		last, err = h.st.LastEventID(ctx)
	}
	h.mu.Lock()
	h.cursor, h.started = last, true
	h.mu.Unlock()
	t := time.NewTicker(h.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if h.count() == 0 {
			// Nobody listens: keep up with the outbox without reading it.
			if id, err := h.st.LastEventID(ctx); err == nil {
				h.mu.Lock()
				// A stream that subscribed meanwhile was promised the
				// events after the old cursor: they are handed out instead.
				if len(h.subs) == 0 {
					h.cursor = id
				}
				h.mu.Unlock()
			}
			continue
		}
		if err := h.poll(ctx); err != nil && ctx.Err() == nil {
			h.cfg.Log.Warn("realtime: read the outbox", "err", err)
		}
	}
}

func (h *Hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// poll hands out the new events in id order, stopping at a missing id
// until it appears or GapWait passes.
func (h *Hub) poll(ctx context.Context) error {
	h.mu.Lock()
	cursor := h.cursor
	h.mu.Unlock()
	events, err := h.st.EventsAfter(ctx, cursor, 500)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, ev := range events {
		if ev.ID != cursor+1 {
			first, seen := h.missing[cursor+1]
			if !seen {
				h.missing[cursor+1] = now
				break
			}
			if now.Sub(first) < h.cfg.GapWait {
				break
			}
			delete(h.missing, cursor+1) // given up: rolled back, most likely
		}
		cursor = ev.ID
		h.broadcast(ev)
	}
	for id := range h.missing {
		if id <= cursor {
			delete(h.missing, id)
		}
	}
	return nil
}

// broadcast hands an event to every stream and moves the cursor past it,
// under one lock: a stream subscribing at any moment gets, from the
// channel, exactly the events after the cursor it was given.
func (h *Hub) broadcast(ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cursor = ev.ID
	for s := range h.subs {
		select {
		case s.ch <- ev:
		default:
			// A stream that cannot keep up is ended; the client reconnects
			// with Last-Event-ID and catches up from the outbox.
			close(s.ch)
			delete(h.subs, s)
			h.perIP[s.ip]--
		}
	}
}

// errFull and errClosed are refusals of Subscribe.
type refusal string

func (r refusal) Error() string { return string(r) }

const (
	errFull   = refusal("too many realtime streams")
	errClosed = refusal("the server is stopping")
)

// subscribe registers a stream; the cursor says which events it will get
// (those after it).
func (h *Hub) subscribe(ip string) (*sub, int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, 0, errClosed
	}
	if len(h.subs) >= h.cfg.MaxStreams || h.perIP[ip] >= h.cfg.MaxPerClient {
		return nil, 0, errFull
	}
	s := &sub{ch: make(chan Event, 256), ip: ip}
	h.subs[s] = true
	h.perIP[ip]++
	return s, h.cursor, nil
}

func (h *Hub) unsubscribe(s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[s] {
		delete(h.subs, s)
		h.perIP[s.ip]--
		close(s.ch)
	}
	if h.perIP[s.ip] <= 0 {
		delete(h.perIP, s.ip)
	}
}

// Close ends every stream and refuses new ones (server shutdown).
func (h *Hub) Close() { h.close() }

func (h *Hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	close(h.closedCh)
	for s := range h.subs {
		close(s.ch)
		delete(h.subs, s)
	}
}

// Closed is closed when the hub stops.
func (h *Hub) Closed() <-chan struct{} { return h.closedCh }
