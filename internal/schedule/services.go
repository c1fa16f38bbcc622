package schedule

import (
	"encoding/json"
	"slices"
	"time"

	"locator/internal/apperr"
	"locator/internal/textfield"
)

// Hours per service (docs/product-rules.md, "Services: delivery, curbside
// pickup, online orders"): a store may give delivery, curbside pickup and
// online ordering hours of their own, a last-order offset, special dates
// and a pause. The rule that reads them is in service_status.go.

// Service is one of the services a store may offer.
type Service uint8

const (
	Delivery Service = iota
	CurbsidePickup
	OnlineOrder
	NumServices
)

var serviceNames = [NumServices]string{"delivery", "curbside_pickup", "online_order"}

// String is the service's name in the API ("delivery", "curbside_pickup", "online_order").
func (k Service) String() string {
	if k < NumServices {
		return serviceNames[k]
	}
	return "unknown"
}

// ParseService reads a service's API name.
func ParseService(name string) (Service, bool) {
	i := slices.Index(serviceNames[:], name)
	return Service(i), i >= 0
}

// InPerson reports whether the service needs the store open: delivery and
// curbside pickup do, online ordering may take orders while it is closed.
func (k Service) InPerson() bool { return k != OnlineOrder }

// Offered is the set of services a store offers, one bit per Service.
type Offered uint8

// OfferedOf builds the set from a store's three flags.
func OfferedOf(delivery, curbside, online bool) Offered {
	var o Offered
	if delivery {
		o |= 1 << Delivery
	}
	if curbside {
		o |= 1 << CurbsidePickup
	}
	if online {
		o |= 1 << OnlineOrder
	}
	return o
}

// Has reports whether k is in the set.
func (o Offered) Has(k Service) bool { return o&(1<<k) != 0 }

// ServiceHours is what a store sets for one service; the zero value
// follows the store's hours.
type ServiceHours struct {
	Hours        []WorkingHour // own weekly hours; none: the store's week
	SpecialHours []SpecialHour // own special dates, over the week above
	LastOrder    int           // minutes before each span's end at which orders stop
	PausedUntil  *time.Time    // paused until this instant; nil: not paused
	PauseNote    string        // a short note for shoppers while paused
}

// Own reports whether the service has hours of its own.
func (h *ServiceHours) Own() bool { return len(h.Hours) > 0 || len(h.SpecialHours) > 0 }

// IsZero reports whether the service follows the store in everything.
func (h *ServiceHours) IsZero() bool {
	return !h.Own() && h.LastOrder == 0 && h.PausedUntil == nil && h.PauseNote == ""
}

// Limits of the service settings.
const (
	MaxLastOrder = 240             // minutes
	MaxPause     = 366 * 24 * 3600 // seconds a pause may reach ahead
)

// validateServices checks and normalises the services' settings; past
// pauses are dropped (they no longer say anything).
func (s *Settings) validateServices(now time.Time) error {
	for k := Service(0); k < NumServices; k++ {
		h := &s.Services[k]
		name := "services." + k.String()
		if len(h.Hours) > MaxHoursCount {
			return apperr.Invalidf("%s.hours: at most %d entries", name, MaxHoursCount)
		}
		for i, wh := range h.Hours {
			if err := wh.Validate(); err != nil {
				return apperr.Invalidf("%s.hours entry %d: %s", name, i+1, err.Error())
			}
			if textfield.HasNUL(wh.Start, wh.End) {
				return apperr.Invalidf("Text must not contain the character U+0000 (NUL)")
			}
		}
		sp, _, err := ValidateExceptions(h.SpecialHours, nil)
		if err != nil {
			return apperr.Invalidf("%s.%s", name, err.Error())
		}
		h.SpecialHours = sp
		if h.LastOrder < 0 || h.LastOrder > MaxLastOrder {
			return apperr.Invalidf("%s.last_order_minutes must be between 0 and %d", name, MaxLastOrder)
		}
		note, err := checkNote(name+".note", h.PauseNote)
		if err != nil {
			return err
		}
		h.PauseNote = note
		if textfield.HasNUL(note) {
			return apperr.Invalidf("Text must not contain the character U+0000 (NUL)")
		}
		if p := h.PausedUntil; p != nil {
			if p.Unix()-now.Unix() > MaxPause {
				return apperr.Invalidf("%s.paused_until must be within a year", name)
			}
			if !p.After(now) {
				h.PausedUntil, h.PauseNote = nil, ""
			} else {
				t := p.UTC().Truncate(time.Second)
				h.PausedUntil = &t
			}
		}
		if h.PausedUntil == nil {
			h.PauseNote = ""
		}
	}
	return nil
}

// excService is one service's settings in the compact schedule (see
// Settings.Encode) and in the services column (ServicesColumn).
type excService struct {
	Week      string       `json:"w,omitempty"` // EncodeSchedule form
	Special   []excSpecial `json:"s,omitempty"`
	LastOrder int          `json:"l,omitempty"`
	Paused    int64        `json:"p,omitempty"` // Unix seconds
	Note      string       `json:"n,omitempty"`
}

// encodeServices is the services' settings by name, nil when every service
// follows the store.
func encodeServices(svc *[NumServices]ServiceHours) map[string]excService {
	var out map[string]excService
	for k := Service(0); k < NumServices; k++ {
		h := &svc[k]
		if h.IsZero() {
			continue
		}
		e := excService{Week: EncodeSchedule(h.Hours), LastOrder: h.LastOrder, Note: h.PauseNote}
		for _, sp := range h.SpecialHours {
			e.Special = append(e.Special, excSpecial(sp))
		}
		if h.PausedUntil != nil {
			e.Paused = h.PausedUntil.Unix()
		}
		if out == nil {
			out = map[string]excService{}
		}
		out[k.String()] = e
	}
	return out
}

// ServicesColumn is the services column: the settings as JSON, ""
// when every service follows the store.
func ServicesColumn(svc *[NumServices]ServiceHours) string {
	m := encodeServices(svc)
	if m == nil {
		return ""
	}
	b, err := json.Marshal(m)
	if err != nil { // strings and numbers: cannot fail
		panic(err)
	}
	return string(b)
}

// decodeServices reads the settings of encodeServices back into svc.
func decodeServices(svc *[NumServices]ServiceHours, m map[string]excService) {
	for name, e := range m {
		k, ok := ParseService(name)
		if !ok {
			continue
		}
		h := ServiceHours{Hours: DecodeSchedule(e.Week), LastOrder: e.LastOrder, PauseNote: e.Note}
		for _, sp := range e.Special {
			h.SpecialHours = append(h.SpecialHours, SpecialHour(sp))
		}
		if e.Paused != 0 {
			t := time.Unix(e.Paused, 0).UTC()
			h.PausedUntil = &t
		}
		svc[k] = h
	}
}

// ParseServicesColumn reads the services column (ServicesColumn)
// into svc.
func ParseServicesColumn(svc *[NumServices]ServiceHours, col string) {
	if col == "" {
		return
	}
	var m map[string]excService
	if json.Unmarshal([]byte(col), &m) == nil {
		decodeServices(svc, m)
	}
}

// setServices builds the services' rules of a schedule from their settings
// (week is the store's weekly line, for services with special dates but no
// week of their own).
func (s *Schedule) setServices(week []WorkingHour, m map[string]excService) {
	for name, e := range m {
		k, ok := ParseService(name)
		if !ok {
			continue
		}
		if s.svc == nil {
			s.svc = new([NumServices]serviceRule)
		}
		r := &s.svc[k]
		r.lastOrder, r.pausedUntil, r.note = int16(e.LastOrder), e.Paused, e.Note
		if e.Week != "" || len(e.Special) > 0 {
			own := week
			if e.Week != "" {
				own = DecodeSchedule(e.Week)
				r.week, r.hours = own, hoursJSON(own)
			}
			r.own = NewSchedule(own)
			for _, sp := range e.Special {
				r.own.addSpecial(SpecialHour(sp))
			}
		}
	}
}
