// Package placestest writes small MaxMind-format city databases for the
// tests of IP location (places.NewIPLocator and the API that serves it).
package placestest

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// WriteMMDB writes a GeoLite2-City database in a temporary folder that
// places each network (CIDR) at its latitude and longitude, and returns
// its path.
func WriteMMDB(t testing.TB, nets map[string][2]float64) string {
	t.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "GeoLite2-City", RecordSize: 24})
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(nets))
	for k := range nets {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, cidr := range keys {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			t.Fatal(err)
		}
		ll := nets[cidr]
		if err := tree.Insert(n, mmdbtype.Map{"location": mmdbtype.Map{
			"latitude": mmdbtype.Float64(ll[0]), "longitude": mmdbtype.Float64(ll[1])}}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "city.mmdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
