package graphql

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
)

// Automatic persisted queries, as Apollo clients send them: the
// `persistedQuery` extension names a query by its SHA-256. A hash the
// server knows stands for its query; an unknown one is answered
// PERSISTED_QUERY_NOT_FOUND and the client sends the query with its hash,
// which is checked and kept. A query so named is then cacheable by GET.

type persistedQueries struct {
	mu sync.Mutex
	m  map[string]string
}

const persistedEntries = 1024

func (c *persistedQueries) get(h string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q, ok := c.m[h]
	return q, ok
}

func (c *persistedQueries) put(h, q string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	if len(c.m) >= persistedEntries {
		for k := range c.m { // drop an arbitrary eighth: a client that meets a gap sends the query again
			delete(c.m, k)
			if len(c.m) < persistedEntries*7/8 {
				break
			}
		}
	}
	c.m[h] = q
}

// persisted resolves the persistedQuery extension of p: fills p.Query
// from a known hash, or checks and keeps the query sent with its hash.
func (s *Server) persisted(p *params) *gqlError {
	var ext struct {
		PersistedQuery *struct {
			Version int    `json:"version"`
			Hash    string `json:"sha256Hash"`
		} `json:"persistedQuery"`
	}
	if err := json.Unmarshal(p.Extensions, &ext); err != nil {
		e := requestError(codeBadRequest, "extensions must be a JSON object", nil)
		return &e
	}
	pq := ext.PersistedQuery
	if pq == nil {
		return nil
	}
	if pq.Version != 1 {
		e := requestError(codeBadRequest, "Unsupported persisted query version", nil)
		return &e
	}
	hash := strings.ToLower(pq.Hash)
	if len(hash) != 64 {
		e := requestError(codeBadRequest, "persistedQuery.sha256Hash must be 64 hex characters", nil)
		return &e
	}
	if p.Query == "" {
		q, ok := s.persistedQ.get(hash)
		if !ok {
			e := requestError("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound", nil)
			return &e
		}
		p.Query = q
		return nil
	}
	sum := sha256.Sum256([]byte(p.Query))
	if hex.EncodeToString(sum[:]) != hash {
		e := requestError(codeBadRequest, "provided sha does not match query", nil)
		return &e
	}
	s.persistedQ.put(hash, p.Query)
	return nil
}
