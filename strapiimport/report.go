package strapiimport

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// Report says what an import did.
type Report struct {
	// Counts are the rows written per kind ("api::article.article",
	// "files", "users", ...).
	Counts map[string]int
	// Skipped lists what was not imported, and why.
	Skipped []string
	// Warnings are rows imported with a change (a value kept as read
	// although it does not satisfy the schema, ...).
	Warnings []string
	Took     time.Duration
}

func (r *Report) skip(format string, args ...any) {
	r.Skipped = append(r.Skipped, fmt.Sprintf(format, args...))
}

func (r *Report) warn(format string, args ...any) {
	if len(r.Warnings) < 200 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
	} else if len(r.Warnings) == 200 {
		r.Warnings = append(r.Warnings, "(more warnings left out)")
	}
}

// Write prints the report.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "Imported in %s:\n", r.Took.Round(time.Millisecond))
	keys := make([]string, 0, len(r.Counts))
	for k := range r.Counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-40s %d\n", k, r.Counts[k])
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "Skipped (%d):\n", len(r.Skipped))
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "Warnings (%d):\n", len(r.Warnings))
		for _, s := range r.Warnings {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}
