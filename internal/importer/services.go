package importer

import (
	"encoding/json"
	"fmt"

	"locator/internal/schedule"
	"locator/internal/stores"
)

// Service hours in imports (docs/product-rules.md, "Services"): CSV has a
// column per service in the working_hours text form (delivery_hours,
// curbside_pickup_hours, online_order_hours); JSON a "services" object
// shaped like the API's, each service with "hours" in working_hours form
// and "last_order_minutes". A row without them keeps an existing store's
// service settings.

// serviceColumn is service k's CSV column.
func serviceColumn(k schedule.Service) string { return k.String() + "_hours" }

// csvServices reads the service columns a row has into s.
func csvServices(s *stores.Store, row importRow) error {
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		col := serviceColumn(k)
		if !row.has[col] {
			continue
		}
		hs, err := ParseWorkingHours(row.fields[col])
		if err != nil {
			return fmt.Errorf("%s: %w", col, err)
		}
		s.Services[k].Hours = hs
	}
	return nil
}

// hasServices reports whether the row sets any service's settings.
func hasServices(row importRow) bool {
	if row.hasServices {
		return true
	}
	for k := schedule.Service(0); k < schedule.NumServices; k++ {
		if row.has[serviceColumn(k)] {
			return true
		}
	}
	return false
}

// jsonServices reads a JSON row's "services" object.
func jsonServices(val map[string]any) ([schedule.NumServices]schedule.ServiceHours, error) {
	var out [schedule.NumServices]schedule.ServiceHours
	for name, v := range val {
		k, ok := schedule.ParseService(name)
		if !ok {
			return out, fmt.Errorf("unknown service %q (delivery, curbside_pickup or online_order)", name)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return out, fmt.Errorf("%s: want an object {hours, last_order_minutes}", name)
		}
		if hv, ok := m["hours"].([]any); ok {
			hs, err := jsonHours(hv)
			if err != nil {
				return out, fmt.Errorf("%s.hours: %w", name, err)
			}
			out[k].Hours = hs
		} else if m["hours"] != nil {
			return out, fmt.Errorf("%s.hours: want a list or null", name)
		}
		if lv, ok := m["last_order_minutes"].(json.Number); ok {
			n, err := lv.Int64()
			if err != nil {
				return out, fmt.Errorf("%s.last_order_minutes: want a whole number", name)
			}
			out[k].LastOrder = int(n)
		}
	}
	return out, nil
}
