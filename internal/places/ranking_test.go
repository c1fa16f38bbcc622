package places

import (
	"fmt"
	"strings"
	"testing"
)

// rankingQueries are what people type in the search box, with the first
// suggestion they expect (docs/places.md, "Ranking"). near is the map centre
// when it matters ("" when the map shows the whole country).
var rankingQueries = []struct {
	class, q, want, near string
}{
	{"city", "Brooklyn", "Brooklyn, New York, United States", ""},
	{"city", "new york", "New York City, New York, United States", ""},
	{"city", "Chicago", "Chicago, Illinois, United States", ""},
	{"city", "los angeles", "Los Angeles, California, United States", ""},
	{"city", "Houston", "Houston, Texas, United States", ""},
	{"city", "Philadelphia", "Philadelphia, Pennsylvania, United States", ""},
	{"city", "Seattle", "Seattle, Washington, United States", ""},
	{"city", "Denver", "Denver, Colorado, United States", ""},
	{"city", "pittsburgh", "Pittsburgh, Pennsylvania, United States", ""},
	{"city", "Oshkosh", "Oshkosh, Wisconsin, United States", ""},
	{"city", "Boston", "Boston, Massachusetts, United States", ""},
	{"city", "miami", "Miami, Florida, United States", ""},
	{"city", "Jersey City", "Jersey City, New Jersey, United States", ""},
	{"city", "Hoboken", "Hoboken, New Jersey, United States", ""},
	{"city, state", "Portland, ME", "Portland, Maine, United States", ""},
	{"city, state", "brooklyn ohio", "Brooklyn, Ohio, United States", ""},
	{"city, state", "Austin TX", "Austin, Texas, United States", ""},
	{"city prefix", "Brook", "Brooklyn, New York, United States", ""},
	{"city prefix", "new y", "New York City, New York, United States", ""},
	{"city prefix", "chi", "Chicago, Illinois, United States", ""},
	{"city prefix", "phila", "Philadelphia, Pennsylvania, United States", ""},
	{"city prefix", "san fr", "San Francisco, California, United States", ""},
	{"city prefix", "las v", "Las Vegas, Nevada, United States", ""},
	{"borough", "Manhattan", "Manhattan, New York, United States", ""},
	{"borough", "queens", "Queens, New York, United States", ""},
	{"borough", "Bronx", "The Bronx, New York, United States", ""},
	{"borough", "staten island", "Staten Island, New York, United States", ""},
	{"neighbourhood", "Williamsburg", "Williamsburg, New York, United States", ""},
	{"neighbourhood", "Harlem", "Harlem, New York, United States", ""},
	{"neighbourhood", "Astoria", "Astoria, New York, United States", ""},
	{"neighbourhood", "park slope", "Park Slope, New York, United States", ""},
	{"neighbourhood", "Bushwick", "Bushwick, New York, United States", ""},
	{"neighbourhood", "long island city", "Long Island City, New York, United States", ""},
	{"ZIP", "10001", "10001, New York, NY, United States", ""},
	{"ZIP", "11211", "11211, Brooklyn, NY, United States", ""},
	{"ZIP", "60614", "60614, Chicago, IL, United States", ""},
	{"ZIP", "94103", "94103, San Francisco, CA, United States", ""},
	{"ZIP+4", "78701-1234", "78701, Austin, TX, United States", ""},
	{"abbreviation", "NYC", "New York City, New York, United States", ""},
	{"abbreviation", "philly", "Philadelphia, Pennsylvania, United States", ""},
	{"abbreviation", "LA", "Los Angeles, California, United States", ""},
	{"misspelling", "brookyln", "Brooklyn, New York, United States", ""},
	{"misspelling", "new yrok", "New York City, New York, United States", ""},
	{"misspelling", "chicgo", "Chicago, Illinois, United States", ""},
	{"misspelling", "bostn", "Boston, Massachusetts, United States", ""},
	{"misspelling", "philadelpia", "Philadelphia, Pennsylvania, United States", ""}, //nolint:misspell // typed wrong on purpose
	{"misspelling", "seatle", "Seattle, Washington, United States", ""},
	{"misspelling", "sanfrancisco", "San Francisco, California, United States", ""},
	{"misspelling", "cincinatti", "Cincinnati, Ohio, United States", ""}, //nolint:misspell // typed wrong on purpose
	{"map centre", "Portland", "Portland, Maine, United States", "43.66,-70.26"},
	{"map centre", "Portland", "Portland, Oregon, United States", ""},
	{"map centre", "springfield", "Springfield, Illinois, United States", "39.8,-89.6"},
	{"map centre", "Williamsburg", "Williamsburg, Virginia, United States", "37.27,-76.7"},
	{"state", "Texas", "Texas, United States", ""},
}

func TestRanking(t *testing.T) {
	g := mustLoad(t)
	pass := 0
	for _, c := range rankingQueries {
		var near *Near
		if c.near != "" {
			var n Near
			if _, err := fmt.Sscanf(c.near, "%f,%f", &n.Lat, &n.Lon); err != nil {
				t.Fatal(err)
			}
			near = &n
		}
		res := g.SearchNear(c.q, 10, near)
		got := ""
		if len(res) > 0 {
			got = res[0].DisplayName
		}
		if got == c.want {
			pass++
			continue
		}
		var names []string
		for _, r := range res[:min(3, len(res))] {
			names = append(names, r.DisplayName)
		}
		t.Errorf("%s: %q near %q: first %q, want %q (top: %s)", c.class, c.q, c.near, got, c.want, strings.Join(names, "; "))
	}
	t.Logf("%d of %d queries answer the expected place first", pass, len(rankingQueries))
	if len(rankingQueries) < 50 {
		t.Fatalf("%d queries; the measure needs at least 50", len(rankingQueries))
	}
}

// A place that GeoNames also knows by another town's name (Oshkosh was once
// "Brooklyn", Pittsburg CA "New York of the Pacific") is not among the first
// four suggestions for that name.
func TestRankingOwnNamesFirst(t *testing.T) {
	g := mustLoad(t)
	for q, stranger := range map[string]string{
		"Brooklyn": "Oshkosh", "new york": "Pittsburg", "new y": "Pittsburg", "new yo": "Pittsburg",
		"chicago": "Willard", "harlem": "Oak Park", "philadelphia": "Amman", "chi": "Houston",
	} {
		for i, r := range g.Search(q, 4) {
			if strings.HasPrefix(r.DisplayName, stranger+",") {
				t.Errorf("Search(%q)[%d] = %q", q, i, r.DisplayName)
			}
		}
	}
}

// TestRankingHomeAndOwnNames: searched from New York, the places of the
// shopper's country come before namesakes abroad, and a place whose own name
// was typed before one only once called so (m3 of docs/ux-review.md).
func TestRankingHomeAndOwnNames(t *testing.T) {
	g := mustLoad(t)
	nyc := &Near{Lat: 40.7128, Lon: -74.006}
	at := func(res []Result, prefix string) int {
		for i, r := range res {
			if strings.HasPrefix(r.DisplayName, prefix) {
				return i
			}
		}
		return len(res)
	}
	res := g.SearchNear("Hoboken", 10, nyc)
	if ga, be := at(res, "Hoboken, Georgia"), at(res, "Hoboken, Flanders"); ga >= be {
		t.Errorf("Hoboken from New York: Georgia at %d, Belgium at %d: %v", ga, be, res)
	}
	res = g.SearchNear("Williamsburg", 10, nyc)
	if co, rv := at(res, "Williamsburg, Colorado"), at(res, "Rockville, Maryland"); co == len(res) || co >= rv {
		t.Errorf("Williamsburg from New York: Colorado at %d, Rockville at %d: %v", co, rv, res)
	}
}
