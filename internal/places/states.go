package places

import "strings"

// USStates names the US states, DC and the territories by their USPS codes
// (the store pages spell a code out; the rulebook reads either).
var USStates = map[string]string{
	"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
	"CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia", "FL": "Florida", "GA": "Georgia",
	"HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
	"KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts",
	"MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
	"NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico",
	"NY": "New York", "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
	"OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
	"TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
	"WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico", "GU": "Guam",
	"VI": "U.S. Virgin Islands", "AS": "American Samoa", "MP": "Northern Mariana Islands",
}

// usStateCodes is USStates the other way round: name -> code.
var usStateCodes = func() map[string]string {
	m := make(map[string]string, len(USStates))
	for code, name := range USStates {
		m[name] = code
	}
	return m
}()

// ShortName is a place's display name as a heading names it: a US place
// without ", United States" and with its state's code ("Brooklyn, New
// York, United States" -> "Brooklyn, NY"), so "Stores in ..." fits a
// phone's line; other places are left as they are. The web app's
// shortPlaceName (web/src/lib/placeName.ts) is the same rule, tested on the
// same cases (testdata/short-names.json): the server's first frame and the
// app write one heading.
func ShortName(display string) string {
	parts := strings.Split(display, ", ")
	if len(parts) < 2 || parts[len(parts)-1] != "United States" {
		return display
	}
	parts = parts[:len(parts)-1]
	if n := len(parts); n >= 2 {
		if code, ok := usStateCodes[parts[n-1]]; ok {
			parts[n-1] = code
		}
	}
	return strings.Join(parts, ", ")
}
