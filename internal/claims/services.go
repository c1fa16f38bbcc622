package claims

import (
	"context"
	"fmt"
	"slices"
	"time"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// The claim wizard's optional licence number and free-text hours per
// service (docs/claims.md, "Licence number and service hours").

// serviceLabels name the services in messages and in the comparison.
var serviceLabels = [schedule.NumServices]string{"Delivery", "Curbside pickup", "Online ordering"}

// serviceField is the comparison's key of service k's hours, the name of
// its text in the claim form ("delivery_hours").
func serviceField(k schedule.Service) string { return k.String() + "_hours" }

// serviceOfField reads a serviceField key.
func serviceOfField(field string) (schedule.Service, bool) {
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		if serviceField(k) == field {
			return k, true
		}
	}
	return 0, false
}

// readServiceHours reads a service's free text with the store hours'
// parser. A temporary closure is not a service's to say (an owner pauses a
// service in /business), so a text naming one is not read.
func readServiceHours(text string, now time.Time) schedule.FreeSchedule {
	r := schedule.ReadFreeSchedule(text, now)
	if r.Closure != nil {
		return schedule.FreeSchedule{}
	}
	return r
}

// applyServiceHours makes what text clearly says service k's own hours
// (weekly hours and dates) and marks the service offered; an unclear text
// changes nothing and answers false.
func applyServiceHours(st *stores.Store, k schedule.Service, text string, now time.Time) bool {
	r := readServiceHours(text, now)
	if !r.OK {
		return false
	}
	h := &st.Services[k]
	if len(r.Hours) > 0 {
		h.Hours = r.Hours
	}
	h.SpecialHours = schedule.MergeSpecial(h.SpecialHours, r.Special)
	*offeredFlag(st, k) = true
	return true
}

func offeredFlag(st *stores.Store, k schedule.Service) *bool {
	return [schedule.NumServices]*bool{&st.Delivery, &st.Curbside, &st.OrderOnline}[k]
}

// sameServiceHours: the claim leaves the service out (nothing disputed),
// or its text reads as the service's current week and it is offered.
func sameServiceHours(st *stores.Store, c *Claim, k schedule.Service, now time.Time) bool {
	text := *c.ServiceTexts()[k]
	if text == "" {
		return true
	}
	r := readServiceHours(text, now)
	return r.OK && len(r.Special) == 0 && *offeredFlag(st, k) && slices.Equal(r.Hours, st.Services[k].Hours)
}

// ServiceHoursRead is how a service's text of the claim reads, for the
// moderator: like the store hours, with the ranges to check.
type ServiceHoursRead struct {
	Service string   `json:"service"`
	Parsed  bool     `json:"parsed"`
	Notes   []string `json:"notes"`
}

// readServices reads every service text the claim gives.
func readServices(c *Claim, now time.Time) []ServiceHoursRead {
	out := []ServiceHoursRead{}
	for k, p := range c.ServiceTexts() {
		if *p == "" {
			continue
		}
		r := readServiceHours(*p, now)
		notes := r.Notes
		if notes == nil {
			notes = []string{}
		}
		out = append(out, ServiceHoursRead{Service: schedule.Service(k).String(), Parsed: r.OK, Notes: notes})
	}
	return out
}

// LicenceCheck is the registries' answer to a claim's licence number.
type LicenceCheck string

const (
	LicenceUnchecked   LicenceCheck = ""             // no number, not approved yet, or no registries here
	LicenceVerified    LicenceCheck = "verified"     // an active row with the number has the store's address
	LicenceNotVerified LicenceCheck = "not_verified" // none has
)

// LicenceVerifier checks an owner's licence number for a store:
// licences.Registry.VerifyNumber, the check of /business.
type LicenceVerifier interface {
	VerifyNumber(ctx context.Context, storeID int64, number string) (bool, error)
}

// checkLicence verifies the number of approved claim c against its store,
// after the approval's transaction (VerifyNumber writes in its own), and
// records the answer on the claim and in the audit log. The approval
// stands whatever happens here: a failure is logged and leaves the claim
// unchecked.
func (s *Service) checkLicence(ctx context.Context, c *Claim, actor string) {
	if c.LicenceNumber == "" || c.StoreID == 0 || s.Licences == nil {
		return
	}
	if err := s.verifyLicence(ctx, c, actor); err != nil && s.Log != nil {
		s.Log.Error("licence check of an approved claim", "claim", c.ID, "err", err)
	}
}

func (s *Service) verifyLicence(ctx context.Context, c *Claim, actor string) error {
	ok, err := s.Licences.VerifyNumber(ctx, c.StoreID, c.LicenceNumber)
	if err != nil {
		return fmt.Errorf("verify the licence number of claim %d: %w", c.ID, err)
	}
	check := LicenceNotVerified
	if ok {
		check = LicenceVerified
	}
	if _, err := s.DB.Exec(ctx, "UPDATE claims SET licence_check = $1 WHERE id = $2", string(check), c.ID); err != nil {
		return fmt.Errorf("record the licence check of claim %d: %w", c.ID, err)
	}
	c.LicenceCheck = check
	return s.audit(ctx, s.DB, actor, "claim.licence", c.ID, map[string]any{"store_id": c.StoreID, "number": c.LicenceNumber, "verified": ok})
}
