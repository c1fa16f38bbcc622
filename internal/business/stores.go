package business

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"locator/internal/apperr"
	"locator/internal/audit"
	"locator/internal/consent"
	"locator/internal/db"
	"locator/internal/ownership"
	"locator/internal/schedule"
	"locator/internal/stores"
	"locator/internal/textfield"
)

// Hour is one weekly-hours entry as the API sends it: the store
// document's shape (the store answer's workingHours).
type Hour = schedule.DocHour

// SpecialHour is one special-hours entry as the API sends it (the shape of
// the store answer's special_hours).
type SpecialHour struct {
	Date      string  `json:"date"`
	Closed    bool    `json:"closed"`
	StartTime *string `json:"startTime"`
	EndTime   *string `json:"endTime"`
	Note      *string `json:"note"`
}

// Closure is a temporary closure as the API sends it (the shape of the
// store answer's temporarily_closed).
type Closure struct {
	From  string  `json:"from"`
	Until *string `json:"until"`
	Note  *string `json:"note"`
}

// ClosureChange is a patch of the temporary closure: a nil Closure reopens
// the store.
type ClosureChange struct {
	Closure *Closure
}

func optString(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func derefString(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

func specialView(hs []schedule.SpecialHour) []SpecialHour {
	out := make([]SpecialHour, 0, len(hs))
	for _, h := range hs {
		out = append(out, SpecialHour{Date: h.Date, Closed: h.Closed, StartTime: optString(h.Start), EndTime: optString(h.End), Note: optString(h.Note)})
	}
	return out
}

// parseSpecial reads special dates as the API sends them, checked and
// normalised with the store's rules and messages (the store's own dates
// and each service's).
func parseSpecial(in []SpecialHour) ([]schedule.SpecialHour, error) {
	hs := make([]schedule.SpecialHour, 0, len(in))
	for _, h := range in {
		hs = append(hs, schedule.SpecialHour{Date: h.Date, Closed: h.Closed, Start: strings.TrimSpace(derefString(h.StartTime)),
			End: strings.TrimSpace(derefString(h.EndTime)), Note: derefString(h.Note)})
	}
	out, _, err := schedule.ValidateExceptions(hs, nil)
	return out, err
}

func closureView(c *schedule.Closure) *Closure {
	if c == nil {
		return nil
	}
	return &Closure{From: c.From, Until: optString(c.Until), Note: optString(c.Note)}
}

// StoreView is a linked store as the dashboard shows it.
type StoreView struct {
	ID             int64      `json:"id"`
	StoreID        string     `json:"store_id"`
	Name           string     `json:"name"`
	Address        string     `json:"address"`
	City           string     `json:"city"`
	State          string     `json:"state"`
	PostalCode     string     `json:"postal_code"`
	Country        string     `json:"country"`
	Latitude       float64    `json:"latitude"`
	Longitude      float64    `json:"longitude"`
	TimeZone       string     `json:"time_zone"`
	PhoneNumber    string     `json:"phone_number"`
	Website        string     `json:"website"`
	Hours          string     `json:"hours"`
	Image          string     `json:"image"`
	WorkingHours   []Hour     `json:"workingHours"`
	Delivery       bool       `json:"is_delivery_available"`
	OrderOnline    bool       `json:"is_order_online_available"`
	Curbside       bool       `json:"is_curbside_pickup_available"`
	AdultOnly      bool       `json:"adult_only"`
	Status         string     `json:"status"`
	LastVerifiedAt *time.Time `json:"last_verified_at"`
	// Every special date the store keeps (past ones for SpecialKeepDays),
	// not only the answer's two-week window: the owner edits them all.
	SpecialHours      []SpecialHour      `json:"special_hours"`
	TemporarilyClosed *Closure           `json:"temporarily_closed"`
	PendingChange     *ChangeRequestView `json:"pending_change_request"`
	// Each service's own hours, last order and pause (services.go).
	Services map[string]ServiceView `json:"services"`
	// Every account that can change the store, this one included.
	Owners []CoOwner `json:"owners"`
	// The claimants approved by a moderator who wait for an owner's consent
	// before they can change the store (internal/consent).
	PendingOwners []consent.PendingOwner `json:"pending_owners"`
}

// HoursView is weekly hours in the API's shape (the store answer's workingHours).
func HoursView(hs []schedule.WorkingHour) []Hour { return schedule.DocHours(hs) }

func storeView(st *stores.Store) StoreView {
	return StoreView{ID: st.ID, StoreID: st.StoreID, Name: st.Name, Address: st.Address, City: st.City, State: st.State,
		PostalCode: st.PostalCode, Country: st.CountryName, Latitude: st.Latitude, Longitude: st.Longitude, TimeZone: st.TimeZone,
		PhoneNumber: st.PhoneNumber, Website: st.Website, Hours: st.Hours, Image: st.Image, WorkingHours: HoursView(st.WorkingHours),
		Delivery: st.Delivery, OrderOnline: st.OrderOnline, Curbside: st.Curbside, AdultOnly: st.AdultOnly, Status: string(st.Status), LastVerifiedAt: st.VerifiedAt,
		SpecialHours: specialView(st.SpecialHours), TemporarilyClosed: closureView(st.TemporarilyClosed), Services: servicesView(st)}
}

// ErrNotYours answers every call about a store that is not linked to the
// account, whether or not it exists: an account learns nothing of others.
var ErrNotYours = apperr.New(apperr.NotFound, "Store not found among the stores of this account")

// owns checks that store id is linked to the account, and that the
// account's mailbox is proven (an account from before proof of mailbox
// may hold a link it cannot use until then).
func owns(ctx context.Context, q db.Querier, a *Account, id int64) error {
	if !a.Verified {
		return ErrUnverified
	}
	mine, err := ownership.Owns(ctx, q, a.ID, id)
	if err != nil {
		return err
	}
	if mine {
		return nil
	}
	// A claimant waiting for the owners' consent is told so (it knows the
	// store it claimed); anyone else learns nothing.
	waits, err := consent.Waits(ctx, q, a.Email, id)
	if err != nil {
		return err
	}
	if waits {
		return consent.ErrWaiting
	}
	return ErrNotYours
}

// ListStores lists the stores linked to the account.
func (s *Service) ListStores(ctx context.Context, a *Account) ([]StoreView, error) {
	if !a.Verified {
		return nil, ErrUnverified
	}
	ids, err := ownership.StoreIDs(ctx, s.DB, a.ID, 500)
	if err != nil {
		return nil, err
	}
	out := make([]StoreView, 0, len(ids))
	for _, id := range ids {
		v, err := s.view(ctx, s.DB, a, id)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// GetStore returns one linked store.
func (s *Service) GetStore(ctx context.Context, a *Account, id int64) (StoreView, error) {
	if err := owns(ctx, s.DB, a, id); err != nil {
		return StoreView{}, err
	}
	return s.view(ctx, s.DB, a, id)
}

func (s *Service) view(ctx context.Context, q db.Querier, a *Account, id int64) (StoreView, error) {
	var st *stores.Store
	var err error
	if tx, ok := q.(*db.Tx); ok {
		st, err = s.Stores.GetTx(ctx, tx, id)
	} else {
		st, err = s.Stores.Get(ctx, id)
	}
	if err != nil {
		return StoreView{}, err
	}
	v := storeView(st)
	if v.PendingChange, err = pendingChange(ctx, q, id); err != nil {
		return StoreView{}, err
	}
	if v.Owners, err = coOwners(ctx, q, a, id); err != nil {
		return StoreView{}, err
	}
	if v.PendingOwners, err = consent.ForStore(ctx, q, id); err != nil {
		return StoreView{}, err
	}
	return v, nil
}

// Patch is an owner's change of a store: nil fields stay as they are. The
// JSON names are the PATCH body's (the store answer's names), so the HTTP
// layer decodes the body straight into a Patch.
type Patch struct {
	// Published at once.
	WorkingHours *[]Hour `json:"workingHours"`
	PhoneNumber  *string `json:"phone_number"`
	Website      *string `json:"website"`
	Hours        *string `json:"hours"`
	Delivery     *bool   `json:"is_delivery_available"`
	OrderOnline  *bool   `json:"is_order_online_available"`
	Curbside     *bool   `json:"is_curbside_pickup_available"`
	AdultOnly    *bool   `json:"adult_only"` // the store's kind (docs/rules.md)
	// Special hours replace the whole list; a temporary closure is set or
	// (nil Closure) lifted. The body's temporarily_closed tells a null
	// (reopen) from a field left out (unchanged), which a pointer cannot:
	// the HTTP layer reads it and sets TemporarilyClosed.
	SpecialHours      *[]SpecialHour `json:"special_hours"`
	TemporarilyClosed *ClosureChange `json:"-"`
	// Services change the named services' settings (services.go).
	Services map[string]ServicePatch `json:"services"`

	// Normalised by validate.
	special []schedule.SpecialHour
	closure *schedule.Closure

	// Sent to the moderation queue as a change request.
	Details
}

// Details are the fields only a moderator may publish: name, address and
// position.
type Details = stores.Details

// Field limits of the dashboard (the store's own limits are in stores).
const (
	maxPhone   = stores.MaxPhoneLen
	maxHours   = stores.MaxTextLen
	maxWebsite = stores.MaxURLLen
	maxName    = stores.MaxNameLen
	maxAddress = 255
)

// validate checks and normalises every field given; messages are the
// dashboard's, in the spirit of the web app's forms.
func (p *Patch) validate() error {
	if p.WorkingHours == nil && p.PhoneNumber == nil && p.Website == nil && p.Hours == nil &&
		p.Delivery == nil && p.OrderOnline == nil && p.Curbside == nil && p.AdultOnly == nil && p.SpecialHours == nil && p.TemporarilyClosed == nil && p.Services == nil && p.Empty() {
		return apperr.Invalidf("Nothing to change: send at least one field")
	}
	if p.PhoneNumber != nil {
		v, fits := textfield.Trim(*p.PhoneNumber, maxPhone)
		if !fits {
			return apperr.Invalidf("Phone number must be less than %d symbols", maxPhone)
		}
		if strings.Trim(v, "0123456789+-() .") != "" {
			return apperr.Invalidf("Phone number may contain only digits, spaces, + - ( ) and .")
		}
		p.PhoneNumber = &v
	}
	if p.Website != nil {
		v := strings.TrimSpace(*p.Website)
		if len(v) > maxWebsite {
			return apperr.Invalidf("Website must be less than %d symbols", maxWebsite)
		}
		if v != "" {
			if !strings.Contains(v, "://") {
				v = "https://" + v // a bare example.com, as the claim form accepts it
			}
			if !stores.ValidWebsite(v) {
				return apperr.Invalidf("Website must be a web address, e.g. https://example.com")
			}
		}
		p.Website = &v
	}
	if p.Hours != nil {
		v, fits := textfield.Trim(*p.Hours, maxHours)
		if !fits {
			return apperr.Invalidf("Hours must be less than %d symbols", maxHours)
		}
		p.Hours = &v
	}
	if p.WorkingHours != nil {
		if _, err := ParseHours(*p.WorkingHours); err != nil {
			return err
		}
	}
	if p.SpecialHours != nil {
		hs, err := parseSpecial(*p.SpecialHours)
		if err != nil {
			return err
		}
		p.special = hs
	}
	if p.TemporarilyClosed != nil && p.TemporarilyClosed.Closure != nil {
		c := p.TemporarilyClosed.Closure
		_, sc, err := schedule.ValidateExceptions(nil, &schedule.Closure{From: c.From, Until: derefString(c.Until), Note: derefString(c.Note)})
		if err != nil {
			return err
		}
		p.closure = sc
	}
	if err := validateServices(p.Services); err != nil {
		return err
	}
	return validateDetails(&p.Details)
}

// validateDetails checks and trims the name, address and position an
// owner asks for.
func validateDetails(d *Details) error {
	for _, f := range []struct {
		v        **string
		label    string
		required bool
		max      int
	}{
		{&d.Name, "Name", true, maxName}, {&d.Address, "Address", true, maxAddress}, {&d.City, "City", true, maxAddress},
		{&d.State, "State", false, maxAddress}, {&d.PostalCode, "Postal code", true, 32},
	} {
		if *f.v == nil {
			continue
		}
		v, fits := textfield.Trim(**f.v, f.max)
		if v == "" && f.required {
			return apperr.Invalidf("%s is required", f.label)
		}
		if !fits {
			return apperr.Invalidf("%s must be less than %d symbols", f.label, f.max)
		}
		*f.v = &v
	}
	if (d.Latitude == nil) != (d.Longitude == nil) {
		return apperr.Invalidf("Give both latitude and longitude, or neither")
	}
	if d.Latitude != nil {
		la, lo := *d.Latitude, *d.Longitude
		if la != la || la < -90 || la > 90 {
			return apperr.Invalidf("Latitude must be between -90 and 90")
		}
		if lo != lo || lo < -180 || lo > 180 {
			return apperr.Invalidf("Longitude must be between -180 and 180")
		}
	}
	return nil
}

// ParseHours reads the weekly hours of a patch: each day's entries with
// HH:MM times, or no times for a closed day.
func ParseHours(in []Hour) ([]schedule.WorkingHour, error) {
	if len(in) > schedule.MaxHoursCount {
		return nil, apperr.Invalidf("Working hours: at most %d entries (three a day)", schedule.MaxHoursCount)
	}
	out := make([]schedule.WorkingHour, 0, len(in))
	for _, h := range in {
		day, ok := schedule.ParseWeekday(h.WeekDay)
		if !ok || strings.TrimSpace(h.WeekDay) == "" {
			return nil, apperr.Invalidf("Working hours: %q is not a day of the week", h.WeekDay)
		}
		e := schedule.WorkingHour{WeekDay: day}
		if h.StartTime != nil {
			e.Start = strings.TrimSpace(*h.StartTime)
		}
		if h.EndTime != nil {
			e.End = strings.TrimSpace(*h.EndTime)
		}
		if (e.Start == "") != (e.End == "") {
			return nil, apperr.Invalidf("Working hours: give %s both an opening and a closing time, or neither", day)
		}
		if err := e.Validate(); err != nil {
			return nil, apperr.Invalidf("Working hours: %s times must be HH:MM, e.g. 09:00", day)
		}
		out = append(out, e)
	}
	return out, nil
}

// change is one field's old and new value, for the audit log.
type change struct {
	Old any `json:"old"`
	New any `json:"new"`
}

// applyDirect copies the published-at-once fields of p onto st and returns
// what changed.
func applyDirect(st *stores.Store, p *Patch) map[string]change {
	diff := map[string]change{}
	str := func(name string, dst *string, v *string) {
		if v != nil && *v != *dst {
			diff[name] = change{*dst, *v}
			*dst = *v
		}
	}
	flag := func(name string, dst *bool, v *bool) {
		if v != nil && *v != *dst {
			diff[name] = change{*dst, *v}
			*dst = *v
		}
	}
	str("phone_number", &st.PhoneNumber, p.PhoneNumber)
	str("website", &st.Website, p.Website)
	str("hours", &st.Hours, p.Hours)
	flag("is_delivery_available", &st.Delivery, p.Delivery)
	flag("is_order_online_available", &st.OrderOnline, p.OrderOnline)
	flag("is_curbside_pickup_available", &st.Curbside, p.Curbside)
	flag("adult_only", &st.AdultOnly, p.AdultOnly)
	if p.WorkingHours != nil {
		hs, _ := ParseHours(*p.WorkingHours) // validated
		if !sameHours(hs, st.WorkingHours) {
			diff["workingHours"] = change{HoursView(st.WorkingHours), HoursView(hs)}
			st.WorkingHours = hs
		}
	}
	if p.SpecialHours != nil && !slices.Equal(p.special, st.SpecialHours) {
		diff["special_hours"] = change{specialView(st.SpecialHours), specialView(p.special)}
		st.SpecialHours = p.special
	}
	if p.TemporarilyClosed != nil && !sameClosure(p.closure, st.TemporarilyClosed) {
		diff["temporarily_closed"] = change{closureView(st.TemporarilyClosed), closureView(p.closure)}
		st.TemporarilyClosed = p.closure
	}
	return diff
}

func sameClosure(a, b *schedule.Closure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameHours(a, b []schedule.WorkingHour) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Update applies an owner's patch to a linked store: the direct fields are
// published at once (one search-version bump, so every replica shows them
// on its next poll) and audited with their old and new values; name,
// address and position changes become a change request for a moderator.
// The returned request is nil when the patch had none (or gave the
// current values).
func (s *Service) Update(ctx context.Context, a *Account, id int64, p Patch) (UpdateResult, error) {
	if err := p.validate(); err != nil {
		return UpdateResult{}, err
	}
	var req *ChangeRequestView
	var published []string
	out, err := s.editOwned(ctx, a, id, func(tx *db.Tx, w *stores.Writer, st *stores.Store) error {
		diff := applyDirect(st, &p)
		if err := applyServices(st, p.Services, s.now(), diff); err != nil {
			return err
		}
		for field := range diff {
			published = append(published, field)
		}
		slices.Sort(published)
		if len(diff) > 0 {
			if err := st.Validate(); err != nil {
				return err
			}
			if err := w.Save(ctx, st); err != nil {
				return err
			}
			if err := audit.Write(ctx, tx, s.now(), actor(a), "store.update", 0, id, map[string]any{"changes": diff}); err != nil {
				return err
			}
			if err := s.mailChange(ctx, tx, st, a.ID, false, published); err != nil {
				return err
			}
		}
		if !p.Empty() {
			var err error
			if req, err = s.requestChange(ctx, tx, a, st, p.Details); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return UpdateResult{}, err
	}
	return UpdateResult{Store: out, ChangeRequest: req, Published: published}, nil
}

// UpdateResult is what an owner's patch did: the store as it is now, the
// change request it made (nil: none) and the fields published at once
// (none when they already had the values given).
type UpdateResult struct {
	Store         StoreView
	ChangeRequest *ChangeRequestView
	Published     []string
}

// Verify records that the owner confirmed the store's details today.
func (s *Service) Verify(ctx context.Context, a *Account, id int64) (StoreView, error) {
	return s.editOwned(ctx, a, id, func(tx *db.Tx, w *stores.Writer, st *stores.Store) error {
		old, t := st.VerifiedAt, s.now()
		st.VerifiedAt = &t
		if err := w.Save(ctx, st); err != nil {
			return err
		}
		return audit.Write(ctx, tx, t, actor(a), "store.verify", 0, id, map[string]any{"changes": map[string]change{"last_verified_at": {old, t}}})
	})
}

// editOwned runs edit on store id, which a must own, and returns the
// store as it is after. The store is read inside Write: the version bump's
// row lock orders concurrent writers, so two owners' edits never overwrite
// each other.
func (s *Service) editOwned(ctx context.Context, a *Account, id int64, edit func(tx *db.Tx, w *stores.Writer, st *stores.Store) error) (StoreView, error) {
	var out StoreView
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		if err := owns(ctx, tx, a, id); err != nil {
			return err
		}
		err := s.Stores.Write(ctx, tx, func(w *stores.Writer) error {
			st, err := s.Stores.GetTx(ctx, tx, id)
			if err != nil {
				return err
			}
			return edit(tx, w, st)
		})
		if err != nil {
			return err
		}
		out, err = s.view(ctx, tx, a, id)
		return err
	})
	return out, err
}

// actor is how the audit log names a business account: its id and address.
func actor(a *Account) string { return audit.BusinessActor(a.ID, a.Email) }

// Actor is how the audit log names the account (for entries written by
// other packages, such as photo uploads).
func (a *Account) Actor() string { return actor(a) }

// DefaultPhotoUploadsPerHour bounds one account's photo uploads, counted on
// every replica (the rate_counters table): each upload is decoded,
// re-encoded in three sizes and kept in the database, so one account, or a
// stolen session, cannot spend the CPU or fill the disk. An owner changing
// the photos of a dozen stores stays well under it.
const DefaultPhotoUploadsPerHour = 20

// ReservePhotoUpload takes one of the account's photo uploads of the hour
// (a TooMany error past the limit), before the body is read.
func (s *Service) ReservePhotoUpload(ctx context.Context, a *Account) error {
	limit := cmp.Or(s.PhotoUploadsPerHour, DefaultPhotoUploadsPerHour)
	return s.Limits.Take(ctx, "business-photo:"+strconv.FormatInt(a.ID, 10), limit, time.Hour)
}

// Owns checks that store id is linked to the account (ErrNotYours
// otherwise), for endpoints whose work is done elsewhere.
func (s *Service) Owns(ctx context.Context, a *Account, id int64) error {
	return owns(ctx, s.DB, a, id)
}
