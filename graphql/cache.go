package graphql

import (
	"sync"

	"github.com/graphql-go/graphql/language/ast"
)

// docCache keeps parsed and validated documents of one schema build:
// clients send the same few queries again and again, and parsing plus
// validation costs as much as running a small query. Validation does not
// depend on variables, so a document's verdict holds for every request.
type docCache struct {
	mu   sync.Mutex
	docs map[string]*preparedDoc
}

type preparedDoc struct {
	doc    *ast.Document
	nulls  map[int][]string
	status int
	errs   []gqlError // parse or validation failures, answered as they are
}

const (
	docCacheEntries = 512
	docCacheMaxLen  = 32 << 10 // longer documents are not kept
)

func (c *docCache) get(q string) *preparedDoc {
	if len(q) > docCacheMaxLen {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.docs[q]
}

func (c *docCache) put(q string, d *preparedDoc) {
	if len(q) > docCacheMaxLen {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.docs == nil {
		c.docs = map[string]*preparedDoc{}
	}
	if len(c.docs) >= docCacheEntries {
		for k := range c.docs { // drop an arbitrary eighth
			delete(c.docs, k)
			if len(c.docs) < docCacheEntries*7/8 {
				break
			}
		}
	}
	c.docs[q] = d
}
