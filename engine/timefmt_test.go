package engine

import (
	"testing"
	"time"
)

// TestAppendTimestamp: the hand-written formatter writes what
// time.Format(timeLayout) writes, for any zone, rounding down to the
// millisecond, and years outside 0-9999 fall back to Format.
func TestAppendTimestamp(t *testing.T) {
	oslo := time.FixedZone("x", 3600+1800)
	for _, tm := range []time.Time{
		time.Date(2026, 11, 26, 10, 5, 9, 123456789, time.UTC),
		time.Date(1999, 1, 2, 3, 4, 5, 999999999, oslo),
		time.Date(2000, 2, 29, 23, 59, 59, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1000000, time.UTC),
		time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		{},
		time.Unix(0, 0),
	} {
		if got, want := string(appendTimestamp(nil, tm)), tm.UTC().Format(timeLayout); got != want {
			t.Errorf("%v: %s, want %s", tm, got, want)
		}
	}
}

func BenchmarkAppendTimestamp(b *testing.B) {
	tm := time.Date(2026, 11, 26, 10, 5, 9, 123456789, time.UTC)
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = appendTimestamp(buf[:0], tm)
	}
}
