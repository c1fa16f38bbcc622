// Package schedule says when a store is open: its weekly hours, special
// dates and closures, the open rule with its next change and its words
// (the badge, the status line, the hours line), the services' own hours and
// their rule, the live fields of API answers, and the reader of free-text
// hours. It is on the ground floor: stores, search, storepages, claims and
// the rest import it; it imports only leaves (docs/architecture.md).
package schedule

import (
	"time"

	"locator/internal/apperr"
)

// Settings is everything a store sets about when it is open: the weekly
// hours, the exceptions (special.go) and the services' own hours
// (services.go). A store keeps them in its own fields (stores.Store);
// Settings is how they reach the rule: Validate when written, Encode to
// store them, Schedule to apply them.
type Settings struct {
	Hours     []WorkingHour
	Special   []SpecialHour
	Closure   *Closure // temporary closure; nil: not closed
	Permanent bool     // permanently closed
	Services  [NumServices]ServiceHours
}

// MaxHoursCount is how many weekly entries a store or a service may have:
// up to three intervals a day.
const MaxHoursCount = 21

// Validate checks and normalises the settings in place: each weekly entry,
// the exceptions (sorted by date) and the services' settings (past pauses
// dropped, at now). How many weekly entries there may be is the caller's
// check (MaxHoursCount), made with its other field limits. Messages are
// user-facing.
func (s *Settings) Validate(now time.Time) error {
	for i, h := range s.Hours {
		if err := h.Validate(); err != nil {
			return apperr.Invalidf("working hours entry %d: %s", i+1, err.Error())
		}
	}
	if err := s.validateExceptions(); err != nil {
		return err
	}
	return s.validateServices(now)
}

// Schedule is the rule of these settings (ParseSchedule of Encode: the
// same schedule the search index builds from the stored column).
func (s *Settings) Schedule() *Schedule {
	return ParseSchedule(s.Encode())
}
