package importer_test

import (
	"context"
	"strings"
	"testing"

	"locator/internal/importer"
	"locator/internal/stores"
)

// adult_only (docs/rules.md) is read from CSV and JSON, refused when it is
// not a flag, and a file without the column keeps the store's setting.
func TestImportAdultOnly(t *testing.T) {
	t.Parallel()
	csv := "store_id,name,latitude,longitude,adult_only\nK1,Adults,42.36,-71.06,yes\nK2,All,42.37,-71.06,\nK3,Bad,42.38,-71.06,perhaps\n"
	eachImport(t, "csv", csv, func(t *testing.T, ctx context.Context, repo *stores.Repo, rep *importer.Report) {
		if rep.Created != 2 || rep.Failed != 1 || !strings.Contains(rep.Rows[2].Message, "adult_only") {
			t.Fatalf("report %+v", rep)
		}
		for i, want := range []bool{true, false} {
			if s, _ := repo.Get(ctx, rep.Rows[i].ID); s.AdultOnly != want {
				t.Errorf("row %d: adult_only %v", i+1, s.AdultOnly)
			}
		}
		rep = importText(t, ctx, repo, "json", `[{"store_id":"K1","name":"Adults renamed","latitude":42.36,"longitude":-71.06},
			{"store_id":"K2","name":"All","latitude":42.37,"longitude":-71.06,"adult_only":true}]`)
		for i, want := range []bool{true, true} {
			if s, _ := repo.Get(ctx, rep.Rows[i].ID); s.AdultOnly != want {
				t.Errorf("re-imported row %d: adult_only %v", i+1, s.AdultOnly)
			}
		}
	})
}
