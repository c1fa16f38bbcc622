package claims

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// A claim whose name and postal code match a published store is about that
// store, which already has a face: its data, its position, maybe owners.
// Approving such a claim changes only the fields the moderator picks from a
// field-by-field comparison (docs/claims.md, "A claim on a store that is
// already listed"); the position stays unless the moderator places the
// store, and the geocoder's centre never replaces it.

// FieldComparison is one row of the comparison the moderator sees.
type FieldComparison struct {
	Field   string `json:"field"`
	Label   string `json:"label"`
	Current string `json:"current"`
	Claimed string `json:"claimed"`
	Same    bool   `json:"same"`
}

// CompareFields are the keys of the comparison, in its order (the approve
// call's "fields" names them). The service hours' rows are shown only for
// the services the claim gives hours for.
var CompareFields = []string{"name", "phone_number", "website", "address", "city", "state", "postal_code", "country", "hours",
	"delivery_hours", "curbside_pickup_hours", "online_order_hours"}

var fieldLabels = map[string]string{
	"name": "Name", "phone_number": "Phone", "website": "Website", "address": "Address", "city": "City",
	"state": "State", "postal_code": "Postal code", "country": "Country", "hours": "Hours",
	"delivery_hours": "Delivery hours", "curbside_pickup_hours": "Curbside pickup hours", "online_order_hours": "Online ordering hours",
}

// textFields are the fields of the comparison that are the same text in
// the claim and in the store: where each keeps it.
var textFields = map[string]struct {
	claim func(*Claim) *string
	store func(*stores.Store) *string
}{
	"name":         {func(c *Claim) *string { return &c.BusinessName }, func(st *stores.Store) *string { return &st.Name }},
	"phone_number": {func(c *Claim) *string { return &c.Phone }, func(st *stores.Store) *string { return &st.PhoneNumber }},
	"website":      {func(c *Claim) *string { return &c.Website }, func(st *stores.Store) *string { return &st.Website }},
	"address":      {func(c *Claim) *string { return &c.Address1 }, func(st *stores.Store) *string { return &st.Address }},
	"city":         {func(c *Claim) *string { return &c.City }, func(st *stores.Store) *string { return &st.City }},
	"state":        {func(c *Claim) *string { return &c.State }, func(st *stores.Store) *string { return &st.State }},
	"postal_code":  {func(c *Claim) *string { return &c.PostalCode }, func(st *stores.Store) *string { return &st.PostalCode }},
}

// claimedValue is the value field would take from claim c.
func claimedValue(c *Claim, field string) string {
	if f, ok := textFields[field]; ok {
		return *f.claim(c)
	}
	switch field {
	case "country":
		return countryName(c.Country)
	case "hours":
		return c.WorkingHours
	}
	if k, ok := serviceOfField(field); ok {
		return *c.ServiceTexts()[k]
	}
	return ""
}

func currentValue(st *stores.Store, field string) string {
	if f, ok := textFields[field]; ok {
		return *f.store(st)
	}
	switch field {
	case "country":
		return st.CountryName
	case "hours":
		if st.Hours != "" {
			return st.Hours
		}
		return weeklySummary(st.WorkingHours)
	}
	if k, ok := serviceOfField(field); ok {
		return weeklySummary(st.Services[k].Hours) // "": follows the store's hours
	}
	return ""
}

// weeklySummary writes weekly hours as text ("Mon 09:00-21:00; Sun closed")
// for a store that has no hours text.
func weeklySummary(hs []schedule.WorkingHour) string {
	parts := make([]string, 0, len(hs))
	for _, h := range hs {
		day := h.WeekDay.String()[:3]
		if h.Start == "" {
			parts = append(parts, day+" closed")
		} else {
			parts = append(parts, fmt.Sprintf("%s %s-%s", day, h.Start, h.End))
		}
	}
	return strings.Join(parts, "; ")
}

func sameValue(st *stores.Store, c *Claim, field string, now time.Time) bool {
	if k, ok := serviceOfField(field); ok {
		return sameServiceHours(st, c, k, now)
	}
	cur, claimed := strings.TrimSpace(currentValue(st, field)), strings.TrimSpace(claimedValue(c, field))
	switch field {
	case "country":
		if code := countryCode(c.Country); code != "ZZ" {
			return code == st.CountryCode
		}
		return strings.EqualFold(cur, claimed)
	case "name", "city", "state", "postal_code", "address":
		return strings.EqualFold(cur, claimed)
	case "phone_number":
		// "+19175550166" and "(917) 555-0166" are one number (stores.SamePhone).
		return stores.SamePhone(cur, claimed)
	}
	return cur == claimed
}

// Compare is the comparison of claim c with the store it matches at now.
func Compare(st *stores.Store, c *Claim, now time.Time) []FieldComparison {
	out := make([]FieldComparison, 0, len(CompareFields))
	for _, f := range CompareFields {
		if _, service := serviceOfField(f); service && claimedValue(c, f) == "" {
			continue
		}
		out = append(out, FieldComparison{Field: f, Label: fieldLabels[f], Current: currentValue(st, f),
			Claimed: claimedValue(c, f), Same: sameValue(st, c, f, now)})
	}
	return out
}

// checkPicked validates the fields a moderator picked: known keys, each
// once, and never a field the claim leaves empty (an empty claimed value
// would erase the store's).
func checkPicked(c *Claim, picked []string, now time.Time) ([]string, error) {
	var out []string
	for _, f := range picked {
		f = strings.TrimSpace(f)
		if !slices.Contains(CompareFields, f) {
			return nil, apperr.Invalidf("unknown field %q: pick from %s", f, strings.Join(CompareFields, ", "))
		}
		if strings.TrimSpace(claimedValue(c, f)) == "" {
			return nil, apperr.Invalidf("the claim has no %s to apply", strings.ToLower(fieldLabels[f]))
		}
		if _, service := serviceOfField(f); service && !readServiceHours(claimedValue(c, f), now).OK {
			return nil, apperr.Invalidf("the claim's %s could not be read as weekly hours", strings.ToLower(fieldLabels[f]))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// valueChange is one field's old and new value, for the audit log.
type valueChange struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// applyPicked copies the picked fields of claim c onto st and returns what
// changed.
func applyPicked(st *stores.Store, c *Claim, picked []string, now time.Time) map[string]valueChange {
	diff := map[string]valueChange{}
	set := func(field string, dst *string, v string) {
		if *dst != v {
			diff[field] = valueChange{*dst, v}
			*dst = v
		}
	}
	for _, f := range picked {
		if text, ok := textFields[f]; ok {
			set(f, text.store(st), *text.claim(c))
			continue
		}
		switch f {
		case "country":
			oldCode, oldName := st.CountryCode, st.CountryName
			st.CountryCode, st.CountryName = countryCode(c.Country), countryName(c.Country)
			if oldCode != st.CountryCode || oldName != st.CountryName {
				diff[f] = valueChange{oldName, st.CountryName}
			}
		case "hours":
			old := currentValue(st, "hours")
			oldWeekly, oldSpecial, oldClosure := st.WorkingHours, st.SpecialHours, st.TemporarilyClosed
			applyHours(st, c.WorkingHours, now)
			if old != st.Hours || !slices.Equal(oldWeekly, st.WorkingHours) || !slices.Equal(oldSpecial, st.SpecialHours) || oldClosure != st.TemporarilyClosed {
				diff[f] = valueChange{old, st.Hours}
			}
		default:
			k, _ := serviceOfField(f) // checked
			old, offered := currentValue(st, f), *offeredFlag(st, k)
			if applyServiceHours(st, k, claimedValue(c, f), now) && (old != currentValue(st, f) || !offered) {
				diff[f] = valueChange{old, currentValue(st, f)}
			}
		}
	}
	return diff
}

// applyHours sets the hours text and what it says (weekly hours, special
// dates, a temporary closure) when it reads clearly; a date the text names
// replaces the store's entry for it and its other special dates stay.
func applyHours(st *stores.Store, text string, now time.Time) {
	if hours, special, closure, ok := schedule.ParseFreeSchedule(text, now); ok {
		if len(hours) > 0 {
			st.WorkingHours = hours
		}
		st.SpecialHours = schedule.MergeSpecial(st.SpecialHours, special)
		if closure != nil {
			st.TemporarilyClosed = closure
		}
	}
	st.Hours = text
}
