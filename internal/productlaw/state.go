package productlaw

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"locator/internal/rules"
)

//go:embed states/*.json
var stateFiles embed.FS

// State is one state's directory definition (states/<code>.json): where
// the list is published, the law that makes it binding (the rule a
// verdict cites), and how the published file's columns read. Adding a
// state is adding a file.
type State struct {
	State string `json:"state"` // USPS code, also the file's name
	Name  string `json:"name"`
	Title string `json:"title"` // the list as its publisher names it
	// Source is the https page the list is downloaded from.
	Source string `json:"source"`
	// InForceFrom is the day selling an unlisted product became unlawful
	// (for the docs: a directory is loaded once it binds).
	InForceFrom string       `json:"in_force_from"`
	Rule        rules.Public `json:"rule"`
	// Columns maps our fields to the published file's column names:
	// brand and name (required), gtin, manufacturer, category, flavour,
	// submission (the FDA submission tracking number or PMTA reference).
	Columns map[string]string `json:"columns"`
}

// directoryFields are the fields a definition may map, in the order the
// published lists give them (and errors name them).
var directoryFields = []string{"manufacturer", "brand", "name", "category", "flavour", "gtin", "submission"}

func (s *State) check() error {
	switch {
	case len(s.State) != 2 || rules.StateCode(s.State) != s.State:
		return fmt.Errorf("state must be a USPS code in capitals")
	case s.Name == "" || s.Title == "":
		return fmt.Errorf("name and title are required")
	case !httpsURL(s.Source):
		return fmt.Errorf("source must be the https page of the list")
	case s.Rule.ID != "dir-"+strings.ToLower(s.State):
		return fmt.Errorf("rule.id must be %q", "dir-"+strings.ToLower(s.State))
	case s.Rule.Summary == "" || s.Rule.Citation == "":
		return fmt.Errorf("rule.summary and rule.citation are required")
	case !httpsURL(s.Rule.URL):
		return fmt.Errorf("rule.url must be the https address of the law's text")
	case s.Columns["brand"] == "" || s.Columns["name"] == "":
		return fmt.Errorf("columns need brand and name")
	}
	for _, d := range []struct{ name, v string }{{"in_force_from", s.InForceFrom}, {"rule.checked_on", s.Rule.CheckedOn}} {
		if _, err := time.Parse(time.DateOnly, d.v); err != nil {
			return fmt.Errorf("%s %q is not a date (YYYY-MM-DD)", d.name, d.v)
		}
	}
	seen := map[string]string{}
	for f, c := range s.Columns {
		if !slices.Contains(directoryFields, f) {
			return fmt.Errorf("unknown field %q in columns (one of %s)", f, strings.Join(directoryFields, ", "))
		}
		c = strings.ToLower(strings.TrimSpace(c))
		if other, ok := seen[c]; ok {
			return fmt.Errorf("column %q is given for both %s and %s", c, other, f)
		}
		seen[c] = f
	}
	return nil
}

func httpsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

var loadStates = sync.OnceValues(func() (map[string]*State, error) {
	sub, err := fs.Sub(stateFiles, "states")
	if err != nil {
		return nil, err
	}
	return StatesFS(sub)
})

// States returns the shipped definitions by USPS code.
func States() (map[string]*State, error) { return loadStates() }

// StateCodes lists the shipped definitions' codes, sorted.
func StateCodes() []string {
	ss, _ := States()
	return slices.Sorted(maps.Keys(ss))
}

// StatesFS reads every *.json file of fsys as one definition and checks
// it (the tests check the shipped ones and refuse broken ones).
func StatesFS(fsys fs.FS) (map[string]*State, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	out := make(map[string]*State, len(names))
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("directory definition %s: %w", name, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var s State
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("directory definition %s: %w", name, err)
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("directory definition %s: %w", name, err)
		}
		if strings.ToLower(s.State)+".json" != path.Base(name) {
			return nil, fmt.Errorf("directory definition %s: state %q must match the file name", name, s.State)
		}
		out[s.State] = &s
	}
	return out, nil
}
