package app

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prevGC := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prevGC)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prevLimit)
	for _, c := range []struct {
		gogc, gomemlimit string
		want             int
		wantLimit        int64
	}{
		{"", "", ServerGCPercent, ServerMemoryLimit},
		{"50", "", 100, ServerMemoryLimit},
		{"off", "1GiB", 100, math.MaxInt64},
		{"", "1GiB", ServerGCPercent, math.MaxInt64},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		TuneGC(func(k string) string {
			switch k {
			case "GOGC":
				return c.gogc
			case "GOMEMLIMIT":
				return c.gomemlimit
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q: the collector's target is %d, want %d", c.gogc, got, c.want)
		}
		if got := debug.SetMemoryLimit(-1); got != c.wantLimit {
			t.Errorf("GOMEMLIMIT=%q: the memory limit is %d, want %d", c.gomemlimit, got, c.wantLimit)
		}
	}
}
