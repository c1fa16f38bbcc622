/** The US states, DC and territories by name -> USPS code (internal/places/states.go's USStates). */
const US_STATE_CODES: Record<string, string> = {
  Alabama: "AL", Alaska: "AK", Arizona: "AZ", Arkansas: "AR", California: "CA", Colorado: "CO", Connecticut: "CT",
  Delaware: "DE", "District of Columbia": "DC", Florida: "FL", Georgia: "GA", Hawaii: "HI", Idaho: "ID", Illinois: "IL",
  Indiana: "IN", Iowa: "IA", Kansas: "KS", Kentucky: "KY", Louisiana: "LA", Maine: "ME", Maryland: "MD",
  Massachusetts: "MA", Michigan: "MI", Minnesota: "MN", Mississippi: "MS", Missouri: "MO", Montana: "MT",
  Nebraska: "NE", Nevada: "NV", "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY",
  "North Carolina": "NC", "North Dakota": "ND", Ohio: "OH", Oklahoma: "OK", Oregon: "OR", Pennsylvania: "PA",
  "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", Tennessee: "TN", Texas: "TX", Utah: "UT",
  Vermont: "VT", Virginia: "VA", Washington: "WA", "West Virginia": "WV", Wisconsin: "WI", Wyoming: "WY",
  "Puerto Rico": "PR", Guam: "GU", "U.S. Virgin Islands": "VI", "American Samoa": "AS", "Northern Mariana Islands": "MP",
};

/**
 * A place's display name as a heading names it: a US place without ", United States" and with its
 * state's code ("Brooklyn, New York, United States" -> "Brooklyn, NY"), so "Stores in ..." fits a
 * phone's line; other places stay as they are. The server's first frame writes the same heading
 * (internal/places.ShortName; both run internal/places/testdata/short-names.json).
 */
export function shortPlaceName(display: string): string {
  const parts = display.split(", ");
  if (parts.length < 2 || parts[parts.length - 1] !== "United States") return display;
  parts.pop();
  const code = parts.length >= 2 ? US_STATE_CODES[parts[parts.length - 1]!] : undefined;
  if (code) parts[parts.length - 1] = code;
  return parts.join(", ");
}
