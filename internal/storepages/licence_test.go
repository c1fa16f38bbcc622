package storepages

import (
	"testing"

	"locator/internal/stores"
)

// An active licence whose expiry passed without a newer registry file is
// shown as expired from the next day, and is no longer a credential.
func TestLicenceExpiryJudgedOnTheDay(t *testing.T) {
	t.Parallel()
	expires := "2026-12-31"
	rec := stores.LicenceRecord{Licence: &stores.Licence{Status: "active", Jurisdiction: "New York City",
		Kind: "NYC Electronic Cigarette Retail Dealer", Number: "2091234", ExpiresOn: &expires, CheckedAt: "2026-11-24"}}
	last, next := licenceOf(rec, "2026-12-31"), licenceOf(rec, "2027-01-01")
	if !last.Active || last.Line != "Licence verified · NYC Electronic Cigarette Retail Dealer #2091234 · expires Dec 31, 2026 · source checked Nov 24, 2026" {
		t.Errorf("on its last day: %+v", last)
	}
	if next.Active || next.Line != "Licence expired on Dec 31, 2026 · NYC Electronic Cigarette Retail Dealer #2091234 · source checked Nov 24, 2026" {
		t.Errorf("the day after: %+v", next)
	}
	if last.key() == next.key() {
		t.Error("the cached page does not change with the line")
	}
	if credentialLD(rec, "2026-12-31") == nil || credentialLD(rec, "2027-01-01") != nil {
		t.Error("an expired licence is still a credential, or an active one is not")
	}
}
