// Package importer reads stores from CSV or JSON files and writes the good rows
// through the store repository, reporting each bad row with its line and reason.
package importer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"locator/internal/apperr"
	"locator/internal/schedule"
	"locator/internal/stores"
)

// Columns are the CSV header names (order free; name, and either
// latitude+longitude or something to geocode, are what a row needs).
var Columns = []string{"store_id", "name", "image", "phone_number", "hours", "country", "state", "city",
	"postal_code", "address", "latitude", "longitude", "time_zone", "delivery", "order_online", "curbside_pickup",
	"status", "working_hours", "special_hours", "temporarily_closed_from", "temporarily_closed_until",
	"temporarily_closed_note", "permanently_closed", "delivery_hours", "curbside_pickup_hours", "online_order_hours", "adult_only"}

// Geocoder finds coordinates for a row without them.
type Geocoder interface {
	Geocode(postalCode, city, state, country string) (lat, lon float64, precision string, ok bool)
}

// AddressGeocoder is a Geocoder that can also place a street address (with
// an upstream geocoder); the importer prefers it for rows with an address.
type AddressGeocoder interface {
	GeocodeAddress(address, postalCode, city, state, country string) (lat, lon float64, precision string, ok bool)
}

// Options wires the importer.
type Options struct {
	Geocoder Geocoder
	ZoneAt   func(lat, lon float64) string // fills a missing time zone
	Batch    int                           // stores per transaction (default 500)
}

// RowResult is the outcome of one input row.
type RowResult struct {
	Line    int // line (CSV) or element number (JSON), 1-based
	OK      bool
	ID      int64  // the store written
	Message string // why it failed, or a note (coordinates geocoded)
	// Approximate: the row had no coordinates and was placed only at the
	// centre of its postal code or city (stores.Approximate), so a person
	// must still place its pin (/admin, "Stores to place").
	Approximate bool
}

// Report sums an import.
type Report struct {
	Rows                     []RowResult
	Created, Updated, Failed int
	// Approximate counts the written rows placed only at a postal or city
	// centre (RowResult.Approximate).
	Approximate int
}

// ApproximateLines are the lines of the written rows placed only at a
// postal or city centre.
func (r *Report) ApproximateLines() []int {
	var out []int
	for _, res := range r.Rows {
		if res.OK && res.Approximate {
			out = append(out, res.Line)
		}
	}
	return out
}

// importRow is one input record before validation.
type importRow struct {
	line   int
	fields map[string]string
	hours  []schedule.WorkingHour // from JSON arrays
	hasWH  bool
	// special hours given as a JSON array of the API's shape
	special    []schedule.SpecialHour
	hasSpecial bool
	// a JSON row's services object (services.go)
	services    [schedule.NumServices]schedule.ServiceHours
	hasServices bool
	// which columns (CSV header) or keys (JSON object) the row has: a row
	// without the exception columns keeps an existing store's exceptions
	has map[string]bool
}

// Import reads stores from CSV or JSON (format "csv" or "json") and writes
// the good rows; each bad row is reported with its line and reason. Rows
// are written in transactions of whole stores, so a crash leaves no
// half-written store. A row whose store_id already exists updates it.
func Import(ctx context.Context, r *stores.Repo, in io.Reader, format string, o Options) (*Report, error) {
	if o.Batch <= 0 {
		o.Batch = 500
	}
	var rows []importRow
	var err error
	switch format {
	case "csv":
		rows, err = readCSV(in)
	case "json":
		rows, err = readJSON(in)
	default:
		return nil, fmt.Errorf("unknown import format %q (want csv or json)", format)
	}
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	var pending []*stores.Store
	var pendingRes []int    // index into rep.Rows
	var pendingOrig []int64 // ID before the attempt: 0 for an insert
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if err := r.SaveAll(ctx, pending); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// One store spoils the batch: retry one by one to name it.
			for i, s := range pending {
				res := &rep.Rows[pendingRes[i]]
				s.ID = pendingOrig[i] // forget ids of rolled-back inserts
				if err := r.SaveAll(ctx, []*stores.Store{s}); err != nil {
					res.OK, res.Message = false, reason(err)
					continue
				}
				res.ID = s.ID
			}
		} else {
			for i, s := range pending {
				rep.Rows[pendingRes[i]].ID = s.ID
			}
		}
		pending, pendingRes, pendingOrig = pending[:0], pendingRes[:0], pendingOrig[:0]
		return nil
	}
	for _, row := range rows {
		s, note, err := rowStore(ctx, r, row, o)
		res := RowResult{Line: row.line, OK: err == nil, Message: note, Approximate: err == nil && note != "" && stores.Approximate(s.GeoPrecision)}
		if err != nil {
			res.Message = reason(err)
		}
		rep.Rows = append(rep.Rows, res)
		if err != nil {
			continue
		}
		if s.ID != 0 {
			rep.Rows[len(rep.Rows)-1].Message = strings.TrimSpace("updated existing store; " + note)
		}
		pending = append(pending, s)
		pendingRes = append(pendingRes, len(rep.Rows)-1)
		pendingOrig = append(pendingOrig, s.ID)
		if len(pending) >= o.Batch {
			if err := flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := flush(); err != nil {
		return rep, err
	}
	for _, res := range rep.Rows {
		switch {
		case !res.OK:
			rep.Failed++
			continue
		case strings.HasPrefix(res.Message, "updated"):
			rep.Updated++
		default:
			rep.Created++
		}
		if res.Approximate {
			rep.Approximate++
		}
	}
	return rep, nil
}

func reason(err error) string {
	if e, ok := apperr.As(err); ok {
		return e.Message
	}
	return err.Error()
}

func rowStore(ctx context.Context, r *stores.Repo, row importRow, o Options) (*stores.Store, string, error) {
	f := row.fields
	if msg, bad := f["\x00error"]; bad {
		return nil, "", apperr.Invalidf("%s", msg)
	}
	s := &stores.Store{
		StoreID: f["store_id"], Name: f["name"], Image: f["image"], PhoneNumber: f["phone_number"],
		Hours: f["hours"], CountryCode: strings.ToUpper(f["country"]), State: f["state"], City: f["city"],
		PostalCode: f["postal_code"], Address: f["address"], TimeZone: f["time_zone"], Status: stores.Status(f["status"]),
	}
	if s.CountryCode == "" {
		s.CountryCode = "US"
	}
	var err error
	for _, b := range []struct {
		col string
		dst *bool
	}{{"delivery", &s.Delivery}, {"order_online", &s.OrderOnline}, {"curbside_pickup", &s.Curbside}, {"adult_only", &s.AdultOnly}} {
		if *b.dst, err = parseBool(f[b.col]); err != nil {
			return nil, "", apperr.Invalidf("%s: %v", b.col, err)
		}
	}
	if row.hasWH {
		s.WorkingHours = row.hours
	} else if s.WorkingHours, err = ParseWorkingHours(f["working_hours"]); err != nil {
		return nil, "", apperr.Invalidf("working_hours: %v", err)
	}
	if row.hasSpecial {
		s.SpecialHours = row.special
	} else if s.SpecialHours, err = ParseSpecialHours(f["special_hours"]); err != nil {
		return nil, "", apperr.Invalidf("special_hours: %v", err)
	}
	if row.hasServices {
		s.Services = row.services
	} else if err := csvServices(s, row); err != nil {
		return nil, "", apperr.Invalidf("%v", err)
	}
	if from, until, note := f["temporarily_closed_from"], f["temporarily_closed_until"], f["temporarily_closed_note"]; from != "" || until != "" || note != "" {
		s.TemporarilyClosed = &schedule.Closure{From: from, Until: until, Note: note}
	}
	if s.PermanentlyClosed, err = parseBool(f["permanently_closed"]); err != nil {
		return nil, "", apperr.Invalidf("permanently_closed: %v", err)
	}
	note := ""
	latS, lonS := f["latitude"], f["longitude"]
	switch {
	case latS != "" || lonS != "":
		if s.Latitude, err = strconv.ParseFloat(latS, 64); err != nil {
			return nil, "", apperr.Invalidf("latitude %q is not a number", latS)
		}
		if s.Longitude, err = strconv.ParseFloat(lonS, 64); err != nil {
			return nil, "", apperr.Invalidf("longitude %q is not a number", lonS)
		}
	case o.Geocoder != nil:
		var lat, lon float64
		var precision string
		var ok bool
		if ag, isAG := o.Geocoder.(AddressGeocoder); isAG && strings.TrimSpace(s.Address) != "" {
			lat, lon, precision, ok = ag.GeocodeAddress(s.Address, s.PostalCode, s.City, s.State, s.CountryCode)
		} else {
			lat, lon, precision, ok = o.Geocoder.Geocode(s.PostalCode, s.City, s.State, s.CountryCode)
		}
		if !ok {
			return nil, "", apperr.Invalidf("no coordinates, and none found for postal code %q or city %q", s.PostalCode, s.City)
		}
		s.Latitude, s.Longitude, s.GeoPrecision = lat, lon, precision
		note = "coordinates filled from the " + strings.ReplaceAll(precision, "_", " ")
		if stores.Approximate(precision) {
			// Only a centre: say it plainly, the store may stand miles off.
			note += " (approximate: " + stores.PrecisionWords(precision, s.CountryCode) + "; place its pin in /admin)"
		}
	default:
		return nil, "", apperr.Invalidf("latitude and longitude are required")
	}
	if s.TimeZone == "" && o.ZoneAt != nil {
		s.TimeZone = o.ZoneAt(s.Latitude, s.Longitude)
	}
	if err := s.Validate(); err != nil {
		return nil, "", err
	}
	if s.StoreID != "" {
		id, err := r.IDByStoreID(ctx, s.StoreID)
		if err != nil {
			return nil, "", err
		}
		if id != 0 {
			old, err := r.Get(ctx, id)
			if err != nil {
				return nil, "", err
			}
			s.ID, s.CreatedAt, s.RatingSum, s.ReviewCount = id, old.CreatedAt, old.RatingSum, old.ReviewCount
			// A file without the exception columns leaves them as they are
			// (set by the business, say); with them, the row is the truth.
			if !row.has["special_hours"] {
				s.SpecialHours = old.SpecialHours
			}
			if !row.has["temporarily_closed_from"] && !row.has["temporarily_closed_until"] && !row.has["temporarily_closed_note"] {
				s.TemporarilyClosed = old.TemporarilyClosed
			}
			if !row.has["permanently_closed"] {
				s.PermanentlyClosed = old.PermanentlyClosed
			}
			if !row.has["adult_only"] {
				s.AdultOnly = old.AdultOnly // the owner's, from /business
			}
			if !hasServices(row) {
				s.Services = old.Services
			}
			// The file has no website nor confirmation date: keep the owner's.
			s.Website, s.VerifiedAt = old.Website, old.VerifiedAt
		}
	}
	return s, note, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "n":
		return false, nil
	case "1", "true", "yes", "y":
		return true, nil
	}
	return false, fmt.Errorf("%q is not true/false", v)
}

// ParseWorkingHours reads the one-column hours form of imports:
// "Mon 09:00-17:00; Tue 09:00-17:00; Fri 18:00-02:00; Sun closed".
// Days are names or 3-letter abbreviations; a day may appear more than once.
func ParseWorkingHours(s string) ([]schedule.WorkingHour, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []schedule.WorkingHour
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		day, span, ok := strings.Cut(part, " ")
		d, okDay := schedule.ParseWeekday(day)
		if !ok || !okDay {
			return nil, fmt.Errorf("%q: want \"Mon 09:00-17:00\" or \"Sun closed\"", part)
		}
		span = strings.TrimSpace(span)
		if strings.EqualFold(span, "closed") {
			out = append(out, schedule.WorkingHour{WeekDay: d})
			continue
		}
		a, b, ok := strings.Cut(span, "-")
		h := schedule.WorkingHour{WeekDay: d, Start: strings.TrimSpace(a), End: strings.TrimSpace(b)}
		if !ok || h.Validate() != nil || h.Start == "" {
			return nil, fmt.Errorf("%q: want \"Mon 09:00-17:00\" or \"Sun closed\"", part)
		}
		out = append(out, h)
	}
	return out, nil
}

// ParseSpecialHours reads the one-column special hours form of imports:
// "2026-11-26 closed Thanksgiving; 2026-12-24 09:00-14:00 Christmas Eve;
// 2026-12-31 18:00-02:00". Each entry is a date (YYYY-MM-DD), then "closed"
// or a span HH:MM-HH:MM, then an optional note; a date may have several
// spans. Dates, spans and overlaps are checked by stores.Store.Validate.
func ParseSpecialHours(s string) ([]schedule.SpecialHour, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []schedule.SpecialHour
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		fields := strings.Fields(part)
		if len(fields) < 2 {
			return nil, fmt.Errorf("%q: want \"2026-11-26 closed Thanksgiving\" or \"2026-12-24 09:00-14:00 Christmas Eve\"", part)
		}
		h := schedule.SpecialHour{Date: fields[0]}
		if strings.EqualFold(fields[1], "closed") {
			h.Closed = true
		} else {
			a, b, ok := strings.Cut(fields[1], "-")
			if !ok || a == "" || b == "" {
				return nil, fmt.Errorf("%q: want \"2026-11-26 closed Thanksgiving\" or \"2026-12-24 09:00-14:00 Christmas Eve\"", part)
			}
			h.Start, h.End = a, b
		}
		h.Note = strings.Join(fields[2:], " ")
		out = append(out, h)
	}
	return out, nil
}

// jsonSpecial reads special hours in the API's shape:
// [{"date": "2026-11-26", "closed": true, "note": "Thanksgiving"}, ...].
func jsonSpecial(val []any) ([]schedule.SpecialHour, error) {
	var out []schedule.SpecialHour
	for i, e := range val {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("entry %d: want an object {date, closed, startTime, endTime, note}", i+1)
		}
		var h schedule.SpecialHour
		for k, dst := range map[string]*string{"date": &h.Date, "startTime": &h.Start, "endTime": &h.End, "note": &h.Note} {
			switch v := m[k].(type) {
			case string:
				*dst = v
			case nil:
			default:
				return nil, fmt.Errorf("entry %d: %s must be a string", i+1, k)
			}
		}
		switch v := m["closed"].(type) {
		case bool:
			h.Closed = v
		case nil:
		default:
			return nil, fmt.Errorf("entry %d: closed must be true or false", i+1)
		}
		out = append(out, h)
	}
	return out, nil
}

func readCSV(in io.Reader) ([]importRow, error) {
	cr := csv.NewReader(bufio.NewReader(in))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read CSV header: %w", err)
	}
	known := map[string]bool{}
	for _, c := range Columns {
		known[c] = true
	}
	cols := make([]string, len(header))
	has := map[string]bool{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !known[h] {
			return nil, fmt.Errorf("CSV header: unknown column %q (known: %s)", h, strings.Join(Columns, ", "))
		}
		cols[i] = h
		has[h] = true
	}
	var rows []importRow
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				// A malformed line is reported as a bad row; reading goes on.
				rows = append(rows, importRow{line: pe.Line, fields: map[string]string{"\x00error": pe.Err.Error()}})
				continue
			}
			return rows, fmt.Errorf("read CSV: %w", err)
		}
		row := importRow{line: line, fields: map[string]string{}, has: has}
		if len(rec) != len(cols) {
			row.fields["\x00error"] = fmt.Sprintf("%d fields, the header has %d", len(rec), len(cols))
		}
		for i, v := range rec {
			if i < len(cols) {
				row.fields[cols[i]] = strings.TrimSpace(v)
			}
		}
		rows = append(rows, row)
	}
}

func readJSON(in io.Reader) ([]importRow, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("read JSON: %w", err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("JSON import wants an array of store objects: %w", err)
	}
	rows := make([]importRow, 0, len(raw))
	for i, el := range raw {
		row := importRow{line: i + 1, fields: map[string]string{}, has: map[string]bool{}}
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(el))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil || obj == nil {
			row.fields["\x00error"] = "not a JSON object"
			rows = append(rows, row)
			continue
		}
		for k, v := range obj {
			row.has[k] = true
			switch val := v.(type) {
			case string:
				row.fields[k] = strings.TrimSpace(val)
			case json.Number:
				row.fields[k] = val.String()
			case bool:
				row.fields[k] = strconv.FormatBool(val)
			case nil:
			case []any:
				if k == "working_hours" || k == "workingHours" {
					hs, err := jsonHours(val)
					if err != nil {
						row.fields["\x00error"] = "working_hours: " + err.Error()
					}
					row.hours, row.hasWH = hs, true
				}
				if k == "special_hours" {
					sh, err := jsonSpecial(val)
					if err != nil {
						row.fields["\x00error"] = "special_hours: " + err.Error()
					}
					row.special, row.hasSpecial = sh, true
				}
			case map[string]any:
				if k == "services" {
					sv, err := jsonServices(val)
					if err != nil {
						row.fields["\x00error"] = "services: " + err.Error()
					}
					row.services, row.hasServices = sv, true
				}
				if k == "temporarily_closed" {
					// The API's shape: {"from", "until", "note"}.
					row.has["temporarily_closed_from"] = true
					for sub, col := range map[string]string{"from": "temporarily_closed_from", "until": "temporarily_closed_until", "note": "temporarily_closed_note"} {
						switch sv := val[sub].(type) {
						case string:
							row.fields[col] = strings.TrimSpace(sv)
						case nil:
						default:
							row.fields["\x00error"] = "temporarily_closed." + sub + " must be a string"
						}
					}
				}
			}
			if k == "temporarily_closed" && v == nil {
				row.has["temporarily_closed_from"] = true // null: not closed
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func jsonHours(val []any) ([]schedule.WorkingHour, error) {
	var out []schedule.WorkingHour
	for _, e := range val {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want objects {weekDay, startTime, endTime}")
		}
		day, _ := m["weekDay"].(string)
		d, ok := schedule.ParseWeekday(day)
		if !ok {
			return nil, fmt.Errorf("unknown weekDay %q", day)
		}
		start, _ := m["startTime"].(string)
		end, _ := m["endTime"].(string)
		h := schedule.WorkingHour{WeekDay: d, Start: start, End: end}
		if err := h.Validate(); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}
