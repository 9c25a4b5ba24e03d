package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// maxAnswerBytes is as much of a receiver's answer as is read: the answer
// is not used, and a receiver must not make a node read without end.
const maxAnswerBytes = 64 << 10

// Run delivers until ctx ends: new events become deliveries, due
// deliveries are claimed and sent, old ones are pruned.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Poll)
	defer t.Stop()
	lastPrune := time.Time{}
	for {
		s.Step(ctx)
		if time.Since(lastPrune) > time.Hour {
			if err := s.st.Prune(ctx, s.now()-s.cfg.Retention.Milliseconds()); err != nil && ctx.Err() == nil {
				s.cfg.Log.Warn("webhooks: prune", "err", err)
			}
			lastPrune = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Step dispatches new events and sends the due deliveries once (Run's
// loop body; tests call it to go at their pace).
func (s *Service) Step(ctx context.Context) {
	if _, err := s.st.Dispatch(ctx, s.now()); err != nil {
		if ctx.Err() == nil {
			s.cfg.Log.Warn("webhooks: dispatch", "err", err)
		}
		return
	}
	for {
		claimed, err := s.st.Claim(ctx, s.now(), s.cfg.Lease.Milliseconds(), s.cfg.Concurrency)
		if err != nil {
			if ctx.Err() == nil {
				s.cfg.Log.Warn("webhooks: claim", "err", err)
			}
			return
		}
		if len(claimed) == 0 {
			return
		}
		var wg sync.WaitGroup
		for _, c := range claimed {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.attempt(ctx, c)
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return
		}
	}
}

// attempt sends one delivery and records its outcome.
func (s *Service) attempt(ctx context.Context, c Claimed) {
	status, err := s.send(ctx, c.Webhook, c.Event, c.Payload)
	if ctx.Err() != nil {
		return // shutting down: the lease runs out and another attempt follows
	}
	o := Outcome{Attempts: c.Attempts + 1, LastStatus: status, At: s.now()}
	switch {
	case err == nil && status >= 200 && status < 300:
		o.Status = "delivered"
	case o.Attempts >= s.cfg.MaxAttempts:
		o.Status = "failed"
	default:
		o.Status = "pending"
		o.NextAt = o.At + s.retryDelay(o.Attempts).Milliseconds()
	}
	if err != nil {
		o.LastError = err.Error()
	} else if o.Status != "delivered" {
		o.LastError = fmt.Sprintf("the receiver answered %d", status)
	}
	if o.Status == "failed" {
		s.cfg.Log.Warn("webhooks: delivery given up", "webhook", c.Webhook.ID, "event", c.Event, "attempts", o.Attempts, "err", o.LastError)
	}
	if err := s.st.Finish(ctx, c.ID, o); err != nil {
		s.cfg.Log.Warn("webhooks: record delivery", "delivery", c.ID, "err", err)
	}
}

func (s *Service) retryDelay(failures int) time.Duration {
	d := s.cfg.FirstRetry
	for i := 1; i < failures && d < s.cfg.MaxRetryDelay; i++ {
		d *= 2
	}
	return min(d, s.cfg.MaxRetryDelay)
}

// send POSTs a payload to a webhook: Strapi's headers (X-Strapi-Event),
// the default and the webhook's own headers, and with a secret an
// HMAC-SHA256 signature of the timestamp and the body.
func (s *Service) send(ctx context.Context, w Webhook, event string, payload []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(payload))
	if err != nil {
		return 0, err
	}
	for k, v := range s.cfg.DefaultHeaders {
		req.Header.Set(k, v)
	}
	for k, v := range w.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Strapi-Event", event)
	req.Header.Set("User-Agent", "Stratum-Webhooks")
	if w.Secret != "" {
		req.Header.Set("X-Stratum-Signature", Sign(w.Secret, s.cfg.Now(), payload))
	}
	res, err := s.cfg.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, maxAnswerBytes))
	return res.StatusCode, nil
}

// Sign is the X-Stratum-Signature of a delivery: `t=<unix seconds>,
// v1=<hex HMAC-SHA256 of "<t>.<body>">`. A receiver recomputes it with
// the secret and refuses an old t, so a captured delivery cannot be
// replayed later.
func Sign(secret string, at time.Time, body []byte) string {
	t := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "t=" + t + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// TriggerResult is the answer of POST /admin/webhooks/:id/trigger.
type TriggerResult struct {
	StatusCode int    `json:"statusCode"`
	Message    string `json:"message,omitempty"`
}

// Trigger sends a test event (`trigger-test`) to a webhook at once and
// says what it answered, as Strapi's admin does.
func (s *Service) Trigger(ctx context.Context, id int64) (*TriggerResult, error) {
	w, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	payload, _ := json.Marshal(map[string]string{"event": "trigger-test",
		"createdAt": s.cfg.Now().UTC().Format("2006-01-02T15:04:05.000Z")})
	status, err := s.send(ctx, *w, "trigger-test", payload)
	if err != nil {
		return &TriggerResult{StatusCode: 0, Message: err.Error()}, nil
	}
	return &TriggerResult{StatusCode: status}, nil
}
