package claims_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"locator/internal/claims"
	"locator/internal/db"
	"locator/internal/db/dbtest"
)

// Claims on an owner's store reach the owner in one mail per day at most
// (docs/claims.md, "One mail a day"): five look-alike claims in a day are
// one digest listing five, sent once the day (UTC) is over, by whichever
// replica comes first and only once, from state kept in the database; the
// next day's claim is the next day's mail.
func TestClaimNoticesDigest(t *testing.T) {
	eachOwned(t, func(t *testing.T, ctx context.Context, d *db.DB, o owned) {
		day := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour) // tomorrow 00:00 UTC
		at := func(offset time.Duration) func() time.Time { return func() time.Time { return day.Add(offset) } }
		var before int
		dbtest.Must(t, d.QueryRow(ctx, "SELECT COUNT(*) FROM outbox").Scan(&before), "outbox")
		submit := func(s *claims.Service, i int) *claims.Claim {
			in := form()
			in.Email = fmt.Sprintf("stranger%d@example.com", i)
			c, _, err := s.Submit(ctx, in, fmt.Sprintf("10.%d.0.1", 20+i)) // another network each time
			dbtest.Must(t, err, "claim %d", i)
			if c.DuplicateOfStoreID != o.storeID {
				t.Fatalf("claim %d not matched: %+v", i, c)
			}
			return c
		}
		var first []int64
		for i := range 5 {
			o.s.Now = at(time.Duration(9+i) * time.Hour)
			first = append(first, submit(o.s, i).ID)
		}
		digests := func() []string {
			return dbtest.Texts(t, d, ": ", "SELECT to_addr, subject, text_body FROM outbox WHERE id > $1 ORDER BY id", before)
		}
		// Nothing goes during the day.
		o.s.Now = at(23*time.Hour + 59*time.Minute)
		if n, err := o.s.SendDigests(ctx); err != nil || n != 0 || len(digests()) != 0 {
			t.Fatalf("during the day: %d %v %q", n, err, digests())
		}
		// After midnight two replicas (two services, as after a restart:
		// nothing in memory) look at once: one mail in all.
		var wg sync.WaitGroup
		sent := make([]int, 2)
		for i := range 2 {
			r := newService(d)
			r.Now = at(24*time.Hour + 5*time.Minute)
			wg.Go(func() {
				n, err := r.SendDigests(ctx)
				if err != nil {
					t.Errorf("replica %d: %v", i, err)
				}
				sent[i] = n
			})
		}
		wg.Wait()
		got := digests()
		if sent[0]+sent[1] != 1 || len(got) != 1 {
			t.Fatalf("after the day: sent %v, mails %q", sent, got)
		}
		want := "owner@example.com: Claims on your stores on " + day.Format("Jan 2, 2006") + ": "
		if !strings.HasPrefix(got[0], want) || strings.Count(got[0], "\n- Claim #") != 5 || !strings.Contains(got[0], "5 claims concerned stores you own") {
			t.Fatalf("digest:\n%s", got[0])
		}
		for _, id := range first {
			if !strings.Contains(got[0], fmt.Sprintf("- Claim #%d was submitted; it matches your store #%d, Lone Star Vapes", id, o.storeID)) {
				t.Errorf("claim %d missing:\n%s", id, got[0])
			}
		}
		// Sent once: a later look sends nothing more.
		o.s.Now = at(25 * time.Hour)
		if n, err := o.s.SendDigests(ctx); err != nil || n != 0 {
			t.Fatalf("again: %d %v", n, err)
		}
		// The next day's claim is the next day's mail.
		next := submit(o.s, 5)
		o.s.Now = at(47 * time.Hour)
		if n, _ := o.s.SendDigests(ctx); n != 0 {
			t.Fatalf("the next day's digest went during it: %d", n)
		}
		o.s.Now = at(48*time.Hour + time.Minute)
		if n, err := o.s.SendDigests(ctx); err != nil || n != 1 {
			t.Fatalf("the next day: %d %v", n, err)
		}
		got = digests()
		if len(got) != 2 || strings.Count(got[1], "\n- Claim #") != 1 || !strings.Contains(got[1], fmt.Sprintf("- Claim #%d was submitted", next.ID)) ||
			!strings.Contains(got[1], "1 claim concerned stores you own") {
			t.Fatalf("next day's digest: %q", got)
		}
	})
}
