package business_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"locator/internal/business"
	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// An owner sets delivery's own hours and last order, pauses it (for an
// hour, until closing, through a date) and resumes it; each change is
// published at once and audited with its old and new settings.
func TestOwnerServiceSettings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc, a, id := setup(t, d)
		week := []business.Hour{}
		for _, day := range []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"} {
			week = append(week, business.Hour{WeekDay: day, StartTime: ptr("00:00"), EndTime: ptr("00:00")})
		}
		yes := true
		_, err := svc.Update(ctx, a, id, business.Patch{WorkingHours: &week, Delivery: &yes})
		dbtest.Must(t, err, "store hours")

		own := []business.Hour{{WeekDay: "Monday", StartTime: ptr("11:00"), EndTime: ptr("20:00")}}
		thirty := 30
		res, err := svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{
			"delivery": {Hours: &own, LastOrderMinutes: &thirty}}})
		dbtest.Must(t, err, "delivery hours")
		if v := res.Store.Services["delivery"]; len(v.Hours) != 1 || v.LastOrderMinutes != 30 || v.PausedUntil != nil ||
			len(res.Published) != 1 || res.Published[0] != "services.delivery" {
			t.Fatalf("after hours: %+v %v", v, res.Published)
		}

		hour := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		res, err = svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{
			"delivery": {PausedUntil: &hour, Note: ptr("Driver out")}}})
		dbtest.Must(t, err, "pause an hour")
		if v := res.Store.Services["delivery"]; v.PausedUntil == nil || v.PausedUntil.Format(time.RFC3339) != hour || *v.Note != "Driver out" {
			t.Fatalf("paused: %+v", v)
		}
		doc, err := stores.NewRepo(d).PublishedDoc(ctx, id)
		dbtest.Must(t, err, "doc")
		if !strings.Contains(string(doc), `"delivery":{"offered":true,"available_now":false`) || !strings.Contains(string(doc), `"note":"Driver out"`) {
			t.Fatalf("the API does not show the pause: %s", doc)
		}
		var details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT details FROM audit_log WHERE action = 'store.update' AND store_id = $1 ORDER BY id DESC LIMIT 1", id).Scan(&details), "audit")
		var entry struct {
			Changes map[string]struct{ Old, New map[string]any } `json:"changes"`
		}
		dbtest.Must(t, json.Unmarshal([]byte(details), &entry), "details %s", details)
		if c := entry.Changes["services.delivery"]; c.Old["paused_until"] != nil || c.New["note"] != "Driver out" {
			t.Fatalf("audit: %s", details)
		}

		// Until closing: the store is open around the clock, so there is
		// no closing to pause until; through a date is the next local midnight.
		closing := "closing"
		if _, err := svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {PausedUntil: &closing}}}); err == nil {
			t.Fatal("paused until closing a store that never closes")
		}
		ny, _ := time.LoadLocation("America/New_York")
		date := time.Now().In(ny).AddDate(0, 0, 2).Format("2006-01-02")
		res, err = svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {PausedUntil: &date}}})
		dbtest.Must(t, err, "pause through a date")
		want, _ := time.ParseInLocation("2006-01-02", date, ny)
		if v := res.Store.Services["delivery"]; v.PausedUntil == nil || !v.PausedUntil.Equal(want.AddDate(0, 0, 1)) {
			t.Fatalf("paused through %s: %+v", date, v)
		}

		resume := ""
		res, err = svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {PausedUntil: &resume}}})
		dbtest.Must(t, err, "resume")
		if v := res.Store.Services["delivery"]; v.PausedUntil != nil || v.Note != nil || v.LastOrderMinutes != 30 {
			t.Fatalf("resumed: %+v", v)
		}

		for _, bad := range []map[string]business.ServicePatch{
			{"teleport": {LastOrderMinutes: &thirty}},
			{"delivery": {LastOrderMinutes: ptrInt(500)}},
			{"delivery": {PausedUntil: ptr("2001-01-01T00:00:00Z")}},
			{"delivery": {PausedUntil: ptr("soon")}},
		} {
			if _, err := svc.Update(ctx, a, id, business.Patch{Services: bad}); err == nil {
				t.Fatalf("accepted %+v", bad)
			}
		}
	})
}

func ptr(s string) *string { return &s }

func ptrInt(n int) *int { return &n }
