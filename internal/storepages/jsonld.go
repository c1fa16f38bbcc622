package storepages

import (
	"encoding/json"
	"html/template"

	"locator/internal/schedule"
)

// schema.org JSON-LD of the pages: a Store on a store page, a
// BreadcrumbList on every page. encoding/json escapes <, > and &, so a
// store's text cannot end the script element; the blocks are data, never
// run, so the content policy needs no hash for them.

type ldStore struct {
	Context   string    `json:"@context"`
	Type      string    `json:"@type"`
	ID        string    `json:"@id"`
	Name      string    `json:"name"`
	URL       string    `json:"url"`
	Image     string    `json:"image,omitempty"`
	Telephone string    `json:"telephone,omitempty"`
	Address   ldAddress `json:"address"`
	Geo       ldGeo     `json:"geo"`
	Hours     []ldHours `json:"openingHoursSpecification,omitempty"`
	Special   []ldHours `json:"specialOpeningHoursSpecification,omitempty"`
	Rating    *ldRating `json:"aggregateRating,omitempty"`
	// Reviews are the latest members' reviews (Options.LatestReviews).
	Reviews []ldReview `json:"review,omitempty"`
	// Departments are the services with hours of their own (services.go).
	Departments []ldDepartment `json:"department,omitempty"`
	HasMap      string         `json:"hasMap,omitempty"`
	// An active licence from a public registry (licence.go).
	Credential *ldCredential `json:"hasCredential,omitempty"`
	// Offers are the products it may sell and carries (offers.go).
	Offers []ldOffer `json:"makesOffer,omitempty"`
}

type ldAddress struct {
	Type     string `json:"@type"`
	Street   string `json:"streetAddress,omitempty"`
	Locality string `json:"addressLocality,omitempty"`
	Region   string `json:"addressRegion,omitempty"`
	Postal   string `json:"postalCode,omitempty"`
	Country  string `json:"addressCountry,omitempty"`
}

type ldGeo struct {
	Type      string  `json:"@type"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

type ldHours struct {
	Type         string `json:"@type"`
	DayOfWeek    string `json:"dayOfWeek,omitempty"`
	Opens        string `json:"opens"`
	Closes       string `json:"closes"`
	ValidFrom    string `json:"validFrom,omitempty"`
	ValidThrough string `json:"validThrough,omitempty"`
}

type ldRating struct {
	Type        string  `json:"@type"`
	RatingValue float64 `json:"ratingValue"`
	ReviewCount int64   `json:"reviewCount"`
	BestRating  int     `json:"bestRating"`
	WorstRating int     `json:"worstRating"`
}

// ldReview is one member's review as Google's review snippet reads it
// from a third-party review site: the author, the date, the rating, the text.
type ldReview struct {
	Type          string   `json:"@type"`
	Author        ldPerson `json:"author"`
	DatePublished string   `json:"datePublished"`
	ReviewRating  ldStars  `json:"reviewRating"`
	ReviewBody    string   `json:"reviewBody"`
}

type ldPerson struct {
	Type string `json:"@type"`
	Name string `json:"name"`
}

type ldStars struct {
	Type        string `json:"@type"`
	RatingValue int    `json:"ratingValue"`
	BestRating  int    `json:"bestRating"`
	WorstRating int    `json:"worstRating"`
}

// reviewsLD is the JSON-LD of the latest reviews.
func reviewsLD(rs []Review) []ldReview {
	out := make([]ldReview, 0, len(rs))
	for _, r := range rs {
		out = append(out, ldReview{Type: "Review", Author: ldPerson{Type: "Person", Name: r.Author},
			DatePublished: r.Date.UTC().Format("2006-01-02"),
			ReviewRating:  ldStars{Type: "Rating", RatingValue: r.Rating, BestRating: 5, WorstRating: 1}, ReviewBody: r.Body})
	}
	return out
}

type ldBreadcrumbs struct {
	Context string   `json:"@context"`
	Type    string   `json:"@type"`
	Items   []ldItem `json:"itemListElement"`
}

type ldItem struct {
	Type     string `json:"@type"`
	Position int    `json:"position"`
	Name     string `json:"name"`
	Item     string `json:"item"`
}

// home is the first step of every breadcrumb: the locator itself.
var home = crumb{Name: "Store Locator", Path: "/"}

// crumb is one step of a page's breadcrumb; the last is the page itself.
type crumb struct {
	Name    string
	Path    string
	Current bool // the page itself (set by render for a breadcrumb's last step)
}

type jsonLDBlock = template.JS

func jsonLD(v any) template.JS {
	b, err := json.Marshal(v)
	if err != nil {
		return "{}" // only plain structs of strings and numbers come here
	}
	return template.JS(b) //nolint:gosec // JSON from encoding/json: <, > and & are escaped
}

func breadcrumbLD(base string, crumbs []crumb) template.JS {
	l := ldBreadcrumbs{Context: "https://schema.org", Type: "BreadcrumbList"}
	for i, c := range crumbs {
		l.Items = append(l.Items, ldItem{Type: "ListItem", Position: i + 1, Name: c.Name, Item: base + c.Path})
	}
	return jsonLD(l)
}

// hoursLD writes the weekly hours as schema.org expects them: one
// specification per entry; an entry past midnight keeps its closing time,
// earlier than its opening one, which schema.org reads as "on the next
// day" (Friday 18:00-02:00 closes Saturday 02:00); an all-day entry
// (start = end) opens 00:00 and closes 23:59.
func hoursLD(hours []schedule.DocHour) []ldHours {
	var out []ldHours
	for _, sp := range spansOf(hours) {
		h := ldHours{Type: "OpeningHoursSpecification", DayOfWeek: "https://schema.org/" + sp.day.String(),
			Opens: hhmm(sp.start), Closes: hhmm(sp.end)}
		if sp.start == sp.end {
			h.Opens, h.Closes = "00:00", "23:59"
		}
		if sp.end == 24*60 {
			h.Closes = "23:59"
		}
		out = append(out, h)
	}
	return out
}

func hhmm(m int) string {
	const digits = "0123456789"
	h := m / 60 % 24
	mm := m % 60
	return string([]byte{digits[h/10], digits[h%10], ':', digits[mm/10], digits[mm%10]})
}

// specialLD writes special dates (and a temporary closure that has not
// ended by today) as schema.org's specialOpeningHoursSpecification: each
// valid from and through its date; a closed date opens and closes at
// 00:00, schema.org's way of saying closed all day; spans past midnight or
// all day as in hoursLD.
func specialLD(hs []schedule.SpecialHour, c *schedule.Closure, today string) []ldHours {
	var out []ldHours
	if c != nil && (c.Until == "" || c.Until >= today) {
		out = append(out, ldHours{Type: "OpeningHoursSpecification", Opens: "00:00", Closes: "00:00", ValidFrom: c.From, ValidThrough: c.Until})
	}
	for _, h := range hs {
		l := ldHours{Type: "OpeningHoursSpecification", Opens: "00:00", Closes: "00:00", ValidFrom: h.Date, ValidThrough: h.Date}
		if !h.Closed {
			a, ok1 := schedule.ParseClock(h.Start)
			b, ok2 := schedule.ParseClock(h.End)
			if !ok1 || !ok2 {
				continue
			}
			l.Opens, l.Closes = hhmm(a), hhmm(b)
			if a == b {
				l.Opens, l.Closes = "00:00", "23:59"
			}
			if b == 24*60 {
				l.Closes = "23:59"
			}
		}
		out = append(out, l)
	}
	return out
}
