package storepages

import (
	"strings"
	"time"

	"locator/internal/stores"
)

// What public registries record about the store (docs/licences.md), in
// the words the app's panel uses (web/src/lib/licence.ts): the licence
// line, a No-Tobacco-Sale Order in force as a warning, earlier actions.
// Nothing at all where no registry lists the store.

type licenceView struct {
	Line      string // "Licence verified · NYC ... #2091234 · expires Dec 31, 2026 · source checked Nov 24, 2026"
	Active    bool
	RecordURL string
	Warning   string   // a No-Tobacco-Sale Order in force, with its dates
	History   []string // "Warning letter, Mar 2, 2025"
}

// registryDate is "Dec 31, 2026" for "2026-12-31".
func registryDate(date string) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.Format("Jan 2, 2006")
}

var actionNames = map[string]string{
	"no_tobacco_sale_order": "No-Tobacco-Sale Order",
	"civil_money_penalty":   "Civil money penalty",
	"warning_letter":        "Warning letter",
}

// licenceOf is the store's licence view on date today (YYYY-MM-DD, UTC as
// the app's), nil when there is nothing to show.
func licenceOf(rec stores.LicenceRecord, today string) *licenceView {
	if rec.Licence == nil && len(rec.Enforcement) == 0 {
		return nil
	}
	v := &licenceView{}
	if l := rec.Licence; l != nil {
		what := l.Kind + " #" + l.Number
		checked := "source checked " + registryDate(l.CheckedAt)
		var parts []string
		switch l.StatusOn(today) {
		case "active":
			v.Active = true
			parts = []string{"Licence verified", what}
			if l.ExpiresOn != nil {
				parts = append(parts, "expires "+registryDate(*l.ExpiresOn))
			}
		case "expired":
			head := "Licence expired"
			if l.ExpiresOn != nil {
				head += " on " + registryDate(*l.ExpiresOn)
			}
			parts = []string{head, what}
		case "revoked":
			parts = []string{"Licence revoked", what}
		default:
			parts = []string{"Licence inactive", what}
		}
		v.Line = strings.Join(append(parts, checked), " · ")
		if l.RecordURL != nil {
			v.RecordURL = *l.RecordURL
		}
	}
	for _, e := range rec.Enforcement {
		if e.Kind == "no_tobacco_sale_order" && e.ActiveOn(today) && v.Warning == "" {
			v.Warning = "FDA No-Tobacco-Sale Order from " + registryDate(e.DecidedOn)
			if e.Until != nil {
				v.Warning += " until " + registryDate(*e.Until)
			}
			v.Warning += ": this store may not sell tobacco products"
			continue
		}
		v.History = append(v.History, actionNames[e.Kind]+", "+registryDate(e.DecidedOn))
	}
	return v
}

// ldCredential is an active licence in the store's JSON-LD.
type ldCredential struct {
	Type         string      `json:"@type"`
	Category     string      `json:"credentialCategory"`
	Name         string      `json:"name"`
	Identifier   string      `json:"identifier"`
	RecognizedBy ldAuthority `json:"recognizedBy"`
	Expires      string      `json:"expires,omitempty"`
	URL          string      `json:"url,omitempty"`
}

type ldAuthority struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

// credentialLD is the store's active licence on date today as schema.org's
// hasCredential, nil otherwise (an expired or revoked licence is no credential).
func credentialLD(rec stores.LicenceRecord, today string) *ldCredential {
	l := rec.Licence
	if l == nil || l.StatusOn(today) != "active" {
		return nil
	}
	c := &ldCredential{Type: "EducationalOccupationalCredential", Category: "license", Name: l.Kind, Identifier: l.Number,
		RecognizedBy: ldAuthority{Type: "GovernmentOrganization", Name: l.Jurisdiction}}
	if l.ExpiresOn != nil {
		c.Expires = *l.ExpiresOn
	}
	if l.RecordURL != nil {
		c.URL = *l.RecordURL
	}
	return c
}

// key tells page versions apart in the cache: the warning ends on a date,
// and the line changes when the licence's expiry passes.
func (v *licenceView) key() string {
	if v == nil {
		return ""
	}
	return v.Warning + "\x00" + v.Line
}
