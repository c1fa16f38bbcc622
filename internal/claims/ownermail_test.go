package claims_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// A look-alike claim reaches the store's owner in the day's digest (its
// submission, its rejection) and at its approval (the request for
// consent); none of those mails carries a word the claimant typed (a link
// hidden in the address, website or hours, the claimant's own casing of
// the name), only fixed text, the store's published data and the link to
// the store dashboard.
func TestOwnerMailCarriesNoClaimantText(t *testing.T) {
	t.Parallel()
	eachOwned(t, func(t *testing.T, ctx context.Context, d *db.DB, o owned) {
		var before int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM outbox").Scan(&before), "outbox")
		planted := []string{"evil.example", "phish.example", "hours.example", "lONE sTAR vAPES", "Call Mallory", "Apt 666"}
		submit := func(email, ip string) *claims.Claim {
			in := form()
			in.BusinessName, in.Email = "lONE sTAR vAPES", email
			in.Address1 = "Apt 666, confirm at https://evil.example/login"
			in.City, in.Website, in.WorkingHours = "Call Mallory", "https://phish.example/owner", "see http://hours.example"
			c, _, err := o.s.Submit(ctx, in, ip)
			dbtest.Must(t, err, "look-alike claim")
			if c.DuplicateOfStoreID != o.storeID {
				t.Fatalf("not matched: %+v", c)
			}
			return c
		}
		c1 := submit("mallory@example.com", "10.6.6.6")
		c2 := submit("eve@example.com", "10.7.7.7")
		_, err := o.s.Approve(ctx, c1.ID, "cli:mod", claims.Approval{})
		dbtest.Must(t, err, "approve")
		_, err = o.s.Reject(ctx, c2.ID, "cli:mod", "Not the owner")
		dbtest.Must(t, err, "reject")

		o.s.Now = func() time.Time { return time.Now().Add(24 * time.Hour) }
		_, err = o.s.SendDigests(ctx)
		dbtest.Must(t, err, "digest")

		rows := dbtest.Texts(t, d, "\x00", "SELECT subject, text_body, html_body FROM outbox WHERE to_addr = 'owner@example.com' AND id > $1 ORDER BY id", before)
		if len(rows) != 2 { // the approval's request for consent, then the digest of two submissions and a rejection
			t.Fatalf("owner's mails: %q", rows)
		}
		for _, m := range rows {
			for _, p := range planted {
				if strings.Contains(m, p) {
					t.Errorf("owner's mail carries the claimant's %q:\n%s", p, m)
				}
			}
			if !strings.Contains(m, "Store dashboard: http://locator.test/business\n") || !strings.Contains(m, `<a href="http://locator.test/business">`) {
				t.Errorf("no dashboard link:\n%s", m)
			}
		}
		if want := "Lone Star Vapes (100 Congress Ave, Austin 78701)"; !strings.Contains(rows[0], want) || strings.Count(rows[1], want) != 2*3 { // text and HTML
			t.Errorf("the store's published data missing (%q):\n%s\n%s", want, rows[0], rows[1])
		}
		if !strings.Contains(rows[1], "Reason: Not the owner") {
			t.Errorf("the moderator's reason missing:\n%s", rows[1])
		}
	})
}
