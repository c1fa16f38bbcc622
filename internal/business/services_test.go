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
	t.Parallel()
	eachOwner(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, a *business.Account, id int64) {
		openAllDayWithDelivery(t, svc, a, id)

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

// openAllDayWithDelivery makes the store open around the clock every day
// and offer delivery, so only the service's own settings decide it.
func openAllDayWithDelivery(t *testing.T, svc *business.Service, a *business.Account, id int64) {
	t.Helper()
	week := []business.Hour{}
	for _, day := range []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"} {
		week = append(week, business.Hour{WeekDay: day, StartTime: ptr("00:00"), EndTime: ptr("00:00")})
	}
	yes := true
	_, err := svc.Update(context.Background(), a, id, business.Patch{WorkingHours: &week, Delivery: &yes})
	dbtest.Must(t, err, "store hours")
}

// An owner gives delivery special dates of its own (closed today): they
// are published at once (the document's delivery is not available now
// while the store is open), audited, and checked with the store's special
// dates' rules and messages.
func TestOwnerServiceSpecialDates(t *testing.T) {
	t.Parallel()
	eachOwner(t, func(t *testing.T, ctx context.Context, d *db.DB, svc *business.Service, a *business.Account, id int64) {
		openAllDayWithDelivery(t, svc, a, id)

		ny, _ := time.LoadLocation("America/New_York")
		today := time.Now().In(ny).Format("2006-01-02")
		later := time.Now().In(ny).AddDate(0, 0, 3).Format("2006-01-02")
		dates := []business.SpecialHour{
			{Date: later, StartTime: ptr(" 12:00"), EndTime: ptr("14:00 ")},
			{Date: today, Closed: true, Note: ptr(" Van in the garage ")},
		}
		res, err := svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {SpecialHours: &dates}}})
		dbtest.Must(t, err, "delivery special dates")
		v := res.Store.Services["delivery"]
		if len(v.SpecialHours) != 2 || v.SpecialHours[0].Date != today || !v.SpecialHours[0].Closed || *v.SpecialHours[0].Note != "Van in the garage" ||
			*v.SpecialHours[1].StartTime != "12:00" || v.Hours != nil || len(res.Published) != 1 || res.Published[0] != "services.delivery" {
			t.Fatalf("after special dates: %+v %v", v, res.Published)
		}
		if len(res.Store.SpecialHours) != 0 || len(res.Store.Services["curbside_pickup"].SpecialHours) != 0 {
			t.Fatalf("the store's or another service's dates changed: %+v", res.Store)
		}
		doc, err := stores.NewRepo(d).PublishedDoc(ctx, id)
		dbtest.Must(t, err, "doc")
		if !strings.Contains(string(doc), `"open_now":true`) || !strings.Contains(string(doc), `"delivery":{"offered":true,"available_now":false`) {
			t.Fatalf("delivery is closed today, the store open: %s", doc)
		}
		var details string
		dbtest.Must(t, d.QueryRow(ctx, "SELECT details FROM audit_log WHERE action = 'store.update' AND store_id = $1 ORDER BY id DESC LIMIT 1", id).Scan(&details), "audit")
		if !strings.Contains(details, `"services.delivery"`) || !strings.Contains(details, "Van in the garage") {
			t.Fatalf("audit: %s", details)
		}

		// The same list again changes nothing; an empty one drops them.
		res, err = svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {SpecialHours: &dates}}})
		dbtest.Must(t, err, "same dates")
		if len(res.Published) != 0 {
			t.Fatalf("the same dates published %v", res.Published)
		}
		none := []business.SpecialHour{}
		res, err = svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {SpecialHours: &none}}})
		dbtest.Must(t, err, "no dates")
		if v := res.Store.Services["delivery"]; len(v.SpecialHours) != 0 || v.SpecialHours == nil {
			t.Fatalf("dates dropped: %+v", v)
		}

		// The store's special dates' messages, word for word.
		for _, c := range []struct {
			in   []business.SpecialHour
			want string
		}{
			{[]business.SpecialHour{{Date: "2026-13-01", Closed: true}}, `special_hours entry 1: date "2026-13-01" is not a date (YYYY-MM-DD, years 2000-2100)`},
			{[]business.SpecialHour{{Date: today}}, "special_hours entry 1: give startTime and endTime, or closed: true"},
			{[]business.SpecialHour{{Date: today, StartTime: ptr("10:00"), EndTime: ptr("14:00")}, {Date: today, StartTime: ptr("13:00"), EndTime: ptr("15:00")}},
				"special_hours entry 2: 13:00-15:00 overlaps another span on " + today},
			{[]business.SpecialHour{{Date: today, Closed: true, Note: ptr(strings.Repeat("x", 101))}}, "special_hours entry 1: note must be at most 100 characters"},
		} {
			_, err := svc.Update(ctx, a, id, business.Patch{Services: map[string]business.ServicePatch{"delivery": {SpecialHours: &c.in}}})
			_, storeErr := svc.Update(ctx, a, id, business.Patch{SpecialHours: &c.in})
			if err == nil || err.Error() != c.want || storeErr == nil || storeErr.Error() != c.want {
				t.Errorf("%+v: %v (the store's: %v), want %q", c.in, err, storeErr, c.want)
			}
		}
	})
}
