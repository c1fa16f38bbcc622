package importer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"locator/internal/importer"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// Imports take service hours: a CSV column per service in the hours' text
// form, a JSON services object shaped like the API's; a file without them
// keeps what the owner set.
func TestImportServices(t *testing.T) {
	t.Parallel()
	csv := "store_id,name,latitude,longitude,delivery,working_hours,delivery_hours,online_order_hours\n" +
		"S1,Csv Services,40.7,-74,true,Mon 09:00-21:00,Mon 11:00-20:00,Mon 00:00-00:00\n" +
		"S2,Bad Service Hours,40.7,-74,true,,Mon 11-20,\n"
	eachImport(t, "csv", csv, func(t *testing.T, ctx context.Context, repo *stores.Repo, rep *importer.Report) {
		if rep.Created != 1 || rep.Failed != 1 || !strings.Contains(rep.Rows[1].Message, "delivery_hours") {
			t.Fatalf("csv report %+v", rep)
		}
		s, _ := repo.Get(ctx, rep.Rows[0].ID)
		if h := s.Services[schedule.Delivery].Hours; len(h) != 1 || h[0].WeekDay != time.Monday || h[0].Start != "11:00" ||
			len(s.Services[schedule.OnlineOrder].Hours) != 1 || !s.Services[schedule.CurbsidePickup].IsZero() {
			t.Fatalf("csv services: %+v", s.Services)
		}

		in := `[{"store_id":"J1","name":"Json Services","latitude":40.7,"longitude":-74,"curbside_pickup":true,
  "services":{"curbside_pickup":{"hours":[{"weekDay":"Tuesday","startTime":"10:00","endTime":"18:00"}],"last_order_minutes":15},
              "delivery":{"hours":null}}},
 {"name":"Bad Service","latitude":1,"longitude":1,"services":{"teleport":{}}},
 {"name":"Bad Last Order","latitude":1,"longitude":1,"services":{"delivery":{"last_order_minutes":999}}}]`
		rep = importText(t, ctx, repo, "json", in)
		if rep.Created != 1 || rep.Failed != 2 {
			t.Fatalf("json report %+v", rep)
		}
		j, _ := repo.Get(ctx, rep.Rows[0].ID)
		if c := j.Services[schedule.CurbsidePickup]; len(c.Hours) != 1 || c.Hours[0].Start != "10:00" || c.LastOrder != 15 {
			t.Fatalf("json services: %+v", j.Services)
		}

		// A re-import without service columns keeps the settings.
		rep = importText(t, ctx, repo, "csv", "store_id,name,latitude,longitude,delivery\nS1,Csv Renamed,40.7,-74,true\n")
		if s, _ = repo.Get(ctx, rep.Rows[0].ID); s.Name != "Csv Renamed" || len(s.Services[schedule.Delivery].Hours) != 1 {
			t.Fatalf("re-imported: %+v", s)
		}
	})
}
