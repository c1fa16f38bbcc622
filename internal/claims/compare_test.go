package claims_test

import (
	"testing"
	"time"

	"locator/internal/claims"
	"locator/internal/stores"
)

// Issue #39, m29: the moderator's comparison called "+19175550166" and
// "9175550166" different phones; one number however written is the same.
func TestComparePhonesNormalised(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		store, claimed string
		same           bool
	}{
		{"+19175550166", "9175550166", true},
		{"(917) 555-0166", "+1 917-555-0166", true},
		{"+19175550166", "9175550167", false},
	} {
		st := &stores.Store{Name: "Bedford Smoke", PhoneNumber: c.store}
		cl := &claims.Claim{Input: claims.Input{BusinessName: "Bedford Smoke", Phone: c.claimed}}
		for _, f := range claims.Compare(st, cl, time.Now()) {
			if f.Field == "phone_number" && f.Same != c.same {
				t.Errorf("store %q, claim %q: same = %v, want %v", c.store, c.claimed, f.Same, c.same)
			}
		}
	}
}
