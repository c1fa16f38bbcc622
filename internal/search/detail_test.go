package search

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/stores"

	"github.com/klauspost/compress/zstd"
)

// A document whose detail part is plainDetail is kept without it and given
// back whole: by Get, by Docs and in a snapshot; any other detail is kept
// as it is. The list answer, which never carried the detail, is unchanged.
func TestPlainDetailIsKeptOnce(t *testing.T) {
	t.Parallel()
	if !bytes.HasPrefix(plainDetail, []byte(`,"adult_only":false`)) || bytes.HasSuffix(plainDetail, []byte("}")) {
		t.Fatalf("plainDetail = %s", plainDetail)
	}
	verified := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	ss := []*stores.Store{
		{ID: 1, Name: "Plain"},
		{ID: 2, Name: "Adult only", AdultOnly: true},
		{ID: 3, Name: "With a website", Website: "https://example.com"},
		{ID: 4, Name: "Verified", VerifiedAt: &verified},
	}
	ix := NewIndex()
	want := map[int64][]byte{}
	for i, s := range ss {
		s.StoreID, s.State, s.City, s.CountryCode, s.TimeZone = "st", "NY", "New York", "US", "America/New_York"
		s.Latitude, s.Longitude = 40.7+float64(i)/100, -74
		doc, err := stores.RenderDoc(s)
		if err != nil {
			t.Fatal(err)
		}
		want[s.ID] = doc
		ix.Put(stores.Entry{ID: s.ID, Latitude: s.Latitude, Longitude: s.Longitude, TimeZone: s.TimeZone, Doc: doc})
	}
	check := func(ix *Index, how string) {
		t.Helper()
		for id, doc := range want {
			sd, ok := ix.Get(id)
			if !ok || !bytes.Equal(sd.Doc, doc) {
				t.Errorf("%s: Get(%d) = %s, want %s", how, id, sd.Doc, doc)
			}
			r := &ix.recs[ix.slots[id]]
			plain := id == 1
			if got := r.flags&flagPlainDetail != 0; got != plain || (plain && len(r.doc) != len(doc)-1-len(plainDetail)) {
				t.Errorf("%s: store %d: flagged %v, %d bytes kept of %d", how, id, got, len(r.doc), len(doc))
			}
		}
		ids := []int64{1, 2, 3, 4}
		n := 0
		ix.Docs(ids, func(sd StoreDoc) {
			if d := want[sd.ID]; !bytes.Equal(sd.Doc, d[:len(d)-1]) {
				t.Errorf("%s: Docs gave store %d as %s", how, sd.ID, sd.Doc)
			}
			n++
		})
		if n != len(ids) {
			t.Errorf("%s: Docs gave %d stores", how, n)
		}
		answer := string(ix.AppendJSON(nil, Query{Latitude: 40.7, Longitude: -74, RadiusMiles: 10, Limit: 10}))
		if strings.Contains(answer, `"adult_only"`) || strings.Count(answer, `"store_id"`) != len(want) {
			t.Errorf("%s: list answer %s", how, answer)
		}
	}
	check(ix, "put")

	// A snapshot (one part) keeps the flag and the shortened documents.
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	recs, names := ix.liveRecords()
	order := make([]hilbertKey, len(recs))
	for i := range recs {
		order[i] = hilbertKey{uint64(i), uint32(i)}
	}
	part := encodePart(enc, nil, recs, order, 0, names)
	st := NewIndex()
	if err := st.loadSnapshot(t.Context(), snapHeader{Stores: len(recs), Parts: 1}, func(_ context.Context, _ func(int) []byte, fn func(int, []byte) error) error {
		return fn(0, part)
	}); err != nil {
		t.Fatal(err)
	}
	check(st, "snapshot")
}
