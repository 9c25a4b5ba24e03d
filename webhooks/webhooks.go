// Package webhooks is Strapi's webhooks, delivered from the outbox: each
// document event is written in the transaction of its change
// (engine.Event), turned into one delivery per subscribed webhook, and
// sent at least once, in order per webhook, retried with backoff, by one
// node at a time.
package webhooks

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stratum-cms/stratum/errs"
)

// Events is every event a webhook may subscribe to.
var Events = []string{"entry.create", "entry.update", "entry.delete", "entry.publish", "entry.unpublish",
	"media.create", "media.update", "media.delete"}

// Webhook is a webhook as stored and as the admin API shows it.
type Webhook struct {
	ID        int64             `json:"id"`
	Name      string            `json:"name"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Events    []string          `json:"events"`
	IsEnabled bool              `json:"isEnabled"`
	// Secret signs deliveries (X-Stratum-Signature); never shown back.
	Secret    string `json:"-"`
	HasSecret bool   `json:"hasSecret"`
	CreatedAt int64  `json:"-"`
	UpdatedAt int64  `json:"-"`
}

// Delivery is one event's delivery to one webhook.
type Delivery struct {
	ID         int64  `json:"id"`
	WebhookID  int64  `json:"webhookId"`
	EventID    int64  `json:"eventId"`
	Event      string `json:"event"`
	Status     string `json:"status"` // pending, delivered, failed
	Attempts   int    `json:"attempts"`
	LastStatus int    `json:"lastStatus"` // the receiver's HTTP status, 0 for none
	LastError  string `json:"lastError"`
	NextAt     int64  `json:"-"`
	CreatedAt  int64  `json:"-"`
	UpdatedAt  int64  `json:"-"`
}

// Claimed is a delivery a node took, with what it sends.
type Claimed struct {
	Delivery
	Webhook Webhook
	Payload []byte
}

// Outcome is the result of one attempt.
type Outcome struct {
	Status     string // delivered, pending (again at NextAt) or failed
	Attempts   int
	NextAt     int64
	LastStatus int
	LastError  string
	At         int64
}

// Store keeps webhooks, the outbox and deliveries; package store
// implements it.
type Store interface {
	Webhooks(ctx context.Context) ([]Webhook, error)
	Webhook(ctx context.Context, id int64) (*Webhook, error)
	CreateWebhook(ctx context.Context, w *Webhook) error // sets w.ID
	SaveWebhook(ctx context.Context, w *Webhook) error
	// DeleteWebhook removes it and its deliveries.
	DeleteWebhook(ctx context.Context, id int64) error
	// Dispatch turns the outbox's new events into deliveries for the
	// webhooks subscribed to them (created before the event), once
	// across nodes; it says how many it made.
	Dispatch(ctx context.Context, now int64) (int, error)
	// Claim leases up to limit due deliveries until now+lease, the
	// oldest pending one of each webhook only (order per webhook), none
	// another node holds.
	Claim(ctx context.Context, now, lease int64, limit int) ([]Claimed, error)
	Finish(ctx context.Context, id int64, o Outcome) error
	// Deliveries lists a webhook's latest deliveries, newest first.
	Deliveries(ctx context.Context, webhookID int64, limit int) ([]Delivery, error)
	// Prune forgets events and finished deliveries older than before.
	Prune(ctx context.Context, before int64) error
	// Backlog counts pending deliveries.
	Backlog(ctx context.Context) (int64, error)
}

var nameRe = regexp.MustCompile(`^[\p{L}\p{N}\s\-_.]+$`)

// headerNameRe is an HTTP header field name (token).
var headerNameRe = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")

// reservedHeaders may not be set by a webhook: they describe the
// delivery itself.
var reservedHeaders = map[string]bool{"content-type": true, "content-length": true, "host": true,
	"x-strapi-event": true, "x-stratum-signature": true, "transfer-encoding": true, "connection": true}

// Input is the body of POST and PUT /admin/webhooks.
type Input struct {
	Name      string
	URL       string
	Headers   map[string]string
	Events    []string
	IsEnabled *bool
	Secret    *string
}

// ParseInput reads {name, url, headers, events, isEnabled, secret} as
// Strapi validates it (all of name, url and events required).
func ParseInput(body map[string]any) (Input, error) {
	var in Input
	var fe errs.FieldErrors
	for k := range body {
		switch k {
		case "name", "url", "headers", "events", "isEnabled", "secret", "id", "createdAt", "updatedAt", "hasSecret":
		default:
			return in, errs.InvalidKey(k, k, "body", k)
		}
	}
	str := func(k string) string {
		v, ok := body[k]
		if !ok {
			fe.Add([]string{k}, nil, "%s is a required field", k)
			return ""
		}
		s, ok := v.(string)
		if !ok {
			fe.Add([]string{k}, nil, "%s must be a `string` type", k)
		}
		return strings.TrimSpace(s)
	}
	in.Name, in.URL = str("name"), str("url")
	if in.Name != "" && (len(in.Name) > 255 || !nameRe.MatchString(in.Name)) {
		fe.Add([]string{"name"}, in.Name, "name must contain only letters, numbers, spaces, dashes, dots and underscores")
	}
	if in.URL != "" {
		u, err := url.Parse(in.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(in.URL) > 2048 {
			fe.Add([]string{"url"}, in.URL, "url must be a valid http or https URL")
		}
	}
	in.Headers = map[string]string{}
	if v, ok := body["headers"]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			fe.Add([]string{"headers"}, nil, "headers must be an object of strings")
		}
		for k, hv := range m {
			s, ok := hv.(string)
			switch {
			case !ok:
				fe.Add([]string{"headers", k}, nil, "headers.%s must be a string", k)
			case !headerNameRe.MatchString(k) || reservedHeaders[strings.ToLower(k)]:
				fe.Add([]string{"headers", k}, nil, "%s cannot be a webhook header", k)
			case strings.ContainsAny(s, "\r\n\x00") || len(s) > 4096:
				fe.Add([]string{"headers", k}, nil, "headers.%s is not a valid header value", k)
			default:
				in.Headers[k] = s
			}
		}
		if len(m) > 50 {
			fe.Add([]string{"headers"}, nil, "a webhook has at most 50 headers")
		}
	}
	if v, ok := body["events"]; !ok {
		fe.Add([]string{"events"}, nil, "events is a required field")
	} else if list, ok := v.([]any); !ok {
		fe.Add([]string{"events"}, nil, "events must be a list of events")
	} else {
		for i, x := range list {
			s, _ := x.(string)
			if !slices.Contains(Events, s) {
				fe.Add([]string{"events", itoa(i)}, x, "events[%d] must be one of: %s", i, strings.Join(Events, ", "))
				continue
			}
			if !slices.Contains(in.Events, s) {
				in.Events = append(in.Events, s)
			}
		}
		sort.Strings(in.Events)
	}
	if v, ok := body["isEnabled"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			fe.Add([]string{"isEnabled"}, nil, "isEnabled must be a `boolean` type")
		}
		in.IsEnabled = &b
	}
	if v, ok := body["secret"]; ok && v != nil {
		s, isStr := v.(string)
		if !isStr || len(s) > 256 {
			fe.Add([]string{"secret"}, nil, "secret must be a string of at most 256 characters")
		}
		in.Secret = &s
	}
	if in.Events == nil {
		in.Events = []string{}
	}
	return in, fe.Err()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func notFound() error { return errs.Errorf(errs.KindNotFound, "Webhook not found") }

func nowMilli(t time.Time) int64 { return t.UnixMilli() }
