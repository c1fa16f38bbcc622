package licences_test

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"locator/internal/licences"
)

// genFile is a generated NYC export of n bytes (every row a tobacco
// dealer with its own number when distinct, else all the same row).
type genFile struct {
	left     int
	n        int
	distinct bool
	buf      []byte
}

func (g *genFile) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	for len(g.buf) < len(p) {
		g.n++
		num := "1"
		if g.distinct {
			num = fmt.Sprint(g.n)
		}
		g.buf = append(g.buf, fmt.Sprintf("%s,SMOKE SHOP %d INC.,SMOKE SHOP,%d,BROADWAY,NEW YORK,NY,10001,Tobacco Retail Dealer,Active,2027-12-31T00:00:00.000,40.7,-73.9\n", num, g.n, g.n)...)
	}
	k := min(len(p), g.left)
	copy(p, g.buf[:k])
	g.buf = g.buf[k:]
	g.left -= k
	return k, nil
}

// TestReadUploadMemory measures the heap a 64 MB+1 upload grows to before
// it is refused (LICENCES_MEM=1; docs/licences.md gives the figures).
func TestReadUploadMemory(t *testing.T) {
	if os.Getenv("LICENCES_MEM") == "" {
		t.Skip("LICENCES_MEM=1 measures memory")
	}
	src, _ := licences.Sources()
	for _, distinct := range []bool{false, true} {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		peak := uint64(0)
		done := make(chan struct{})
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(2 * time.Millisecond):
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					peak = max(peak, m.HeapInuse)
				}
			}
		}()
		header := "license_nbr,business_name,dba_trade_name,address_building,address_street_name,address_city,address_state,address_zip,business_category,license_status,lic_expir_dd,latitude,longitude\n"
		r := io.MultiReader(strings.NewReader(header), &genFile{left: 64<<20 + 1, distinct: distinct})
		res, err := licences.ReadLimit(src["nyc-dcwp"], r, licences.UploadLimits)
		close(done)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
		t.Logf("distinct=%v: err=%v rows=%d heap grew %d MB at its peak", distinct, err, len(res.Rows), (peak-base.HeapInuse)>>20)
	}
}
