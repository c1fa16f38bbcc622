package seed

import "locator/internal/places"

// Demo is the options of the demo data set: n stores around the US cities
// of 50,000 people or more in the embedded gazetteer, with real postal
// codes and time zones.
func Demo(n int, seedValue uint64) (Options, error) {
	g, err := places.Load()
	if err != nil {
		return Options{}, err
	}
	tz, err := places.NewTimeZones()
	if err != nil {
		return Options{}, err
	}
	o := Options{Stores: n, Seed: seedValue, ZoneAt: tz.ZoneAt}
	for _, p := range g.USCities(50000) {
		o.Cities = append(o.Cities, City{Name: p.Name, State: p.Admin1, Lat: p.Lat, Lon: p.Lon, Population: p.Population})
	}
	for _, z := range g.ZIPs() {
		o.ZIPs = append(o.ZIPs, ZIP{Code: z.Code, Lat: z.Lat, Lon: z.Lon})
	}
	return o, nil
}
