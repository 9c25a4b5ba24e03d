package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stratum-cms/stratum/webhooks"
)

// The webhooks.Store: webhooks, the event outbox (filled by document
// writes, txn.Emit) and deliveries. Several nodes share the work: a
// delivery is claimed with a lease (SKIP LOCKED on PostgreSQL; SQLite has
// one writer), and only the oldest pending delivery of a webhook can be
// claimed, so each webhook receives its events in order.

var _ webhooks.Store = (*Store)(nil)

const webhookCols = "id, name, url, headers, events, enabled, secret, created_at, updated_at"

func scanWebhook(row scanner) (*webhooks.Webhook, error) {
	var w webhooks.Webhook
	var headers, events string
	if err := row.Scan(&w.ID, &w.Name, &w.URL, &headers, &events, &w.IsEnabled, &w.Secret, &w.CreatedAt, &w.UpdatedAt); err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(headers), &w.Headers)
	_ = json.Unmarshal([]byte(events), &w.Events)
	if w.Headers == nil {
		w.Headers = map[string]string{}
	}
	if w.Events == nil {
		w.Events = []string{}
	}
	w.HasSecret = w.Secret != ""
	return &w, nil
}

func (s *Store) Webhooks(ctx context.Context) ([]webhooks.Webhook, error) {
	rows, err := s.read.QueryContext(ctx, "SELECT "+webhookCols+" FROM stratum_webhooks ORDER BY id")
	out, err := all(rows, err, scanWebhook)
	if out == nil && err == nil {
		out = []webhooks.Webhook{}
	}
	return out, err
}

func (s *Store) Webhook(ctx context.Context, id int64) (*webhooks.Webhook, error) {
	return one(s.read.QueryRowContext(ctx, "SELECT "+webhookCols+" FROM stratum_webhooks WHERE id = "+s.d.Placeholder(1), id), scanWebhook)
}

func webhookArgs(w *webhooks.Webhook) []any {
	h, _ := json.Marshal(w.Headers)
	e, _ := json.Marshal(w.Events)
	return []any{w.Name, w.URL, string(h), string(e), w.IsEnabled, w.Secret, w.CreatedAt, w.UpdatedAt}
}

func (s *Store) CreateWebhook(ctx context.Context, w *webhooks.Webhook) error {
	return s.write.QueryRowContext(ctx, "INSERT INTO stratum_webhooks (name, url, headers, events, enabled, secret, created_at, updated_at) VALUES ("+
		s.phs(1, 8)+") RETURNING id", webhookArgs(w)...).Scan(&w.ID)
}

func (s *Store) SaveWebhook(ctx context.Context, w *webhooks.Webhook) error {
	p := s.d.Placeholder
	_, err := s.write.ExecContext(ctx, "UPDATE stratum_webhooks SET name = "+p(1)+", url = "+p(2)+", headers = "+p(3)+", events = "+p(4)+
		", enabled = "+p(5)+", secret = "+p(6)+", created_at = "+p(7)+", updated_at = "+p(8)+" WHERE id = "+p(9),
		append(webhookArgs(w), w.ID)...)
	return err
}

func (s *Store) DeleteWebhook(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM stratum_deliveries WHERE webhook_id = "+s.d.Placeholder(1), id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM stratum_webhooks WHERE id = "+s.d.Placeholder(1), id)
		return err
	})
}

// dispatchBatch bounds the events one dispatch statement marks: events
// left undispatched while no webhook existed may be many by the time one
// is made, and one UPDATE of all of them could outlast the statement
// timeout, at every poll.
var dispatchBatch = 10000 // a variable for the test of the loop

// Dispatch marks the undispatched events dispatched and makes their
// deliveries, oldest first in batches, whatever order their transactions
// committed in (an id cursor would skip an event whose transaction
// committed late). It returns the deliveries made.
func (s *Store) Dispatch(ctx context.Context, now int64) (int, error) {
	total := 0
	for {
		events, deliveries, err := s.dispatchOnce(ctx, now)
		total += deliveries
		if err != nil || events < dispatchBatch {
			return total, err
		}
	}
}

// dispatchOnce dispatches the oldest batch of undispatched events and says
// how many events it marked and how many deliveries it made.
func (s *Store) dispatchOnce(ctx context.Context, now int64) (int, int, error) {
	// Polled by every node: a read says whether there is anything to do
	// before a write transaction is taken. Without any webhook there is
	// not: the events stay undispatched (marking them was an UPDATE of every
	// new event each poll), a webhook made later only takes events from its
	// own creation on, and Prune removes them when they are old.
	var any int
	err := s.read.QueryRowContext(ctx, "SELECT 1 FROM stratum_events WHERE dispatched = false AND EXISTS (SELECT 1 FROM stratum_webhooks) LIMIT 1").Scan(&any)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	p := s.d.Placeholder
	batch := "SELECT id FROM stratum_events WHERE dispatched = false ORDER BY id LIMIT " + strconv.Itoa(dispatchBatch)
	insert := "INSERT INTO stratum_deliveries (webhook_id, event_id, status, attempts, next_at, lease_until, last_status, last_error, created_at, updated_at) " +
		"SELECT w.id, e.id, 'pending', 0, " + p(1) + ", 0, 0, '', " + p(2) + ", " + p(3) + " FROM %s e JOIN stratum_webhooks w ON w.enabled = true " +
		"AND e.created_at >= w.created_at AND w.events LIKE '%%\"' || e.event || '\"%%' %s ON CONFLICT (webhook_id, event_id) DO NOTHING"
	if s.d.Name() == "postgres" {
		// dispatched = false again outside the batch: a node that marked
		// some of them first leaves them to it (READ COMMITTED re-checks).
		var events, deliveries int
		err := s.write.QueryRowContext(ctx, "WITH ev AS (UPDATE stratum_events SET dispatched = true WHERE dispatched = false AND id IN ("+batch+") "+
			"RETURNING id, event, created_at), ins AS ("+fmt.Sprintf(insert, "ev", "WHERE true")+" RETURNING 1) "+
			"SELECT (SELECT COUNT(*) FROM ev), (SELECT COUNT(*) FROM ins)", now, now, now).Scan(&events, &deliveries)
		return events, deliveries, err
	}
	var events, deliveries int64
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		// The insert takes SQLite's write lock first: no event can commit
		// between it and the update, which marks the same batch.
		res, err := tx.ExecContext(ctx, fmt.Sprintf(insert, "stratum_events", "WHERE e.id IN ("+batch+")"), now, now, now)
		if err != nil {
			return err
		}
		deliveries, _ = res.RowsAffected()
		if res, err = tx.ExecContext(ctx, "UPDATE stratum_events SET dispatched = true WHERE id IN ("+batch+")"); err != nil {
			return err
		}
		events, _ = res.RowsAffected()
		return nil
	})
	return int(events), int(deliveries), err
}

func (s *Store) Claim(ctx context.Context, now, lease int64, limit int) ([]webhooks.Claimed, error) {
	p := s.d.Placeholder
	var due int
	err := s.read.QueryRowContext(ctx, "SELECT 1 FROM stratum_deliveries WHERE status = 'pending' AND next_at <= "+p(1)+
		" AND lease_until < "+p(2)+" LIMIT 1", now, now).Scan(&due)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lock := ""
	if s.d.Name() == "postgres" {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	rows, err := s.write.QueryContext(ctx, "UPDATE stratum_deliveries SET lease_until = "+p(1)+" WHERE id IN ("+
		"SELECT d.id FROM stratum_deliveries d WHERE d.status = 'pending' AND d.next_at <= "+p(2)+" AND d.lease_until < "+p(3)+
		" AND d.id = (SELECT MIN(d2.id) FROM stratum_deliveries d2 WHERE d2.webhook_id = d.webhook_id AND d2.status = 'pending')"+
		" ORDER BY d.id LIMIT "+p(4)+lock+") RETURNING id, webhook_id, event_id, attempts", now+lease, now, now, limit)
	claimed, err := all(rows, err, func(r scanner) (*webhooks.Claimed, error) {
		var c webhooks.Claimed
		return &c, r.Scan(&c.ID, &c.WebhookID, &c.EventID, &c.Attempts)
	})
	if err != nil {
		return nil, err
	}
	out := claimed[:0]
	for _, c := range claimed {
		w, err := s.Webhook(ctx, c.WebhookID)
		if err != nil {
			return nil, err
		}
		var payload string
		err = s.read.QueryRowContext(ctx, "SELECT event, payload FROM stratum_events WHERE id = "+p(1), c.EventID).Scan(&c.Event, &payload)
		if w == nil || err == sql.ErrNoRows { // deleted meanwhile: nothing to send
			_ = s.Finish(ctx, c.ID, webhooks.Outcome{Status: "failed", Attempts: c.Attempts, LastError: "webhook or event removed", At: now})
			continue
		}
		if err != nil {
			return nil, err
		}
		c.Webhook, c.Payload = *w, []byte(payload)
		out = append(out, c)
	}
	return out, nil
}

func (s *Store) Finish(ctx context.Context, id int64, o webhooks.Outcome) error {
	p := s.d.Placeholder
	_, err := s.write.ExecContext(ctx, "UPDATE stratum_deliveries SET status = "+p(1)+", attempts = "+p(2)+", next_at = "+p(3)+
		", lease_until = 0, last_status = "+p(4)+", last_error = "+p(5)+", updated_at = "+p(6)+" WHERE id = "+p(7),
		o.Status, o.Attempts, o.NextAt, o.LastStatus, truncate(o.LastError, 1000), o.At, id)
	return err
}

func (s *Store) Deliveries(ctx context.Context, webhookID int64, limit int) ([]webhooks.Delivery, error) {
	p := s.d.Placeholder
	rows, err := s.read.QueryContext(ctx, "SELECT d.id, d.webhook_id, d.event_id, COALESCE(e.event, ''), d.status, d.attempts, d.last_status, "+
		"d.last_error, d.next_at, d.created_at, d.updated_at FROM stratum_deliveries d LEFT JOIN stratum_events e ON e.id = d.event_id "+
		"WHERE d.webhook_id = "+p(1)+" ORDER BY d.id DESC LIMIT "+p(2), webhookID, limit)
	out, err := all(rows, err, func(r scanner) (*webhooks.Delivery, error) {
		var d webhooks.Delivery
		return &d, r.Scan(&d.ID, &d.WebhookID, &d.EventID, &d.Event, &d.Status, &d.Attempts, &d.LastStatus, &d.LastError,
			&d.NextAt, &d.CreatedAt, &d.UpdatedAt)
	})
	if out == nil && err == nil {
		out = []webhooks.Delivery{}
	}
	return out, err
}

func (s *Store) Prune(ctx context.Context, before int64) error {
	p := s.d.Placeholder
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM stratum_deliveries WHERE status <> 'pending' AND updated_at < "+p(1), before); err != nil {
			return err
		}
		// Undispatched events are old news too while no webhook exists
		// (Dispatch leaves them so).
		_, err := tx.ExecContext(ctx, "DELETE FROM stratum_events WHERE (dispatched = true OR NOT EXISTS (SELECT 1 FROM stratum_webhooks)) AND created_at < "+p(1)+
			" AND NOT EXISTS (SELECT 1 FROM stratum_deliveries d WHERE d.event_id = stratum_events.id)", before)
		return err
	})
}

func (s *Store) Backlog(ctx context.Context) (int64, error) {
	var n int64
	err := s.read.QueryRowContext(ctx, "SELECT COUNT(*) FROM stratum_deliveries WHERE status = 'pending'").Scan(&n)
	return n, err
}

// phs is the placeholders from..to, comma separated.
func (s *Store) phs(from, to int) string {
	ph := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		ph = append(ph, s.d.Placeholder(i))
	}
	return strings.Join(ph, ", ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// inTx runs fn in one write transaction.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
