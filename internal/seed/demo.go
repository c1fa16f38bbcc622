package seed

import (
	"locator/internal/maptiles"
	"locator/internal/places"
	"locator/internal/storegen"
)

// Demo is the options of the demo data set: n stores around the US cities
// of 50,000 people or more in the embedded gazetteer, each on land (out of
// the basemap's seas, rivers and lakes), with the postal code, postal city
// and state of its nearest ZIP code and its time zone.
func Demo(n int, seedValue uint64) (storegen.Options, error) {
	g, err := places.Load()
	if err != nil {
		return storegen.Options{}, err
	}
	tz, err := places.NewTimeZones()
	if err != nil {
		return storegen.Options{}, err
	}
	water, err := maptiles.LoadWater()
	if err != nil {
		return storegen.Options{}, err
	}
	o := storegen.Options{Stores: n, Seed: seedValue, ZoneAt: tz.ZoneAt, InWater: water.Contains}
	for _, p := range g.USCities(50000) {
		o.Cities = append(o.Cities, storegen.City{Name: p.Name, State: p.Admin1, Lat: p.Lat, Lon: p.Lon, Population: p.Population, TimeZone: p.TimeZone})
	}
	for _, z := range g.ZIPs() {
		o.ZIPs = append(o.ZIPs, storegen.ZIP{Code: z.Code, Lat: z.Lat, Lon: z.Lon, Place: z.Place, State: z.State})
	}
	return o, nil
}
