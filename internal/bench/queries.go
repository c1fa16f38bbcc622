package bench

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"locator/internal/search"
	"locator/internal/storegen"
)

// Path is the search endpoint the query mix calls.
const Path = "/api/store/physical-store/list-physical-store/"

// Request is one request of the query mix: a valid search (Query) or an
// invalid request that must answer 400.
type Request struct {
	Query   search.Query // validated; zero when Invalid
	Invalid bool
	RawURL  string // path and query string
}

// QueryMix is the SLB-1 query mix over the stores at points: n valid
// queries (80% near a store with ~0.05 deg jitter, 20% uniform in the box;
// radius 30 mi for 85%, 5/10/50 for 5% each; limit 20 or 50; filters none
// 60%, one 30%, two 10%) plus 1% invalid requests, one after every 100th
// valid one. The same points give the same mix.
func QueryMix(points [][2]float64, n int) []Request {
	rng := rand.New(rand.NewPCG(Seed, 0x9e37))
	out := make([]Request, 0, n+n/100)
	for i := 0; i < n; i++ {
		out = append(out, validRequest(rng, points))
		if i%100 == 99 {
			out = append(out, invalidRequest(i/100))
		}
	}
	return out
}

// Valid returns the valid requests of a mix, in order.
func Valid(rs []Request) []Request {
	out := make([]Request, 0, len(rs))
	for _, r := range rs {
		if !r.Invalid {
			out = append(out, r)
		}
	}
	return out
}

// WithLimit returns the valid requests of rs with their limit set to n.
func WithLimit(rs []Request, n int) []Request {
	out := make([]Request, 0, len(rs))
	for _, r := range rs {
		if r.Invalid {
			continue
		}
		r.Query.Limit = n
		r.RawURL = rawURL(r.Query)
		out = append(out, r)
	}
	return out
}

// sixDecimals rounds v to what the URL carries, so the in-process query and
// the HTTP query are the same numbers.
func sixDecimals(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 6, 64), 64)
	return f
}

func validRequest(rng *rand.Rand, points [][2]float64) Request {
	var q search.Query
	if rng.IntN(100) < 80 && len(points) > 0 {
		p := points[rng.IntN(len(points))]
		q.Latitude = p[0] + rng.NormFloat64()*0.05
		q.Longitude = p[1] + rng.NormFloat64()*0.05
	} else {
		box := storegen.ContinentalUS
		q.Latitude = box.MinLat + rng.Float64()*(box.MaxLat-box.MinLat)
		q.Longitude = box.MinLon + rng.Float64()*(box.MaxLon-box.MinLon)
	}
	q.Latitude = sixDecimals(math.Max(-90, math.Min(90, q.Latitude)))
	q.Longitude = sixDecimals(math.Max(-180, math.Min(180, q.Longitude)))
	switch x := rng.IntN(100); {
	case x < 85:
		q.RadiusMiles = 30
	case x < 90:
		q.RadiusMiles = 5
	case x < 95:
		q.RadiusMiles = 10
	default:
		q.RadiusMiles = 50
	}
	q.Limit = 20
	if rng.IntN(2) == 1 {
		q.Limit = 50
	}
	flags := []*bool{&q.Delivery, &q.OrderOnline, &q.Curbside}
	switch x := rng.IntN(100); {
	case x < 60:
	case x < 90:
		*flags[rng.IntN(3)] = true
	default:
		skip := rng.IntN(3) // two filters: all but one
		for k, f := range flags {
			*f = k != skip
		}
	}
	if err := q.Validate(); err != nil {
		panic("bench: generated an invalid query: " + err.Error())
	}
	return Request{Query: q, RawURL: rawURL(q)}
}

func rawURL(q search.Query) string {
	var b strings.Builder
	b.WriteString(Path)
	b.WriteString("?latitude=")
	b.WriteString(strconv.FormatFloat(q.Latitude, 'f', 6, 64))
	b.WriteString("&longitude=")
	b.WriteString(strconv.FormatFloat(q.Longitude, 'f', 6, 64))
	b.WriteString("&radius=")
	b.WriteString(strconv.FormatFloat(q.RadiusMiles, 'f', -1, 64))
	b.WriteString("&limit=")
	b.WriteString(strconv.Itoa(q.Limit))
	if q.Delivery {
		b.WriteString("&is_delivery_available=true")
	}
	if q.OrderOnline {
		b.WriteString("&is_order_online_available=true")
	}
	if q.Curbside {
		b.WriteString("&is_curbside_pickup_available=true")
	}
	return b.String()
}

// invalidQueries are the kinds of bad request the mix sends; each must
// answer 400.
var invalidQueries = []string{
	"latitude=95&longitude=-74&radius=30",
	"latitude=40.7&longitude=-200&radius=30",
	"latitude=40.7&longitude=-74&radius=0",
	"latitude=40.7&longitude=-74&radius=500",
	"latitude=40.7&longitude=-74&radius=30&limit=0",
	"latitude=40.7&longitude=-74&radius=30&limit=1000",
	"latitude=abc&longitude=-74&radius=30",
	"longitude=-74&radius=30",
	"latitude=40.7&longitude=-74&radius=30&is_delivery_available=maybe",
	"latitude=40.7&longitude=-74&radius=NaN",
}

func invalidRequest(k int) Request {
	return Request{Invalid: true, RawURL: Path + "?" + invalidQueries[k%len(invalidQueries)]}
}
