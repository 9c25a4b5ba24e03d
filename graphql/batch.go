package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/stratum-cms/stratum/errs"
)

// batch runs a JSON array of operations (Apollo's batched HTTP requests)
// and answers the array of their results, in order. Each operation is
// checked and limited as a request of its own (its cost, depth, read
// budget); the batch as a whole is bounded by the body size and by
// maxBatch operations. Credentials are checked once, for all of them.
func (s *Server) batch(w http.ResponseWriter, r *http.Request, body []byte) {
	if s.cfg.maxBatch() < 0 {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "Batched requests are turned off: send one operation per request", nil))
		return
	}
	var ops []params
	if err := json.Unmarshal(body, &ops); err != nil {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "POST body is not a JSON array of operations: "+err.Error(), nil))
		return
	}
	if len(ops) == 0 {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest, "The batch holds no operation", nil))
		return
	}
	if len(ops) > s.cfg.maxBatch() {
		writeErrors(w, http.StatusBadRequest, requestError(codeBadRequest,
			fmt.Sprintf("The batch holds %d operations: the limit is %d", len(ops), s.cfg.maxBatch()), nil))
		return
	}
	principal, err := s.authn.Authenticate(r)
	if err != nil {
		writeRESTError(w, errs.From(err))
		return
	}
	var out bytes.Buffer
	out.WriteByte('[')
	for i := range ops {
		if i > 0 {
			out.WriteByte(',')
		}
		rec := &recorder{header: http.Header{}}
		s.run(rec, r, &ops[i], principal)
		out.Write(bytes.TrimSpace(rec.body.Bytes()))
	}
	out.WriteString("]\n")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
}

// recorder keeps one operation's answer of a batch in memory.
type recorder struct {
	header http.Header
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(int)             {}
