package placestest

// Query is one query typed into the search box and the answer it must
// give first, near Lat, Lon.
type Query struct {
	Class, Q, Want string
	Lat, Lon       float64
}

// Queries covers every class of query the search box understands, offline
// (the embedded gazetteer, no street geocoder): places tests the search
// with them and httpapi the API that serves it.
var Queries = []Query{
	{"city", "brooklyn", "Brooklyn, New York, United States", 40.65, -73.95},
	{"city", "Austin", "Austin, Texas, United States", 30.27, -97.74},
	{"city, state code", "Austin, TX", "Austin, Texas, United States", 30.27, -97.74},
	{"city state code", "austin tx", "Austin, Texas, United States", 30.27, -97.74},
	{"city, state name", "Austin, Texas", "Austin, Texas, United States", 30.27, -97.74},
	{"city state name", "brooklyn new york", "Brooklyn, New York, United States", 40.65, -73.95},
	{"state picks the town", "Portland, ME", "Portland, Maine, United States", 43.66, -70.26},
	{"state picks the town", "brooklyn oh", "Brooklyn, Ohio, United States", 41.44, -81.74},
	{"neighbourhood", "Williamsburg", "Williamsburg, New York, United States", 40.71, -73.95},
	{"neighbourhood", "harlem", "Harlem, New York, United States", 40.81, -73.94},
	{"ZIP", "10001", "10001, New York, NY, United States", 40.75, -74.00},
	{"ZIP+4", "10001-1234", "10001, New York, NY, United States", 40.75, -74.00},
	{"ZIP prefix", "100", "10001, New York, NY, United States", 40.75, -74.00},
	{"ZIP prefix", "7870", "78701, Austin, TX, United States", 30.27, -97.74},
	{"abbreviation", "NYC", "New York City, New York, United States", 40.71, -74.01},
	{"abbreviation", "St. Louis", "St. Louis, Missouri, United States", 38.63, -90.20},
	{"abbreviation", "Saint Louis", "St. Louis, Missouri, United States", 38.63, -90.20},
	{"abbreviation", "st louis mo", "St. Louis, Missouri, United States", 38.63, -90.20},
	{"abbreviation", "Ft Worth", "Fort Worth, Texas, United States", 32.73, -97.32},
	{"abbreviation", "Fort Worth", "Fort Worth, Texas, United States", 32.73, -97.32},
	{"abbreviation", "Mt Vernon NY", "Mount Vernon, New York, United States", 40.91, -73.84},
	{"abbreviation", "LA", "Los Angeles, California, United States", 34.05, -118.24},
	{"accent", "Munchen", "Munich, Bavaria, Germany", 48.14, 11.58},
	{"accent", "München", "Munich, Bavaria, Germany", 48.14, 11.58},
	{"accent", "MÜNCHEN", "Munich, Bavaria, Germany", 48.14, 11.58},
	{"city country", "munich germany", "Munich, Bavaria, Germany", 48.14, 11.58},
	{"typed in part", "brookl", "Brooklyn, New York, United States", 40.65, -73.95},
	{"typed in part", "san fran", "San Francisco, California, United States", 37.77, -122.42},
	{"US bias", "birmingham", "Birmingham, Alabama, United States", 33.52, -86.80},
	{"population", "springfield", "Springfield, Missouri, United States", 37.22, -93.30},
	{"population beats the bias", "paris", "Paris, Île-de-France, France", 48.85, 2.35},
	{"state", "Texas", "Texas, United States", 30.95, -97.63},
	{"street address offline", "350 5th Ave, New York, NY 10118", "10118, New York, NY, United States", 40.75, -73.99},
	{"street address offline", "123 Main St, Austin, TX", "Austin, Texas, United States", 30.27, -97.74},
	{"washington dc", "washington dc", "Washington, District of Columbia, United States", 38.90, -77.04},
}
