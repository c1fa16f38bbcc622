package business

import (
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// An owner's settings of each service (docs/product-rules.md, "Services"):
// own weekly hours and special dates, the last-order offset and a pause, published at once
// and audited like the other direct fields.

// ServiceView is one service's settings as the dashboard shows them.
type ServiceView struct {
	Hours []Hour `json:"hours"` // null: follows the store's hours
	// The service's own special dates, over its week (or the store's).
	SpecialHours     []SpecialHour `json:"special_hours"`
	LastOrderMinutes int           `json:"last_order_minutes"`
	PausedUntil      *time.Time    `json:"paused_until"`
	Note             *string       `json:"note"`
}

// ServicePatch replaces one service's settings; nil fields stay.
type ServicePatch struct {
	// Hours is the service's own week; an empty list follows the store's.
	Hours *[]Hour `json:"hours"`
	// SpecialHours replaces the service's special dates (the store's rules
	// and messages: special_hours in StorePatch).
	SpecialHours     *[]SpecialHour `json:"special_hours"`
	LastOrderMinutes *int           `json:"last_order_minutes"`
	// PausedUntil pauses the service: an RFC 3339 instant, a date
	// (YYYY-MM-DD: through that local date), "closing" (until the store
	// next closes), or "" to resume.
	PausedUntil *string `json:"paused_until"`
	Note        *string `json:"note"`
}

func servicesView(st *stores.Store) map[string]ServiceView {
	out := make(map[string]ServiceView, schedule.NumServices)
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		h := st.Services[k]
		v := ServiceView{SpecialHours: specialView(h.SpecialHours), LastOrderMinutes: h.LastOrder, PausedUntil: h.PausedUntil,
			Note: optString(h.PauseNote)}
		if len(h.Hours) > 0 {
			v.Hours = HoursView(h.Hours)
		}
		out[k.String()] = v
	}
	return out
}

// validateServices checks the names and hours of a patch's services (the
// rest is checked against the store when applied).
func validateServices(m map[string]ServicePatch) error {
	for name, sp := range m {
		if _, ok := schedule.ParseService(name); !ok {
			return apperr.Invalidf("Services: %q is not a service (delivery, curbside_pickup or online_order)", name)
		}
		if sp.Hours != nil {
			if _, err := ParseHours(*sp.Hours); err != nil {
				return err
			}
		}
		if sp.SpecialHours != nil {
			if _, err := parseSpecial(*sp.SpecialHours); err != nil {
				return err
			}
		}
		if sp.LastOrderMinutes != nil && (*sp.LastOrderMinutes < 0 || *sp.LastOrderMinutes > schedule.MaxLastOrder) {
			return apperr.Invalidf("Last order must be between 0 and %d minutes before closing", schedule.MaxLastOrder)
		}
	}
	return nil
}

// applyServices applies a patch's services to st at now and records what
// changed in diff ("services.delivery": old and new settings).
func applyServices(st *stores.Store, m map[string]ServicePatch, now time.Time, diff map[string]change) error {
	if len(m) == 0 {
		return nil
	}
	before := servicesView(st)
	for name, sp := range m {
		k, _ := schedule.ParseService(name) // validated
		h := st.Services[k]
		if sp.Hours != nil {
			hs, _ := ParseHours(*sp.Hours) // validated
			h.Hours = hs
		}
		if sp.SpecialHours != nil {
			h.SpecialHours, _ = parseSpecial(*sp.SpecialHours) // validated
		}
		if sp.LastOrderMinutes != nil {
			h.LastOrder = *sp.LastOrderMinutes
		}
		if sp.PausedUntil != nil {
			until, err := pauseEnd(st, strings.TrimSpace(*sp.PausedUntil), now)
			if err != nil {
				return err
			}
			h.PausedUntil = until
			if until == nil {
				h.PauseNote = ""
			}
		}
		if sp.Note != nil {
			h.PauseNote = strings.TrimSpace(*sp.Note)
		}
		st.Services[k] = h
	}
	if err := st.Validate(); err != nil {
		return err
	}
	after := servicesView(st)
	for name, a := range after {
		if !sameService(before[name], a) {
			diff["services."+name] = change{before[name], a}
		}
	}
	return nil
}

func sameService(a, b ServiceView) bool {
	if a.LastOrderMinutes != b.LastOrderMinutes || derefString(a.Note) != derefString(b.Note) ||
		(a.PausedUntil == nil) != (b.PausedUntil == nil) || (a.PausedUntil != nil && !a.PausedUntil.Equal(*b.PausedUntil)) ||
		len(a.Hours) != len(b.Hours) || !slices.EqualFunc(a.SpecialHours, b.SpecialHours, sameSpecial) {
		return false
	}
	for i := range a.Hours {
		if a.Hours[i].WeekDay != b.Hours[i].WeekDay || derefString(a.Hours[i].StartTime) != derefString(b.Hours[i].StartTime) ||
			derefString(a.Hours[i].EndTime) != derefString(b.Hours[i].EndTime) {
			return false
		}
	}
	return true
}

// pauseEnd reads a pause's end (see ServicePatch.PausedUntil); nil resumes.
func pauseEnd(st *stores.Store, v string, now time.Time) (*time.Time, error) {
	loc := stores.Zone(st.TimeZone)
	var t time.Time
	switch {
	case v == "":
		return nil, nil
	case v == "closing":
		s := stores.WithExceptions(st).Status(now.In(loc))
		if !s.Open || s.NextChange.IsZero() {
			return nil, apperr.Invalidf("The store is not open now: pause until a time or a date instead")
		}
		t = s.NextChange
	case len(v) == len("2006-01-02"):
		d, err := time.ParseInLocation("2006-01-02", v, loc)
		if err != nil {
			return nil, apperr.Invalidf("Pause until: %q is not a date (YYYY-MM-DD)", v)
		}
		t = d.AddDate(0, 0, 1) // through the whole date
	default:
		var err error
		if t, err = time.Parse(time.RFC3339, v); err != nil {
			return nil, apperr.Invalidf("Pause until: %q is not a time (RFC 3339), a date or \"closing\"", v)
		}
	}
	if !t.After(now) {
		return nil, apperr.Invalidf("Pause until must be in the future")
	}
	t = t.UTC()
	return &t, nil
}

func sameSpecial(a, b SpecialHour) bool {
	return a.Date == b.Date && a.Closed == b.Closed && derefString(a.StartTime) == derefString(b.StartTime) &&
		derefString(a.EndTime) == derefString(b.EndTime) && derefString(a.Note) == derefString(b.Note)
}
