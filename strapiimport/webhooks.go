package strapiimport

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/stratum-cms/stratum/errs"
	"github.com/stratum-cms/stratum/store"
	"github.com/stratum-cms/stratum/webhooks"
)

// webhooks imports Strapi's webhooks, checked as the admin API checks
// them; events Stratum does not send (releases, review workflows) are
// dropped with a warning.
func (im *importer) webhooks() error {
	if !im.src.Has("strapi_webhooks", "id", "url") {
		return nil
	}
	var hooks []*webhooks.Webhook
	now := time.Now().UnixMilli()
	err := im.src.Rows(im.ctx, "strapi_webhooks", nil, []string{"id"}, func(r map[string]any) error {
		id, _ := toInt(r["id"])
		body := map[string]any{"name": str(r["name"]), "url": str(r["url"]), "isEnabled": toBool(r["enabled"])}
		if h := jsonText(r["headers"]); h != nil {
			var headers map[string]any
			if json.Unmarshal([]byte(*h), &headers) == nil {
				body["headers"] = headers
			}
		}
		events := []any{}
		if e := jsonText(r["events"]); e != nil {
			var list []string
			_ = json.Unmarshal([]byte(*e), &list)
			for _, ev := range list {
				if slices.Contains(webhooks.Events, ev) {
					events = append(events, ev)
				} else {
					im.rep.warn("webhook %d (%s): event %s is not sent by Stratum: dropped", id, body["name"], ev)
				}
			}
		}
		body["events"] = events
		in, err := webhooks.ParseInput(body)
		if err != nil {
			im.rep.skip("webhook %d (%s): %s", id, body["name"], errs.From(err).Message)
			return nil
		}
		w := &webhooks.Webhook{ID: id, Name: in.Name, URL: in.URL, Headers: in.Headers, Events: in.Events, IsEnabled: true,
			CreatedAt: now, UpdatedAt: now}
		if in.IsEnabled != nil {
			w.IsEnabled = *in.IsEnabled
		}
		hooks = append(hooks, w)
		return nil
	})
	if err != nil {
		return err
	}
	if err := batch(im, "webhooks", hooks, func(tx *store.ImportTx, w *webhooks.Webhook) error { return tx.PutWebhook(w) }); err != nil {
		return err
	}
	im.rep.Counts["webhooks"] = len(hooks)
	return nil
}
