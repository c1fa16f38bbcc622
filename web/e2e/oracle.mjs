// An independent copy of the Open now rule (web/README.md, "Product rules") for checking what the app lists:
// an entry for today (in the store's zone) from start to end inclusive; end before start runs
// past midnight; start equal to end is all day.
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function local(now, timeZone) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const get = (t) => parts.find((p) => p.type === t).value;
  return { day: DAYS.indexOf(get("weekday")), min: (Number(get("hour")) % 24) * 60 + Number(get("minute")) };
}

const mins = (t) => (t ? Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)) : null);

export function openNow(store, now = new Date()) {
  const { day, min } = local(now, store.time_zone);
  for (const h of store.workingHours) {
    const s = mins(h.startTime);
    const e = mins(h.endTime);
    if (s === null || e === null) continue;
    if (h.weekDay === DAYS[day]) {
      if (s === e) return true;
      if (s < e ? min >= s && min <= e : min >= s) return true;
    }
    if (h.weekDay === DAYS[(day + 6) % 7] && e < s && min <= e) return true;
  }
  return false;
}
