// Package rules is the rulebook: what the law of a place says about selling
// tobacco and vapes there (flavour bans, shipping bans, the minimum age),
// one cited row per rule, kept as data in book/ (one file per jurisdiction,
// embedded) and evaluated by place, store kind and date. docs/rules.md
// describes the format and each row's source.
package rules

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"locator/internal/places/fold"
)

//go:embed book/*.json
var bookFS embed.FS

// Product classes a rule covers.
const (
	FlavouredECigarettes = "flavoured_e_cigarettes" // flavoured vapour products and e-liquids
	FlavouredTobacco     = "flavoured_tobacco"      // every flavoured product, menthol included
	AllTobacco           = "all_tobacco"            // every tobacco and vapour product
)

// Channels a rule covers.
const (
	InStore  = "in_store"
	Delivery = "delivery"
	Shipping = "shipping" // remote sale shipped to a consumer in the place
)

// AdultOnly is the store kind an exemption can name.
const AdultOnly = "adult_only"

var (
	products = []string{FlavouredECigarettes, FlavouredTobacco, AllTobacco}
	channels = []string{InStore, Delivery, Shipping}
	kinds    = []string{AdultOnly}
	levels   = []string{"country", "state", "county", "city"}
)

// Rule is one row of the rulebook.
type Rule struct {
	ID       string   `json:"id"`
	Product  string   `json:"product"`
	Channels []string `json:"channels"`
	Exempt   []string `json:"exempt,omitempty"`  // store kinds the rule does not bind
	MinAge   int      `json:"min_age,omitempty"` // the youngest buyer allowed, 0: not an age rule
	Summary  string   `json:"summary"`           // the neutral line shoppers read
	// Effective dates, YYYY-MM-DD, both days included; an empty until is open-ended.
	EffectiveFrom  string `json:"effective_from"`
	EffectiveUntil string `json:"effective_until,omitempty"`
	Citation       string `json:"citation"`   // statute or ordinance
	URL            string `json:"url"`        // its public text
	CheckedOn      string `json:"checked_on"` // YYYY-MM-DD: when the row was last checked against the law's text

	from, until int // yyyymmdd; until 99999999 when open-ended
}

// Area is where a jurisdiction's rules apply. A city is approximated by its
// ZIP codes (the embedded place data has no city boundaries): a place
// matches when its ZIP code starts with one of ZIPPrefixes or is one of
// ZIPs, or, without a ZIP code, when its city is one of Cities.
type Area struct {
	Country     string   `json:"country"`
	State       string   `json:"state,omitempty"` // USPS code
	ZIPPrefixes []string `json:"zip_prefixes,omitempty"`
	ZIPs        []string `json:"zips,omitempty"`
	Cities      []string `json:"cities,omitempty"`
}

// Jurisdiction is one file of the book.
type Jurisdiction struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level string `json:"level"`
	Area  Area   `json:"area"`
	Rules []Rule `json:"rules"`

	cities map[string]bool // folded
}

// Place is where rules are looked up: a store's address or a shopper's
// position resolved to its nearest ZIP code (PlaceAt).
type Place struct {
	Country, State, City, ZIP string
}

// Book is the loaded rulebook. Safe for concurrent use.
type Book struct {
	juris []*Jurisdiction
	mu    sync.Mutex
	sets  map[setKey]*Set
}

type setKey struct {
	mask  uint64
	adult bool
}

var loadEmbedded = sync.OnceValues(func() (*Book, error) {
	sub, err := fs.Sub(bookFS, "book")
	if err != nil {
		return nil, err
	}
	return LoadFS(sub)
})

// Load returns the embedded rulebook (decoded once).
func Load() (*Book, error) { return loadEmbedded() }

// MustLoad is Load for callers that cannot go on without it; the embedded
// book is checked by the tests.
func MustLoad() *Book {
	b, err := Load()
	if err != nil {
		panic(err)
	}
	return b
}

// LoadFS reads every *.json file of fsys as one jurisdiction and checks it.
func LoadFS(fsys fs.FS) (*Book, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	b := &Book{sets: map[setKey]*Set{}}
	ids := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		j, err := parseJurisdiction(data)
		if err != nil {
			return nil, fmt.Errorf("rules: %s: %w", path.Base(name), err)
		}
		for _, r := range j.Rules {
			if other, ok := ids[r.ID]; ok {
				return nil, fmt.Errorf("rules: %s: rule %q is also in %s", name, r.ID, other)
			}
			ids[r.ID] = name
		}
		b.juris = append(b.juris, j)
	}
	if len(b.juris) > 64 {
		return nil, fmt.Errorf("rules: at most 64 jurisdictions (a set is a bit mask)")
	}
	// Broad to narrow, so the rules of a place list the country's first.
	slices.SortStableFunc(b.juris, func(a, c *Jurisdiction) int {
		return slices.Index(levels, a.Level) - slices.Index(levels, c.Level)
	})
	return b, nil
}

func parseJurisdiction(data []byte) (*Jurisdiction, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j Jurisdiction
	if err := dec.Decode(&j); err != nil {
		return nil, err
	}
	switch {
	case j.ID == "" || j.Name == "":
		return nil, fmt.Errorf("id and name are required")
	case !slices.Contains(levels, j.Level):
		return nil, fmt.Errorf("level must be one of %v", levels)
	case len(j.Area.Country) != 2:
		return nil, fmt.Errorf("area.country must be a two-letter code")
	case j.Level != "country" && j.Area.State == "":
		return nil, fmt.Errorf("area.state is required below the country level")
	case (j.Level == "city" || j.Level == "county") && len(j.Area.ZIPPrefixes)+len(j.Area.ZIPs) == 0:
		return nil, fmt.Errorf("a %s needs its ZIP codes (zip_prefixes or zips)", j.Level)
	case len(j.Rules) == 0:
		return nil, fmt.Errorf("no rules")
	}
	j.cities = map[string]bool{}
	for _, c := range j.Area.Cities {
		j.cities[fold.Fold(c)] = true
	}
	for i := range j.Rules {
		if err := j.Rules[i].check(); err != nil {
			return nil, fmt.Errorf("rule %d (%q): %w", i+1, j.Rules[i].ID, err)
		}
	}
	return &j, nil
}

// check refuses a row without its source, its check date or a readable
// scope, and fills its parsed dates.
func (r *Rule) check() error {
	var err error
	switch {
	case r.ID == "":
		return fmt.Errorf("id is required")
	case strings.TrimSpace(r.Summary) == "":
		return fmt.Errorf("summary is required")
	case strings.TrimSpace(r.Citation) == "":
		return fmt.Errorf("citation is required")
	case !publicURL(r.URL):
		return fmt.Errorf("url must be the https address of the law's text")
	case !slices.Contains(products, r.Product):
		return fmt.Errorf("product must be one of %v", products)
	case len(r.Channels) == 0:
		return fmt.Errorf("channels are required")
	case r.MinAge < 0 || r.MinAge > 30:
		return fmt.Errorf("min_age must be between 0 and 30")
	}
	for _, c := range r.Channels {
		if !slices.Contains(channels, c) {
			return fmt.Errorf("channel %q must be one of %v", c, channels)
		}
	}
	for _, k := range r.Exempt {
		if !slices.Contains(kinds, k) {
			return fmt.Errorf("exemption %q must be one of %v", k, kinds)
		}
	}
	if _, err := day(r.CheckedOn); err != nil {
		return fmt.Errorf("checked_on: %w", err)
	}
	if r.from, err = day(r.EffectiveFrom); err != nil {
		return fmt.Errorf("effective_from: %w", err)
	}
	r.until = 99999999
	if r.EffectiveUntil != "" {
		if r.until, err = day(r.EffectiveUntil); err != nil {
			return fmt.Errorf("effective_until: %w", err)
		}
		if r.until < r.from {
			return fmt.Errorf("effective_until is before effective_from")
		}
	}
	return nil
}

func publicURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

// day parses YYYY-MM-DD into yyyymmdd.
func day(s string) (int, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return DayOf(t), nil
}

// DayOf is t's calendar date as yyyymmdd (in t's own location).
func DayOf(t time.Time) int {
	y, m, d := t.Date()
	return y*10000 + int(m)*100 + d
}

// InForce reports whether the rule applies on day (yyyymmdd): a rule that
// starts tomorrow does not apply today.
func (r *Rule) InForce(day int) bool { return r.from <= day && day <= r.until }

// Binds reports whether the rule applies to a store of that kind.
func (r *Rule) Binds(adultOnly bool) bool {
	return !adultOnly || !slices.Contains(r.Exempt, AdultOnly)
}

// Has reports whether the rule covers channel c.
func (r *Rule) Has(c string) bool { return slices.Contains(r.Channels, c) }

// Jurisdictions lists the book's jurisdictions, broad to narrow.
func (b *Book) Jurisdictions() []*Jurisdiction { return b.juris }

// Match is the set of jurisdictions p lies in, as a bit mask (bit i: the
// i-th of Jurisdictions).
func (b *Book) Match(p Place) uint64 {
	var m uint64
	country := strings.ToUpper(strings.TrimSpace(p.Country))
	if country == "" {
		country = "US"
	}
	state := StateCode(p.State)
	zip := zip5(p.ZIP)
	for i, j := range b.juris {
		if j.matches(country, state, zip, p.City) {
			m |= 1 << i
		}
	}
	return m
}

func (j *Jurisdiction) matches(country, state, zip, city string) bool {
	a := &j.Area
	if a.Country != country || (a.State != "" && a.State != state) {
		return false
	}
	if len(a.ZIPPrefixes)+len(a.ZIPs) == 0 {
		return true
	}
	if zip != "" {
		return slices.Contains(a.ZIPs, zip) || slices.ContainsFunc(a.ZIPPrefixes, func(p string) bool { return strings.HasPrefix(zip, p) })
	}
	return city != "" && j.cities[fold.Fold(city)]
}

func zip5(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 5 {
		return ""
	}
	for _, c := range s[:5] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return s[:5]
}

// At lists the rules in force at p on day (yyyymmdd) for a store of that
// kind (adultOnly), broad jurisdictions first.
func (b *Book) At(p Place, adultOnly bool, day int) []*Rule {
	return b.inMask(b.Match(p), adultOnly, day)
}

func (b *Book) inMask(m uint64, adultOnly bool, day int) []*Rule {
	var out []*Rule
	for i, j := range b.juris {
		if m&(1<<i) == 0 {
			continue
		}
		for k := range j.Rules {
			if r := &j.Rules[k]; r.InForce(day) && r.Binds(adultOnly) {
				out = append(out, r)
			}
		}
	}
	return out
}

// DefaultMinAge is the age asked for where no rule of the book names one
// (outside the jurisdictions it covers).
const DefaultMinAge = 18

// MinAge is the highest minimum age among rs, DefaultMinAge without one.
func MinAge(rs []*Rule) int {
	age := 0
	for _, r := range rs {
		age = max(age, r.MinAge)
	}
	if age == 0 {
		return DefaultMinAge
	}
	return age
}

// ShippingBan is the rule among rs that forbids shipping every product to
// consumers in the place, nil when shipping is allowed.
func ShippingBan(rs []*Rule) *Rule {
	for _, r := range rs {
		if r.Product == AllTobacco && r.MinAge == 0 && r.Has(Shipping) {
			return r
		}
	}
	return nil
}

// StoreRule reports whether r is shown on a store: a rule on what stores
// there sell (not the age rule every store follows, nor a shipping rule,
// which is about the shopper's place).
func StoreRule(r *Rule) bool { return r.MinAge == 0 && (r.Has(InStore) || r.Has(Delivery)) }

// Public is a rule as the API and the pages show it.
type Public struct {
	ID        string `json:"id"`
	Summary   string `json:"summary"`
	Citation  string `json:"citation"`
	URL       string `json:"url"`
	CheckedOn string `json:"checked_on"`
}

// PublicOf is r's public form.
func PublicOf(r *Rule) Public {
	return Public{ID: r.ID, Summary: r.Summary, Citation: r.Citation, URL: r.URL, CheckedOn: r.CheckedOn}
}

// Set is the store rules of one combination of jurisdictions and store
// kind: stores share a handful of them, so the search index keeps one per
// combination rather than one per store, and each caches its JSON for the
// day it was last asked for.
type Set struct {
	b     *Book
	mask  uint64
	adult bool
	cache atomic.Pointer[setDay]
}

// AppendIDs appends the ids of the store rules in force on day as a JSON
// list of strings ("[]" for none): the search list names each store's
// rules by id and carries each rule once (AppendUnion).
func (s *Set) AppendIDs(dst []byte, day int) []byte {
	return append(dst, s.day(day).ids...)
}

// AppendUnion appends the store rules in force for any of sets, each on its
// day (days[i] for sets[i]), as one JSON list of Public, each rule once, in
// the order first met ("[]" for none).
func AppendUnion(dst []byte, sets []*Set, days []int) []byte {
	if len(sets) == 1 {
		return append(dst, sets[0].day(days[0]).json...)
	}
	dst = append(dst, '[')
	var seen []*Rule
	for i, s := range sets {
		for _, r := range s.Rules(days[i]) {
			if slices.Contains(seen, r) {
				continue
			}
			if len(seen) > 0 {
				dst = append(dst, ',')
			}
			seen = append(seen, r)
			b, _ := json.Marshal(PublicOf(r)) // plain strings: cannot fail
			dst = append(dst, b...)
		}
	}
	return append(dst, ']')
}

type setDay struct {
	day  int
	json []byte
	ids  []byte // the rules' ids as a JSON list (AppendIDs)
}

// Set returns the interned set of store p of that kind.
func (b *Book) Set(p Place, adultOnly bool) *Set {
	k := setKey{b.Match(p), adultOnly}
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.sets[k]
	if !ok {
		s = &Set{b: b, mask: k.mask, adult: adultOnly}
		b.sets[k] = s
	}
	return s
}

// Rules are the store rules in force on day.
func (s *Set) Rules(day int) []*Rule {
	var out []*Rule
	for _, r := range s.b.inMask(s.mask, s.adult, day) {
		if StoreRule(r) {
			out = append(out, r)
		}
	}
	return out
}

// AppendJSON appends the store rules in force on day as a JSON list of
// Public ("[]" for none).
func (s *Set) AppendJSON(dst []byte, day int) []byte {
	return append(dst, s.day(day).json...)
}

// day is the set's rendering on day, cached for the last day asked.
func (s *Set) day(day int) *setDay {
	if c := s.cache.Load(); c != nil && c.day == day {
		return c
	}
	pub := []Public{}
	ids := []string{}
	for _, r := range s.Rules(day) {
		pub = append(pub, PublicOf(r))
		ids = append(ids, r.ID)
	}
	c := &setDay{day: day}
	c.json, _ = json.Marshal(pub) // plain strings: cannot fail
	c.ids, _ = json.Marshal(ids)
	s.cache.Store(c)
	return c
}
