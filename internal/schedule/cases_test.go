package schedule

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// testdata/cases.json is shared with the web app's copy of the rule and its
// words (web/src/lib/schedule.cases.test.ts): both read every case.
type statusCase struct {
	Name    string   `json:"name"`
	At      string   `json:"at"`
	Zone    string   `json:"zone"`
	Hours   []string `json:"hours"`
	Special []struct {
		Date      string `json:"date"`
		Closed    bool   `json:"closed"`
		StartTime string `json:"startTime"`
		EndTime   string `json:"endTime"`
		Note      string `json:"note"`
	} `json:"special"`
	Closure *struct {
		From  string `json:"from"`
		Until string `json:"until"`
		Note  string `json:"note"`
	} `json:"closure"`
	Permanent   bool    `json:"permanent"`
	Badge       string  `json:"badge"`
	Line        string  `json:"line"`
	HoursLine   string  `json:"hoursLine"`
	ClosureLine *string `json:"closureLine"`
}

// caseWeek reads the cases' weekly entries: "Mon-Fri 09:00-12:00, 13:00-17:00".
func caseWeek(t *testing.T, entries []string) []WorkingHour {
	t.Helper()
	var out []WorkingHour
	for _, e := range entries {
		days, spans, ok := strings.Cut(e, " ")
		first, last, isRange := strings.Cut(days, "-")
		a, ok1 := ParseWeekday(first)
		b, ok2 := a, true
		if isRange {
			b, ok2 = ParseWeekday(last)
		}
		if !ok || !ok1 || !ok2 {
			t.Fatalf("hours entry %q", e)
		}
		for d := a; ; d = (d + 1) % 7 {
			for sp := range strings.SplitSeq(spans, ", ") {
				start, end, _ := strings.Cut(sp, "-")
				out = append(out, WorkingHour{WeekDay: d, Start: start, End: end})
			}
			if d == b {
				break
			}
		}
	}
	return out
}

func TestSharedCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []statusCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 30 {
		t.Fatalf("%d cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			at, err := time.Parse(time.RFC3339, c.At)
			if err != nil {
				t.Fatal(err)
			}
			loc, err := time.LoadLocation(c.Zone)
			if err != nil {
				t.Fatal(err)
			}
			set := Settings{Hours: caseWeek(t, c.Hours), Permanent: c.Permanent}
			for _, h := range c.Special {
				set.Special = append(set.Special, SpecialHour{Date: h.Date, Closed: h.Closed, Start: h.StartTime, End: h.EndTime, Note: h.Note})
			}
			if c.Closure != nil {
				set.Closure = &Closure{From: c.Closure.From, Until: c.Closure.Until, Note: c.Closure.Note}
			}
			if err := set.Validate(at); err != nil {
				t.Fatalf("settings: %v", err)
			}
			local := at.In(loc)
			sh := set.Schedule().Shown(local)
			if sh.Badge != c.Badge || sh.Line != c.Line {
				t.Errorf("at %s: %q, want %q", local.Format(time.RFC3339), sh.Text(), Shown{Badge: c.Badge, Line: c.Line}.Text())
			}
			if sh.Open != (c.Badge == BadgeOpen) {
				t.Errorf("open %v with the badge %q", sh.Open, sh.Badge)
			}
			if got := HoursLine(set.Hours); got != c.HoursLine {
				t.Errorf("hours line %q, want %q", got, c.HoursLine)
			}
			if c.ClosureLine != nil {
				if got := ClosureLine(set.Closure, local.Format(dateLayout)); got != *c.ClosureLine {
					t.Errorf("closure line %q, want %q", got, *c.ClosureLine)
				}
			}
		})
	}
}
