package claims_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"locator/internal/apperr"
	"locator/internal/claims"
	"locator/internal/claims/claimstest"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/schedule"
	"locator/internal/search"
	"locator/internal/stores"
)

func newService(d *db.DB) *claims.Service {
	s := claimstest.New(d, stores.NewRepo(d), slog.New(slog.NewTextHandler(io.Discard, nil)))
	s.PublicURL = "http://locator.test"
	return s
}

// eachService runs fn on each engine with newService's claims service.
func eachService(t *testing.T, fn func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		fn(t, context.Background(), d, newService(d))
	})
}

func form() claims.Input {
	return claims.Input{BusinessName: "Lone Star Vapes", Email: "Owner@Example.com", Phone: "+1 512 555 0100", Country: "United States",
		State: "TX", Address1: "100 Congress Ave", City: "Austin", PostalCode: "78701", Website: "lonestarvapes.example",
		WorkingHours: "Mon-Fri 9am-9pm, Sat 10-6, Sun closed", Category: "Vape shop"}
}

func TestSubmitValidation(t *testing.T) {
	t.Parallel()
	d := dbtest.SQLite(t)
	s := newService(d)
	ctx := context.Background()
	cases := []struct {
		mut  func(*claims.Input)
		want string
	}{
		{func(in *claims.Input) { in.BusinessName = "  " }, "Business name is required"},
		{func(in *claims.Input) { in.Email = "" }, "Email is required"},
		{func(in *claims.Input) { in.Email = "owner.example.com" }, "@"},
		{func(in *claims.Input) { in.Phone = "" }, "Phone is required"},
		{func(in *claims.Input) { in.Phone = "call me" }, "Phone may contain"},
		{func(in *claims.Input) { in.Country = "" }, "Country is required"},
		{func(in *claims.Input) { in.City = "" }, "City is required"},
		{func(in *claims.Input) { in.PostalCode = "" }, "Postal code is required"},
		{func(in *claims.Input) { in.Address1 = "" }, "Address is required"},
		{func(in *claims.Input) { in.BusinessName = strings.Repeat("x", 256) }, "at most 255"},
		{func(in *claims.Input) { in.WorkingHours = strings.Repeat("x", 1001) }, "at most 1000"},
		{func(in *claims.Input) { in.Website = "javascript:alert(1)" }, "Website"},
		{func(in *claims.Input) { in.Website = "not a site" }, "Website"},
	}
	for _, c := range cases {
		in := form()
		c.mut(&in)
		if _, _, err := s.Submit(ctx, in, "127.0.0.1"); apperr.CodeOf(err) != apperr.Invalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", in, err, c.want)
		}
	}
	// Optional fields may be empty; scripts are kept as text.
	in := form()
	in.State, in.Website, in.WorkingHours, in.Category = "", "", "", ""
	in.BusinessName = `<script>alert("x")</script> Vapes`
	c, created, err := s.Submit(ctx, in, "127.0.0.1")
	dbtest.Must(t, err, "minimal claim")
	if !created || c.BusinessName != in.BusinessName || c.Status != claims.Pending || c.Email != "owner@example.com" {
		t.Fatalf("%+v", c)
	}
}

func TestClaimToPublishedStore(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		c, created, err := s.Submit(ctx, form(), "10.0.0.1")
		dbtest.Must(t, err, "submit")
		again, created2, err := s.Submit(ctx, form(), "10.0.0.1") // a retry
		dbtest.Must(t, err, "resubmit")
		if !created || created2 || again.ID != c.ID || c.Website != "https://lonestarvapes.example" {
			t.Fatalf("dedupe: %+v %v / %+v %v", c, created, again, created2)
		}
		pending, err := s.List(ctx, claims.Pending, 0)
		dbtest.Must(t, err, "list")
		if len(pending) != 1 || pending[0].ID != c.ID {
			t.Fatalf("pending: %+v", pending)
		}
		// Nothing is published before approval.
		sr := stores.NewRepo(d)
		if n, _ := sr.Count(ctx); n != 0 {
			t.Fatalf("%d stores before approval", n)
		}
		// The owner's business account, its mailbox proven: the approval links the store to it.
		provenAccount(t, d, "owner@example.com", "owner-pass-1")
		approved, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{})
		dbtest.Must(t, err, "approve")
		if approved.Status != claims.Approved || approved.StoreID == 0 || approved.DecidedBy != "mod@example.com" || approved.DecidedAt == nil {
			t.Fatalf("approved: %+v", approved)
		}
		if _, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{}); apperr.CodeOf(err) != apperr.Conflict {
			t.Fatalf("approve twice: %v", err)
		}
		st, err := sr.Get(ctx, approved.StoreID)
		dbtest.Must(t, err, "store")
		if st.Status != stores.Published || st.TimeZone != "America/Chicago" || st.GeoPrecision != stores.PrecisionAddress || st.Latitude != claimstest.Congress[0] || st.CountryCode != "US" ||
			len(st.WorkingHours) != 7 || st.WorkingHours[0].Start != "" || st.WorkingHours[1].Start != "09:00" || st.WorkingHours[1].End != "21:00" ||
			st.WorkingHours[6].End != "18:00" || st.Hours != form().WorkingHours || st.Website != "https://lonestarvapes.example" {
			t.Fatalf("published store: %+v", st)
		}
		// The search index picks it up near the address.
		ix := search.NewIndex()
		sy := search.NewSyncer(sr, ix, search.SnapshotAuto, slog.New(slog.NewTextHandler(io.Discard, nil)))
		dbtest.Must(t, sy.Load(ctx), "load")
		q := search.Query{Latitude: 30.27, Longitude: -97.74, RadiusMiles: 5}
		dbtest.Must(t, q.Validate(), "query")
		if hits, _ := ix.Nearest(q); len(hits) != 1 || hits[0].ID == 0 {
			t.Fatalf("search near the address: %+v", hits)
		}
		// A second claim for the same store is flagged, and rejected: nothing new is published.
		in := form()
		in.Email = "someone-else@example.com"
		c2, _, err := s.Submit(ctx, in, "10.0.0.2")
		dbtest.Must(t, err, "second claim")
		if c2.DuplicateOfStoreID != approved.StoreID {
			t.Fatalf("look-alike not flagged: %+v", c2)
		}
		if _, err := s.Reject(ctx, c2.ID, "mod@example.com", " "); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("reject without reason: %v", err)
		}
		rejected, err := s.Reject(ctx, c2.ID, "mod@example.com", "Already listed")
		dbtest.Must(t, err, "reject")
		if rejected.Status != claims.Rejected || rejected.RejectReason != "Already listed" {
			t.Fatalf("rejected: %+v", rejected)
		}
		if n, _ := sr.Count(ctx); n != 1 {
			t.Fatalf("%d stores after a rejection", n)
		}
		// The owners were emailed through the outbox, and every action audited.
		mails := dbtest.Texts(t, d, ": ", "SELECT to_addr, subject FROM outbox ORDER BY id")
		// The owner hears of the look-alike claim, its coming and its
		// rejection, in the day's digest once the day is over.
		if len(mails) != 2 || mails[0] != "owner@example.com: Your store claim was approved" || mails[1] != "someone-else@example.com: Your store claim was not approved" {
			t.Fatalf("mails: %v", mails)
		}
		s.Now = func() time.Time { return time.Now().Add(24 * time.Hour) }
		n, err := s.SendDigests(ctx)
		dbtest.Must(t, err, "digests")
		digest := dbtest.Texts(t, d, ": ", "SELECT to_addr, subject, text_body FROM outbox WHERE id > 2 ORDER BY id")
		if n != 1 || len(digest) != 1 || !strings.HasPrefix(digest[0], "owner@example.com: Claims on your stores on ") ||
			!strings.Contains(digest[0], fmt.Sprintf("- Claim #%d was submitted", c2.ID)) || !strings.Contains(digest[0], "was rejected by a moderator. Nothing was changed. Reason: Already listed") {
			t.Fatalf("digest: %d %q", n, digest)
		}
		// The approval mail links to the store dashboard.
		var text, htmlBody string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT text_body, html_body FROM outbox WHERE subject = 'Your store claim was approved'").Scan(&text, &htmlBody), "approval mail")
		if !strings.Contains(text, "\nhttp://locator.test/business\n") || !strings.Contains(htmlBody, `<a href="http://locator.test/business">`) {
			t.Fatalf("no dashboard link in the approval mail:\n%s\n%s", text, htmlBody)
		}
		audit, err := s.Audit(ctx, 0)
		dbtest.Must(t, err, "audit")
		if len(audit) != 3 || audit[0].Action != "claim.reject" || audit[1].Action != "claim.approve" || audit[1].Actor != "mod@example.com" ||
			!strings.Contains(string(audit[1].Details), `"store_id"`) || audit[2].Action != "store.link" || !strings.Contains(string(audit[2].Details), `"owner@example.com"`) {
			t.Fatalf("audit: %+v", audit)
		}
	})
}

func TestApproveNeedsAPlace(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		in := form()
		in.PostalCode = "00000"
		c, _, err := s.Submit(ctx, in, "")
		dbtest.Must(t, err, "submit")
		if _, err := s.Approve(ctx, c.ID, "m", claims.Approval{}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("ungeocodable approve: %v", err)
		}
		lat, lon := 30.3, -97.7
		if _, err := s.Approve(ctx, c.ID, "m", claims.Approval{Latitude: &lat}); apperr.CodeOf(err) != apperr.Invalid {
			t.Fatalf("half a placement: %v", err)
		}
		got, err := s.Approve(ctx, c.ID, "m", claims.Approval{Latitude: &lat, Longitude: &lon})
		dbtest.Must(t, err, "approve with coordinates")
		st, _ := stores.NewRepo(d).Get(ctx, got.StoreID)
		if st.Latitude != lat || st.GeoPrecision != "exact" {
			t.Fatalf("%+v", st)
		}
	})
}

// The approval keeps what the free-text hours say, and an approval that
// updates an existing store keeps its other special dates.
func TestApprovalKeepsSpecialHours(t *testing.T) {
	t.Parallel()
	eachService(t, func(t *testing.T, ctx context.Context, d *db.DB, s *claims.Service) {
		s.Now = func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
		in := form()
		in.WorkingHours = "Mon-Sat 9am-9pm, Thanksgiving closed, Dec 24 9am-2pm"
		c, _, err := s.Submit(ctx, in, "10.0.0.1")
		dbtest.Must(t, err, "submit")
		if v, err := s.View(ctx, c, false); err != nil || !v.HoursParsed {
			t.Fatal("the moderator is told the hours could not be read")
		}
		approved, err := s.Approve(ctx, c.ID, "mod@example.com", claims.Approval{})
		dbtest.Must(t, err, "approve")
		sr := stores.NewRepo(d)
		st, err := sr.Get(ctx, approved.StoreID)
		dbtest.Must(t, err, "store")
		if len(st.WorkingHours) != 6 || len(st.SpecialHours) != 2 || st.SpecialHours[0] != (schedule.SpecialHour{Date: "2026-11-26", Closed: true, Note: "Thanksgiving"}) ||
			st.SpecialHours[1].End != "14:00" || st.Hours != in.WorkingHours {
			t.Fatalf("published: %+v %+v", st.WorkingHours, st.SpecialHours)
		}
		// The business adds New Year's Day; a second claim for the same store
		// changes Christmas Eve only.
		st.SpecialHours = append(st.SpecialHours, schedule.SpecialHour{Date: "2027-01-01", Closed: true, Note: "New Year's Day"})
		dbtest.Must(t, sr.Update(ctx, st), "update")
		in.Email, in.WorkingHours = "other@example.com", "Dec 24 10am-1pm"
		c2, _, err := s.Submit(ctx, in, "10.0.0.2")
		dbtest.Must(t, err, "second claim")
		if c2.DuplicateOfStoreID != st.ID {
			t.Fatalf("not a duplicate: %+v", c2)
		}
		_, err = s.Approve(ctx, c2.ID, "mod@example.com", claims.Approval{Fields: []string{"hours"}})
		dbtest.Must(t, err, "approve the update")
		st, err = sr.Get(ctx, st.ID)
		dbtest.Must(t, err, "store")
		if len(st.WorkingHours) != 6 || len(st.SpecialHours) != 3 || st.SpecialHours[1].Date != "2026-12-24" || st.SpecialHours[1].Start != "10:00" ||
			st.SpecialHours[2].Note != "New Year's Day" {
			t.Fatalf("after the second approval: %+v %+v", st.WorkingHours, st.SpecialHours)
		}
	})
}
