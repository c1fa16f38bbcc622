package bench

import (
	"slices"
	"time"

	"locator/internal/httpbody"
	"locator/internal/search"
)

// Percentiles of a set of durations.
type Percentiles struct {
	N             int
	P50, P99, Max time.Duration
	Mean          time.Duration
}

// Summarize sorts ds in place and returns its percentiles.
func Summarize(ds []time.Duration) Percentiles {
	if len(ds) == 0 {
		return Percentiles{}
	}
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	at := func(p float64) time.Duration { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
	return Percentiles{N: len(ds), P50: at(0.50), P99: at(0.99), Max: ds[len(ds)-1], Mean: sum / time.Duration(len(ds))}
}

// TimeQueries runs every valid request of rs passes times through fn, one
// after another on this goroutine, and returns the time of each call.
func TimeQueries(rs []Request, passes int, fn func(q search.Query)) []time.Duration {
	out := make([]time.Duration, 0, passes*len(rs))
	for p := 0; p < passes; p++ {
		for i := range rs {
			if rs[i].Invalid {
				continue
			}
			start := time.Now()
			fn(rs[i].Query)
			out = append(out, time.Since(start))
		}
	}
	return out
}

// Sizes are response sizes in bytes over a set of answers.
type Sizes struct {
	IdentityMean, IdentityP50, IdentityMax int
	GzipMean, GzipP50, GzipMax             int
	ZstdMean, ZstdP50, ZstdMax             int
}

// ResponseSizes renders every valid request of rs and measures the body as
// sent without and with each coding (httpbody.Encode, as the server
// compresses).
func ResponseSizes(ix *search.Index, rs []Request) Sizes {
	var id, gz, zs []int
	var buf, out []byte
	for _, r := range rs {
		if r.Invalid {
			continue
		}
		buf = ix.AppendJSON(buf[:0], r.Query)
		id = append(id, len(buf))
		out = httpbody.Encode(out[:0], httpbody.Gzip, buf)
		gz = append(gz, len(out))
		out = httpbody.Encode(out[:0], httpbody.Zstd, buf)
		zs = append(zs, len(out))
	}
	stat := func(v []int) (mean, p50, mx int) {
		if len(v) == 0 {
			return 0, 0, 0
		}
		slices.Sort(v)
		sum := 0
		for _, x := range v {
			sum += x
		}
		return sum / len(v), v[len(v)/2], v[len(v)-1]
	}
	var s Sizes
	s.IdentityMean, s.IdentityP50, s.IdentityMax = stat(id)
	s.GzipMean, s.GzipP50, s.GzipMax = stat(gz)
	s.ZstdMean, s.ZstdP50, s.ZstdMax = stat(zs)
	return s
}
