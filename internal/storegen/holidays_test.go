package storegen_test

import (
	"reflect"
	"testing"
	"time"

	"locator/internal/storegen"
)

func TestUSHolidays(t *testing.T) {
	var got []string
	for _, h := range storegen.USHolidays(time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC)) {
		got = append(got, h.String())
	}
	want := []string{"2026-11-11 Veterans Day", "2026-11-26 Thanksgiving", "2026-12-24 Christmas Eve", "2026-12-25 Christmas Day",
		"2027-01-01 New Year's Day", "2027-01-18 Martin Luther King Jr. Day", "2027-02-15 Presidents' Day", "2027-05-31 Memorial Day",
		"2027-06-19 Juneteenth", "2027-07-04 Independence Day", "2027-09-06 Labor Day", "2027-10-11 Columbus Day"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("holidays:\n got  %q\n want %q", got, want)
	}
}
