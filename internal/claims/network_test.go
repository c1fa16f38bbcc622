package claims_test

import (
	"context"
	"fmt"
	"testing"

	"locator/internal/apperr"
	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Claims count per network, not per address: one /24 (or IPv6 /64) gets
// PerNetworkPerHour new claims an hour whatever addresses it uses, a retry
// of one of them is still answered, and another network is not held back.
func TestClaimsLimitedPerNetwork(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		claim := func(i int, ip string) (*claims.Claim, bool, error) {
			in := form()
			in.BusinessName, in.Email = fmt.Sprintf("Shop %d", i), fmt.Sprintf("owner%d@example.com", i)
			return s.Submit(ctx, in, ip)
		}
		for i := range claims.PerNetworkPerHour {
			_, _, err := claim(i, fmt.Sprintf("203.0.113.%d", i+1))
			dbtest.Must(t, err, "claim %d", i)
		}
		_, _, err := claim(100, "203.0.113.200")
		if e, ok := apperr.As(err); !ok || e.Code != apperr.TooMany || e.RetryAfter <= 0 {
			t.Fatalf("claim %d from the same /24: %v", claims.PerNetworkPerHour+1, err)
		}
		if c, created, err := claim(0, "203.0.113.1"); err != nil || created || c == nil {
			t.Fatalf("a retry of an accepted claim: %v %v %v", c, created, err)
		}
		_, _, err = claim(101, "203.0.114.1")
		dbtest.Must(t, err, "a claim from another /24")
		for i := range claims.PerNetworkPerHour {
			_, _, err := claim(200+i, fmt.Sprintf("2001:db8:1:2::%x", i+1))
			dbtest.Must(t, err, "IPv6 claim %d", i)
		}
		if _, _, err := claim(300, "[2001:db8:1:2:ffff::9]:443"); apperr.CodeOf(err) != apperr.TooMany {
			t.Fatalf("claim from the same /64: %v", err)
		}
	})
}
