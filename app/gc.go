package app

import "runtime/debug"

// ServerGCPercent is the collector's target the server runs with unless
// GOGC is set. Go collects each time the heap grows by GOGC% over what
// the last collection kept; the server keeps little (about 10-20 MB) and
// a populated list allocates a few hundred KB, so at Go's default of 100
// the collector ran some 25 times a second under load and took a quarter
// of the server's CPU. 200 (session 7) halved that; 400 (session 10) gave
// populates another 10-20% for a peak of about 96 MB under full load
// instead of 72 (bench/README.md).
const ServerGCPercent = 400

// ServerMemoryLimit is the soft limit on the Go heap unless GOMEMLIMIT is
// set: below it the collector waits for ServerGCPercent of growth, near it
// it collects as often as needed (a limit never fails an allocation), so
// the higher target cannot let a burst of large answers or an import
// grow the heap five-fold without bound.
const ServerMemoryLimit = 512 << 20

// TuneGC sets ServerGCPercent and ServerMemoryLimit where the environment
// does not set GOGC and GOMEMLIMIT.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(ServerGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(ServerMemoryLimit)
	}
}
