package storepages

import "strings"

// Heading is what the web app's reviews page (/reviews?store=N) shows above a store's reviews:
// its name, address line and status. The server writes it into that page's first frame
// (internal/httpapi frames.go), so the words must be the app's: the address as
// web/src/lib/address.ts joins it, the status as web/src/lib/status.ts says it.
type Heading struct {
	Name, Address string
	Open          bool
	Badge, Line   string // "Opened"/"Closed" and the line beside it ("Closes 9:00 PM") or ""
}

// Heading answers store id's heading from the search index, now; false when the index does not
// hold it (unknown, hidden or permanently closed: the app then says so itself).
func (p *Pages) Heading(id int64) (Heading, bool) {
	sd, ok := p.ix.Get(id)
	if !ok {
		return Heading{}, false
	}
	v, err := decodeStore(sd)
	if err != nil {
		return Heading{}, false
	}
	st := storeStatus(sd.Schedule, sd.Zone, p.opt.Now(), v.UpdatedAt)
	var parts []string
	for _, s := range []string{v.Country.DisplayName, v.State, v.Address} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return Heading{Name: v.Name, Address: strings.Join(parts, ", "), Open: st.Open, Badge: st.Badge, Line: st.Line}, true
}
