package stores

import (
	"time"

	"locator/internal/schedule"
)

// A store's hours, exceptions and services' hours are its schedule
// settings; the rule that reads them is package schedule.

// Settings is the store's schedule settings. The slices are the store's
// own; Validate writes the normalised settings back.
func (s *Store) Settings() schedule.Settings {
	return schedule.Settings{Hours: s.WorkingHours, Special: s.SpecialHours, Closure: s.TemporarilyClosed,
		Permanent: s.PermanentlyClosed, Services: s.Services}
}

// validateSchedule checks and normalises the store's schedule settings.
func (s *Store) validateSchedule(now time.Time) error {
	set := s.Settings()
	if err := set.Validate(now); err != nil {
		return err
	}
	s.SpecialHours, s.TemporarilyClosed, s.Services = set.Special, set.Closure, set.Services
	return nil
}

// Offered is the set of services s offers.
func (s *Store) Offered() schedule.Offered {
	return schedule.OfferedOf(s.Delivery, s.Curbside, s.OrderOnline)
}

// pruneSpecial drops the store's and its services' old special dates.
func (s *Store) pruneSpecial(now time.Time) {
	s.SpecialHours = schedule.PruneSpecialHours(s.SpecialHours, now)
	for k := range s.Services {
		s.Services[k].SpecialHours = schedule.PruneSpecialHours(s.Services[k].SpecialHours, now)
	}
}

// EncodeStoreSchedule is the compact form of a store's whole schedule kept
// in stores.schedule (schedule.Settings.Encode).
func EncodeStoreSchedule(s *Store) string {
	set := s.Settings()
	return set.Encode()
}

// WithExceptions returns the schedule of a whole store: its weekly hours,
// special hours, closures and services.
func WithExceptions(s *Store) *schedule.Schedule {
	set := s.Settings()
	return set.Schedule()
}

// servicesColumn is the stores.services column (schedule.ServicesColumn).
func servicesColumn(s *Store) string { return schedule.ServicesColumn(&s.Services) }

// parseServicesColumn reads the stores.services column into s.
func parseServicesColumn(s *Store, col string) { schedule.ParseServicesColumn(&s.Services, col) }
