// Package catalog keeps the products shoppers look for: what each one is
// (brand, name, kind, flavour family, nicotine strength, GTIN), its page on
// the marketplace, and its FDA marketing order status; and it imports them
// from a CSV or JSON file (docs/products.md).
package catalog

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"locator/internal/textfield"
)

// Kind is what sort of product it is.
type Kind string

const (
	Disposable    Kind = "disposable"
	PodSystem     Kind = "pod_system"
	Pods          Kind = "pods" // pods and cartridges for a pod system
	OpenSystem    Kind = "open_system"
	ELiquid       Kind = "e_liquid"
	NicotinePouch Kind = "nicotine_pouch"
	HeatedTobacco Kind = "heated_tobacco"
	Accessory     Kind = "accessory"
)

// Kinds lists every kind, in the order docs and menus show them.
var Kinds = []Kind{Disposable, PodSystem, Pods, OpenSystem, ELiquid, NicotinePouch, HeatedTobacco, Accessory}

// Flavour is a product's flavour family: what the flavour bans of the
// rulebook look at.
type Flavour string

const (
	Tobacco     Flavour = "tobacco"
	Menthol     Flavour = "menthol"
	Mint        Flavour = "mint"
	Fruit       Flavour = "fruit"
	Dessert     Flavour = "dessert"
	OtherFlavor Flavour = "other"
	Unflavoured Flavour = "unflavoured"
)

// Flavours lists every flavour family.
var Flavours = []Flavour{Tobacco, Menthol, Mint, Fruit, Dessert, OtherFlavor, Unflavoured}

// Unit is the unit of a nicotine strength.
type Unit string

const (
	MgPerML    Unit = "mg/mL"    // e-liquids, pods, disposables
	Percent    Unit = "%"        // by weight, as pods are often labelled (5% is about 50 mg/mL)
	MgPerPouch Unit = "mg/pouch" // nicotine pouches
)

// FDAStatus is where the product stands with the FDA's premarket review:
// a marketing granted order (authorised), a marketing denial order
// (denied), an application under review (pending), or none known.
type FDAStatus string

const (
	FDAAuthorised FDAStatus = "authorised"
	FDADenied     FDAStatus = "denied"
	FDAPending    FDAStatus = "pending"
	FDANone       FDAStatus = "none"
)

// Product is one catalogue entry.
type Product struct {
	ID        int64   `json:"-"`              // the database's key (stock rows refer to it)
	ProductID string  `json:"id"`             // the stable id feeds and the marketplace use
	GTIN      string  `json:"gtin,omitempty"` // GTIN-14, "" when it has none
	Brand     string  `json:"brand"`
	Name      string  `json:"name"`
	Kind      Kind    `json:"kind"`
	Flavour   Flavour `json:"flavour"`
	// Nicotine is the strength in NicotineUnit; nil when not known.
	Nicotine            *float64  `json:"nicotine,omitempty"`
	NicotineUnit        Unit      `json:"nicotine_unit,omitempty"`
	IsZeroNicApplicable bool      `json:"is_zero_nic_applicable"`
	IsCBDApplicable     bool      `json:"is_cbd_applicable"`
	Image               string    `json:"image,omitempty"`
	Handle              string    `json:"handle,omitempty"`
	FDAStatus           FDAStatus `json:"fda_status"`
	UpdatedAt           time.Time `json:"updated_at"`
}

// Field limits, in characters.
const (
	maxProductID = 100
	maxBrand     = 100
	maxName      = 200
	maxImage     = 1000
	maxHandle    = 200
)

// Columns are the catalogue file's columns (CSV header, JSON keys).
var Columns = []string{"id", "gtin", "brand", "name", "kind", "flavour", "nicotine",
	"is_zero_nic_applicable", "is_cbd_applicable", "image", "handle", "fda_status"}

// aliases are other names files use for a column.
var aliases = map[string]string{
	"product_id": "id", "title": "name", "flavor": "flavour", "flavour_family": "flavour", "flavor_family": "flavour",
	"nicotine_strength": "nicotine", "image_url": "image", "thumbnail": "image", "fda_marketing_order": "fda_status",
	"upc": "gtin", "ean": "gtin", "barcode": "gtin",
}

var (
	productIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:\-]*$`)
	handlePattern    = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	nicotinePattern  = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*(mg/ml|%|mg/pouch|mg)?$`)
)

// token lowercases a value and writes its word breaks as underscores, so
// "Pod System", "pod-system" and "pod_system" are one value.
func token(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '/' {
			return '_'
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

var kindWords = map[string]Kind{
	"disposable": Disposable, "pod_system": PodSystem, "pods": Pods, "pod": Pods, "cartridges": Pods, "cartridge": Pods,
	"pods_cartridges": Pods, "open_system": OpenSystem, "e_liquid": ELiquid, "eliquid": ELiquid, "nicotine_pouch": NicotinePouch,
	"pouch": NicotinePouch, "heated_tobacco": HeatedTobacco, "accessory": Accessory,
}

var flavourWords = map[string]Flavour{
	"tobacco": Tobacco, "menthol": Menthol, "mint": Mint, "fruit": Fruit, "dessert": Dessert, "other": OtherFlavor,
	"unflavoured": Unflavoured, "unflavored": Unflavoured,
}

var fdaWords = map[string]FDAStatus{
	"authorised": FDAAuthorised, "authorized": FDAAuthorised, "mgo": FDAAuthorised, "denied": FDADenied, "mdo": FDADenied,
	"pending": FDAPending, "none": FDANone, "": FDANone,
}

// parse reads one row of a catalogue file (fields by column name) into a
// product, or says what is wrong with it. The GTIN is normalised
// (NormaliseGTIN); a row without an id takes its GTIN-14 as id.
func parse(f map[string]string) (*Product, error) {
	p := &Product{}
	var ok bool
	if p.ProductID, ok = textfield.Trim(f["id"], maxProductID); !ok {
		return nil, fmt.Errorf("id is longer than %d characters", maxProductID)
	}
	if p.ProductID != "" && !productIDPattern.MatchString(p.ProductID) {
		return nil, fmt.Errorf("id %q may hold only letters, digits and . _ : - (and starts with a letter or digit)", clip(p.ProductID))
	}
	if g := strings.TrimSpace(f["gtin"]); g != "" {
		if len(g) > 20 {
			return nil, fmt.Errorf("gtin is longer than 20 characters")
		}
		n, err := NormaliseGTIN(g)
		if err != nil {
			return nil, err
		}
		p.GTIN = n
	}
	if p.ProductID == "" {
		if p.GTIN == "" {
			return nil, fmt.Errorf("the row has neither an id nor a gtin")
		}
		p.ProductID = p.GTIN
	}
	if p.Brand, ok = textfield.Trim(f["brand"], maxBrand); !ok {
		return nil, fmt.Errorf("brand is longer than %d characters", maxBrand)
	} else if p.Brand == "" {
		return nil, fmt.Errorf("brand is empty")
	}
	if p.Name, ok = textfield.Trim(f["name"], maxName); !ok {
		return nil, fmt.Errorf("name is longer than %d characters", maxName)
	} else if p.Name == "" {
		return nil, fmt.Errorf("name is empty")
	}
	if p.Kind, ok = kindWords[token(f["kind"])]; !ok {
		return nil, fmt.Errorf("kind %q is not one of %s", clip(f["kind"]), list(Kinds))
	}
	flavour := token(f["flavour"])
	if flavour == "" && p.Kind == Accessory {
		flavour = string(Unflavoured)
	}
	if p.Flavour, ok = flavourWords[flavour]; !ok {
		return nil, fmt.Errorf("flavour %q is not one of %s", clip(f["flavour"]), list(Flavours))
	}
	if err := p.parseNicotine(f["nicotine"]); err != nil {
		return nil, err
	}
	var err error
	if p.IsZeroNicApplicable, err = parseBool("is_zero_nic_applicable", f["is_zero_nic_applicable"]); err != nil {
		return nil, err
	}
	if p.IsCBDApplicable, err = parseBool("is_cbd_applicable", f["is_cbd_applicable"]); err != nil {
		return nil, err
	}
	if p.IsZeroNicApplicable && p.Nicotine != nil && *p.Nicotine > 0 {
		return nil, fmt.Errorf("is_zero_nic_applicable is true but nicotine is %s", f["nicotine"])
	}
	if p.Image, err = parseImage(f["image"]); err != nil {
		return nil, err
	}
	if p.Handle, ok = textfield.Trim(f["handle"], maxHandle); !ok {
		return nil, fmt.Errorf("handle is longer than %d characters", maxHandle)
	} else if p.Handle != "" && !handlePattern.MatchString(p.Handle) {
		return nil, fmt.Errorf("handle %q is not a marketplace handle (lowercase letters and digits joined by single hyphens)", clip(p.Handle))
	}
	if p.FDAStatus, ok = fdaWords[token(f["fda_status"])]; !ok {
		return nil, fmt.Errorf("fda_status %q is not one of authorised, denied, pending, none", clip(f["fda_status"]))
	}
	return p, nil
}

// parseNicotine reads "50 mg/mL", "5%", "6 mg/pouch" (or "6 mg" for a
// pouch), "0" (no nicotine: any unit); "" is not known.
func (p *Product) parseNicotine(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return nil
	}
	m := nicotinePattern.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("nicotine %q is not a strength such as \"50 mg/mL\", \"5%%\" or \"6 mg/pouch\"", clip(s))
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return fmt.Errorf("nicotine %q: %w", clip(s), err)
	}
	unit, limit := Unit(""), 0.0
	switch m[2] {
	case "mg/ml":
		unit, limit = MgPerML, 100
	case "%":
		unit, limit = Percent, 10
	case "mg/pouch":
		unit, limit = MgPerPouch, 50
	case "mg":
		if p.Kind != NicotinePouch {
			return fmt.Errorf("nicotine %q: \"mg\" alone is for nicotine pouches; write mg/mL or %%", clip(s))
		}
		unit, limit = MgPerPouch, 50
	default:
		if v != 0 {
			return fmt.Errorf("nicotine %q has no unit (mg/mL, %% or mg/pouch)", clip(s))
		}
		unit = MgPerML
		if p.Kind == NicotinePouch {
			unit = MgPerPouch
		}
	}
	if unit == MgPerPouch && p.Kind != NicotinePouch && v != 0 {
		return fmt.Errorf("nicotine %q: mg/pouch is for nicotine pouches", clip(s))
	}
	if v > limit && limit > 0 {
		return fmt.Errorf("nicotine %q is more than %g %s", clip(s), limit, unit)
	}
	p.Nicotine, p.NicotineUnit = &v, unit
	return nil
}

// NicotineText writes the strength as the file does ("50 mg/mL"), "" unknown.
func (p *Product) NicotineText() string {
	if p.Nicotine == nil {
		return ""
	}
	v := strconv.FormatFloat(*p.Nicotine, 'f', -1, 64)
	if p.NicotineUnit == Percent {
		return v + "%"
	}
	return v + " " + string(p.NicotineUnit)
}

func parseBool(name, s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "false", "0", "no", "n":
		return false, nil
	case "true", "1", "yes", "y":
		return true, nil
	}
	return false, fmt.Errorf("%s %q is not true or false", name, clip(s))
}

func parseImage(s string) (string, error) {
	s, ok := textfield.Trim(s, maxImage)
	if !ok {
		return "", fmt.Errorf("image is longer than %d characters", maxImage)
	}
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("image %q is not an http(s) URL", clip(s))
	}
	return s, nil
}

func list[T ~string](v []T) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}
