// Package tabfiletest holds what the importers' tests check the same way.
package tabfiletest

import (
	"strings"
	"testing"

	"locator/internal/tabfile"
)

// WantErrors checks an import's refused rows: failed of them, listed in
// errs, exactly the lines of want, each message holding want's text.
func WantErrors(t testing.TB, failed int, errs []tabfile.RowError, want map[int]string) {
	t.Helper()
	if failed != len(want) || len(errs) != len(want) {
		t.Errorf("%d rows failed, want %d: %+v", failed, len(want), errs)
	}
	for _, e := range errs {
		if w, ok := want[e.Line]; !ok || !strings.Contains(e.Message, w) {
			t.Errorf("line %d: %q, want %q", e.Line, e.Message, w)
		}
	}
}
