package schedule

import (
	"fmt"
	"strings"
	"time"
)

// WorkingHour is one entry of a store's week: a weekday and a time span.
// An entry without start and end means the store is closed that day.
type WorkingHour struct {
	WeekDay time.Weekday
	Start   string // "HH:MM" or ""
	End     string // "HH:MM" or ""
}

// DocHour is one day of weekly hours in the API's shape (and the stored
// search document's): null times for a closed day.
type DocHour struct {
	WeekDay   string  `json:"weekDay"`
	StartTime *string `json:"startTime"`
	EndTime   *string `json:"endTime"`
}

// DocHours is weekly hours in the API's shape, never nil (an empty list,
// not null).
func DocHours(hs []WorkingHour) []DocHour {
	out := make([]DocHour, 0, len(hs))
	for _, h := range hs {
		out = append(out, DocHour{WeekDay: h.WeekDay.String(), StartTime: optionalTime(h.Start), EndTime: optionalTime(h.End)})
	}
	return out
}

// optionalTime is nil for an empty time (a closed day).
func optionalTime(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Validate checks the times are HH:MM and both present or both empty.
func (h WorkingHour) Validate() error {
	if h.WeekDay < time.Sunday || h.WeekDay > time.Saturday {
		return fmt.Errorf("unknown weekday")
	}
	if (h.Start == "") != (h.End == "") {
		return fmt.Errorf("give both start and end time, or neither")
	}
	if h.Start == "" {
		return nil
	}
	if _, ok := ParseClock(h.Start); !ok {
		return fmt.Errorf("start time %q is not HH:MM", h.Start)
	}
	if _, ok := ParseClock(h.End); !ok {
		return fmt.Errorf("end time %q is not HH:MM", h.End)
	}
	return nil
}

// ParseWeekday reads "Sunday".."Saturday" (any case, or 3-letter forms).
func ParseWeekday(s string) (time.Weekday, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if s == name || (len(s) >= 3 && strings.HasPrefix(name, s)) {
			return d, true
		}
	}
	return 0, false
}

// ParseClock reads "HH:MM" (00:00-23:59; "24:00" means end of day) into
// minutes. Only digits count: "+9:00" is not a time (strconv.Atoi would
// take its sign, and the web app's reader refuses it).
func ParseClock(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range [4]int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h, m := int(s[0]-'0')*10+int(s[1]-'0'), int(s[3]-'0')*10+int(s[4]-'0')
	if m > 59 || h > 24 || (h == 24 && m != 0) {
		return 0, false
	}
	return h*60 + m, true
}

// span is an interval in minutes of the day; end < start crosses midnight.
type span struct{ start, end int16 }

// Schedule is what the open rule needs of a store: its week of spans
// (indexed by weekday) and its exceptions (see status.go). Build it with
// NewSchedule or ParseSchedule; it is read-only afterwards and safe for
// concurrent use.
type Schedule struct {
	week      [7][]span
	special   []specialDay // by date
	closure   *Closure
	closeFrom int32 // civil days of the temporary closure, when closure != nil
	closeTo   int32
	permanent bool
	svc       *[NumServices]serviceRule // nil: every service follows the store (service_status.go)
	live      liveCache                 // see AppendLive
}

// NewSchedule builds the schedule of a list of weekly entries (closed days
// and invalid entries contribute nothing), without exceptions.
func NewSchedule(hours []WorkingHour) *Schedule {
	var s Schedule
	for _, h := range hours {
		a, ok1 := ParseClock(h.Start)
		b, ok2 := ParseClock(h.End)
		if !ok1 || !ok2 || h.WeekDay < 0 || h.WeekDay > 6 {
			continue
		}
		s.week[h.WeekDay] = append(s.week[h.WeekDay], span{int16(a), int16(b)})
	}
	return &s
}

// OpenAt reports whether the store is open at local time t (already in the
// store's zone): Status(t).Open. The weekly rule (docs/product-rules.md,
// "Open now"):
//   - an entry for today with start <= end is open from start to end, both
//     inclusive to the minute (09:00-17:00 is open at 17:00, closed at 17:01);
//   - an entry with end < start crosses midnight: 18:00-02:00 on Friday is
//     open Friday from 18:00 and Saturday until 02:00 inclusive;
//   - start == end means open around the clock that day.
//
// Special dates and closures change which spans a date has (status.go).
func (s *Schedule) OpenAt(t time.Time) bool {
	if s == nil {
		return false
	}
	day, minute := wallClock(t)
	return s.openAt(day, minute)
}

// wallClock is t's local civil day (days since 1970-01-01, as civilDay)
// and minute of the day, read with one zone lookup where t.Date, t.Hour
// and t.Minute make one each: the search runs it on every store it pops
// with is_open_now.
func wallClock(t time.Time) (int32, int16) {
	_, off := t.Zone()
	sec := t.Unix() + int64(off)
	day := sec / 86400
	if sec%86400 < 0 {
		day--
	}
	return int32(day), int16((sec - day*86400) / 60)
}

// Empty reports whether no day has weekly hours.
func (s *Schedule) Empty() bool {
	for _, d := range s.week {
		if len(d) > 0 {
			return false
		}
	}
	return true
}

// EncodeSchedule writes hours in the compact one-line form kept in
// schedule: "0 09:00 17:00,5 18:00 02:00".
func EncodeSchedule(hours []WorkingHour) string {
	var b strings.Builder
	for _, h := range hours {
		if h.Start == "" || h.End == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(byte('0' + h.WeekDay))
		b.WriteByte(' ')
		b.WriteString(h.Start)
		b.WriteByte(' ')
		b.WriteString(h.End)
	}
	return b.String()
}

// DecodeSchedule reads EncodeSchedule's form; bad entries are ignored.
func DecodeSchedule(s string) []WorkingHour {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]WorkingHour, 0, len(parts))
	for _, p := range parts {
		if len(p) != 13 || p[0] < '0' || p[0] > '6' {
			continue
		}
		out = append(out, WorkingHour{WeekDay: time.Weekday(p[0] - '0'), Start: p[2:7], End: p[8:13]})
	}
	return out
}
