package strapiimport

import (
	"fmt"
	"io"
	"time"
)

// progress reports the rows written: a line when a step starts, then at
// most one every few seconds, and one when it ends.
type progress struct {
	w          io.Writer
	bar        bool
	label      string
	total, n   int
	last, from time.Time
}

func newProgress(w io.Writer, bar bool) *progress { return &progress{w: w, bar: bar} }

func (p *progress) start(label string, total int) {
	p.label, p.total, p.n = label, total, 0
	p.from, p.last = time.Now(), time.Now()
	if p.w != nil && total > 0 {
		fmt.Fprintf(p.w, "import: %s: %d to write\n", label, total)
	}
}

func (p *progress) add(n int) {
	p.n += n
	if p.w != nil && time.Since(p.last) >= 2*time.Second && p.n < p.total {
		p.last = time.Now()
		fmt.Fprintf(p.w, "import: %s: %d/%d (%d%%)\n", p.label, p.n, p.total, p.n*100/max(p.total, 1))
	}
}

func (p *progress) finish() {
	if p.w != nil && p.total > 0 {
		fmt.Fprintf(p.w, "import: %s: %d written in %s\n", p.label, p.n, time.Since(p.from).Round(time.Millisecond))
	}
}

func (p *progress) done() {}
