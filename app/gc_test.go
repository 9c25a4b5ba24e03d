package app

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	for _, c := range []struct {
		gogc string
		want int
	}{{"", ServerGCPercent}, {"50", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		TuneGC(func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q: the collector's target is %d, want %d", c.gogc, got, c.want)
		}
	}
}
