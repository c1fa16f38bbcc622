package schedule

import "time"

// Read access to a schedule's exceptions, for the store pages
// (internal/storepages), which render them as text and JSON-LD rather than
// as the API's JSON.

// PermanentlyClosed reports whether the schedule is of a permanently
// closed store.
func (s *Schedule) PermanentlyClosed() bool { return s != nil && s.permanent }

// TemporaryClosure is the schedule's temporary closure, or nil.
func (s *Schedule) TemporaryClosure() *Closure {
	if s == nil || s.closure == nil {
		return nil
	}
	c := *s.closure
	return &c
}

// SpecialDates lists the special hours of the local dates from the date of
// from (read in its own zone) to days-1 dates later, by date: a closed date
// as one closed entry, otherwise one entry per span. Each entry carries the
// date's note.
func (s *Schedule) SpecialDates(from time.Time, days int) []SpecialHour {
	if s == nil || s.permanent || len(s.special) == 0 {
		return nil
	}
	first := civilDay(from.Date())
	var out []SpecialHour
	for _, sd := range s.special {
		if sd.day < first || sd.day >= first+int32(days) {
			continue
		}
		date := time.Unix(int64(sd.day)*86400, 0).UTC().Format(dateLayout)
		if sd.closed {
			out = append(out, SpecialHour{Date: date, Closed: true, Note: sd.note})
			continue
		}
		for _, sp := range sd.spans {
			out = append(out, SpecialHour{Date: date, Start: clockText(int(sp.start)), End: clockText(int(sp.end)), Note: sd.note})
		}
	}
	return out
}

// clockText writes minutes of the day as "HH:MM" (24:00 stays 24:00).
func clockText(m int) string {
	const digits = "0123456789"
	h, mm := m/60, m%60
	return string([]byte{digits[h/10], digits[h%10], ':', digits[mm/10], digits[mm%10]})
}
