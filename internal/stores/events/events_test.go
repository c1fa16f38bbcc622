package events_test

import (
	"context"
	"fmt"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores/events"
)

// WriteEach adds one event per store, with its data, across more stores
// than one statement holds, as Write would one at a time; a store 0 is
// none.
func TestWriteEach(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		stores := []int64{0}
		for i := int64(1); i <= 1234; i++ {
			stores = append(stores, i*3)
		}
		dbtest.Must(t, d.InTx(ctx, func(tx *db.Tx) error {
			return events.WriteEach(ctx, tx, events.StockChanged, stores, func(id int64) any {
				return map[string]any{"store_id": id, "stock_version": 7}
			})
		}), "write")
		got := dbtest.Texts(t, d, "|", "SELECT type, COALESCE(store_id, -1), data FROM webhook_events ORDER BY id")
		if len(got) != len(stores) {
			t.Fatalf("%d events, want %d", len(got), len(stores))
		}
		for i, id := range stores {
			store := id
			if id == 0 {
				store = -1
			}
			want := fmt.Sprintf(`stock.changed|%d|{"stock_version":7,"store_id":%d}`, store, id)
			if got[i] != want {
				t.Fatalf("event %d: %s, want %s", i, got[i], want)
			}
		}
	})
}
