package schedule

import "time"

// ServiceLabels are the services' names as shoppers read them.
var ServiceLabels = [NumServices]string{"Delivery", "Curbside pickup", "Online orders"}

// whenText is "2:00 PM" on now's local date, "Sat 9:00 AM" another day (t
// and now in the store's zone).
func whenText(t, now time.Time) (string, bool) {
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	clock := Clock12(t.Format("15:04"))
	if ty == ny && tm == nm && td == nd {
		return clock, true
	}
	return t.Weekday().String()[:3] + " " + clock, false
}

// ServiceLine is a service's line at now, in the words of the panel
// (web/src/lib/services.ts, serviceLine), so a store page and the app say
// the same thing: "Delivery until 8:00 PM · order by 7:30 PM", "Curbside
// pickup paused today · back at 2:00 PM", "Online orders from Sat 9:00
// AM", "Delivery unavailable". st is ServiceStatus(k, now) with now in the
// store's zone; the service is offered.
func ServiceLine(k Service, st ServiceStatus, now time.Time) string {
	label := ServiceLabels[k]
	loc := now.Location()
	// at is t's words ("2:00 PM", "Sat 9:00 AM") seen from now.
	at := func(t time.Time) string {
		w, _ := whenText(t.In(loc), now)
		return w
	}
	// then adds " · "+what+" "+at(t) to line when t is set.
	then := func(line, what string, t time.Time) string {
		if t.IsZero() {
			return line
		}
		return line + " · " + what + " " + at(t)
	}
	if !st.PausedUntil.IsZero() && now.Before(st.PausedUntil) {
		back := st.NextStart
		if back.IsZero() {
			back = st.PausedUntil
		}
		b, bToday := whenText(back.In(loc), now)
		_, pToday := whenText(st.PausedUntil.In(loc), now)
		line := label + " paused"
		if pToday {
			line += " today"
		}
		if bToday {
			line += " · back at " + b
		} else {
			line += " · back " + b
		}
		if st.Note != "" {
			line += " · " + st.Note
		}
		return line
	}
	if st.Available {
		if st.Until.IsZero() {
			return label + " available now"
		}
		return then(label+" until "+at(st.Until), "order by", st.LastOrderAt)
	}
	if !st.Until.IsZero() && !st.LastOrderAt.IsZero() && now.Before(st.Until.Add(time.Minute)) {
		return then(label+" · last orders taken "+at(st.LastOrderAt), "next", st.NextStart)
	}
	if st.NextStart.IsZero() {
		return label + " unavailable"
	}
	return label + " from " + at(st.NextStart)
}
