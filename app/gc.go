package app

import "runtime/debug"

// ServerGCPercent is the collector's target the server runs with unless
// GOGC is set. Go collects each time the heap grows by GOGC% over what
// the last collection kept; the server keeps little (about 10 MB) and a
// list request allocates a few hundred KB, so at Go's default of 100 the
// collector ran some 25 times a second under load and took a quarter of
// the server's CPU. At 200 it runs half as often, for about 10-15 MB more
// memory under load (bench/README.md, session 7).
const ServerGCPercent = 200

// TuneGC sets ServerGCPercent when the environment does not set GOGC.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(ServerGCPercent)
	}
}
