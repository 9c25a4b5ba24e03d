package strapiimport

import (
	"fmt"
	"io"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress reports the rows written. On a terminal, a bar per step
// (vbauerster/mpb); otherwise plain lines: one when a step starts, then at
// most one every few seconds, and one when it ends.
type progress struct {
	w          io.Writer
	bars       *mpb.Progress
	bar        *mpb.Bar
	label      string
	total, n   int
	last, from time.Time
	every      time.Duration
}

func newProgress(w io.Writer, bar bool) *progress {
	p := &progress{w: w, every: 2 * time.Second}
	if w != nil && bar {
		p.bars = mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	}
	return p
}

func (p *progress) start(label string, total int) {
	p.label, p.total, p.n = label, total, 0
	p.from, p.last = time.Now(), time.Now()
	if p.w == nil || total == 0 {
		return
	}
	if p.bars != nil {
		p.bar = p.bars.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name(label, decor.WCSyncSpaceR), decor.CountersNoUnit("%d/%d")),
			mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.Elapsed(decor.ET_STYLE_GO)))
		return
	}
	fmt.Fprintf(p.w, "import: %s: %d to write\n", label, total)
}

func (p *progress) add(n int) {
	p.n += n
	switch {
	case p.w == nil:
	case p.bar != nil:
		p.bar.IncrBy(n)
	case time.Since(p.last) >= p.every && p.n < p.total:
		p.last = time.Now()
		fmt.Fprintf(p.w, "import: %s: %d/%d (%d%%)\n", p.label, p.n, p.total, p.n*100/max(p.total, 1))
	}
}

func (p *progress) finish() {
	switch {
	case p.w == nil || p.total == 0:
	case p.bar != nil:
		p.bar.SetTotal(int64(p.n), true) // rows skipped end the bar too
		p.bar = nil
	default:
		fmt.Fprintf(p.w, "import: %s: %d written in %s\n", p.label, p.n, time.Since(p.from).Round(time.Millisecond))
	}
}

// done waits for the bars to be drawn for the last time.
func (p *progress) done() {
	if p.bars != nil {
		if p.bar != nil { // a step that failed: its bar ends where it stopped
			p.bar.Abort(false)
			p.bar = nil
		}
		p.bars.Wait()
	}
}
