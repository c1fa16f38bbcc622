package schedule

import (
	"encoding/json"
	"os"
	"reflect"
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

// casesFile is testdata/cases.json: the open rule's cases and the
// services' cases.
type casesFile struct {
	Cases    []statusCase  `json:"cases"`
	Services []serviceCase `json:"services"`
}

func readCases(t *testing.T) casesFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file casesFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

// caseInstant reads a case's instant (RFC 3339) and its store's zone.
func caseInstant(t *testing.T, at, zone string) (time.Time, *time.Location) {
	t.Helper()
	instant, err := time.Parse(time.RFC3339, at)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	return instant, loc
}

func TestSharedCases(t *testing.T) {
	t.Parallel()
	file := readCases(t)
	if len(file.Cases) < 30 {
		t.Fatalf("%d cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			at, loc := caseInstant(t, c.At, c.Zone)
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

type serviceCase struct {
	Name     string   `json:"name"`
	At       string   `json:"at"`
	Zone     string   `json:"zone"`
	Hours    []string `json:"hours"`
	Services map[string]struct {
		Hours       []string `json:"hours"`
		LastOrder   int      `json:"lastOrder"`
		PausedUntil string   `json:"pausedUntil"`
		Note        string   `json:"note"`
	} `json:"services"`
	Expect map[string]struct {
		State json.RawMessage `json:"state"`
		Line  string          `json:"line"`
	} `json:"expect"`
}

// The services' cases: the state the server sends (a list entry's object)
// and the line the store page writes of it; the web app writes its line
// from that state.
func TestSharedServiceCases(t *testing.T) {
	t.Parallel()
	file := readCases(t)
	if len(file.Services) == 0 {
		t.Fatal("no service cases")
	}
	for _, c := range file.Services {
		t.Run(c.Name, func(t *testing.T) {
			at, loc := caseInstant(t, c.At, c.Zone)
			set := Settings{Hours: caseWeek(t, c.Hours)}
			for name, v := range c.Services {
				k, ok := ParseService(name)
				if !ok {
					t.Fatalf("service %q", name)
				}
				h := ServiceHours{Hours: caseWeek(t, v.Hours), LastOrder: v.LastOrder, PauseNote: v.Note}
				if v.PausedUntil != "" {
					p, err := time.Parse(time.RFC3339, v.PausedUntil)
					if err != nil {
						t.Fatal(err)
					}
					h.PausedUntil = &p
				}
				set.Services[k] = h
			}
			if err := set.Validate(at); err != nil {
				t.Fatalf("settings: %v", err)
			}
			s, local := set.Schedule(), at.In(loc)
			for name, want := range c.Expect {
				k, ok := ParseService(name)
				if !ok {
					t.Fatalf("service %q", name)
				}
				st := s.ServiceStatus(k, local)
				var got, wantState map[string]any
				if err := json.Unmarshal(s.appendServiceJSON(nil, k, st, false), &got); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(want.State, &wantState); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, wantState) {
					t.Errorf("%s state %v, want %v", name, got, wantState)
				}
				if line := ServiceLine(k, st, local); line != want.Line {
					t.Errorf("%s line %q, want %q", name, line, want.Line)
				}
			}
		})
	}
}
