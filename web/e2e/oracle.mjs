// An independent copy of the Open now rule (docs/product-rules.md, "Open now" and "Opening hours
// and the status") for checking what the app lists: in the store's zone, the date's spans are
// none when permanently or temporarily closed, a special date's own (closed: none, and it also
// ends the previous night's late span at midnight), else the weekday's entries; a span runs from
// start to end inclusive; end before start runs past midnight; start equal to end is all day.
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function local(now, timeZone) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (t) => parts.find((p) => p.type === t).value;
  const date = `${get("year")}-${get("month")}-${get("day")}`;
  return { date, min: (Number(get("hour")) % 24) * 60 + Number(get("minute")) };
}

const mins = (t) => (t ? Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)) : null);

function previousDate(date) {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** The spans of a local date, and whether the date is closed from its midnight. */
function spans(store, date) {
  const c = store.temporarily_closed;
  if (store.permanently_closed || (c && date >= c.from && (c.until === null || date <= c.until))) return { list: [], closed: true };
  const special = (store.special_hours ?? []).filter((h) => h.date === date);
  const entries = special.length > 0 ? special : store.workingHours.filter((h) => h.weekDay === DAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]);
  const list = [];
  for (const h of entries) {
    const s = mins(h.startTime);
    const e = mins(h.endTime);
    if (s !== null && e !== null) list.push([s, e]);
  }
  return { list, closed: special.some((h) => h.closed) };
}

export function openNow(store, now = new Date()) {
  const { date, min } = local(now, store.time_zone);
  const today = spans(store, date);
  if (today.closed) return false;
  for (const [s, e] of today.list) {
    if (s === e) return true;
    if (s < e ? min >= s && min <= e : min >= s) return true;
  }
  for (const [s, e] of spans(store, previousDate(date)).list) {
    if (e < s && min <= e) return true;
  }
  return false;
}
