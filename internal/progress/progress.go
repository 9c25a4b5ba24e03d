// Package progress reports the progress of long work (imports, exports):
// a bar per step on a terminal (vbauerster/mpb), otherwise plain lines: one
// when a step starts, then at most one every few seconds, and one when it
// ends.
package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Progress reports the rows written by the steps of one piece of work.
// A nil writer reports nothing.
type Progress struct {
	w          io.Writer
	prefix     string
	bars       *mpb.Progress
	bar        *mpb.Bar
	label      string
	total, n   int
	last, from time.Time
	every      time.Duration
}

// New reports to w; bar draws bars (w is a terminal); prefix starts every
// line ("import", "export").
func New(w io.Writer, bar bool, prefix string) *Progress {
	p := &Progress{w: w, prefix: prefix, every: 2 * time.Second}
	if w != nil && bar {
		p.bars = mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))
	}
	return p
}

// Start begins a step of total rows.
func (p *Progress) Start(label string, total int) {
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
	fmt.Fprintf(p.w, "%s: %s: %d to write\n", p.prefix, label, total)
}

// Add counts n more rows of the step.
func (p *Progress) Add(n int) {
	p.n += n
	switch {
	case p.w == nil:
	case p.bar != nil:
		p.bar.IncrBy(n)
	case time.Since(p.last) >= p.every && p.n < p.total:
		p.last = time.Now()
		fmt.Fprintf(p.w, "%s: %s: %d/%d (%d%%)\n", p.prefix, p.label, p.n, p.total, p.n*100/max(p.total, 1))
	}
}

// Finish ends the step.
func (p *Progress) Finish() {
	switch {
	case p.w == nil || p.total == 0:
	case p.bar != nil:
		p.bar.SetTotal(int64(p.n), true) // rows skipped end the bar too
		p.bar = nil
	default:
		fmt.Fprintf(p.w, "%s: %s: %d written in %s\n", p.prefix, p.label, p.n, time.Since(p.from).Round(time.Millisecond))
	}
}

// Done waits for the bars to be drawn for the last time.
func (p *Progress) Done() {
	if p.bars != nil {
		if p.bar != nil { // a step that failed: its bar ends where it stopped
			p.bar.Abort(false)
			p.bar = nil
		}
		p.bars.Wait()
	}
}
