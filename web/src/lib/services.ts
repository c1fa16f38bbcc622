import type { ServiceName, ServicesNow, ServiceState } from "../api/types";
import { WEEKDAYS } from "./constants";
import { zonedDay } from "./hours";
import { formatClock } from "./status";

/**
 * The lines a shopper reads about a store's services (docs/product-rules.md, "Services"): the
 * server applies the service rule (schedule.Schedule.ServiceStatus, internal/schedule/service_status.go)
 * and sends each service's state; these texts read it at the clock, so a line moves on when a
 * last order or a pause passes without asking the server again.
 */

export const SERVICE_NAMES: readonly ServiceName[] = ["delivery", "curbside_pickup", "online_order"];

export const SERVICE_LABELS: Record<ServiceName, string> = {
  delivery: "Delivery",
  curbside_pickup: "Curbside pickup",
  online_order: "Online orders",
};

const MINUTE = 60_000;

/** Whether the service takes orders at `now`: the server's answer, moved on by the clock past a last order or a pause. */
export function serviceAvailable(state: ServiceState | undefined, now: Date = new Date()): boolean {
  if (!state?.offered) return false;
  const t = now.getTime();
  if (state.available_now) {
    const last = state.last_order_at ?? state.until;
    return last === undefined || t < Date.parse(last) + MINUTE;
  }
  return state.next_start !== undefined && t >= Date.parse(state.next_start);
}

/** "2:00 PM" today, "Sat 9:00 AM" another day, in the store's zone. */
function when(instant: string, timeZone: string | null | undefined, now: Date): { text: string; today: boolean } {
  const at = zonedDay(new Date(instant), timeZone);
  const today = zonedDay(now, timeZone).day === at.day;
  const weekday = WEEKDAYS[(((at.day % 7) + 7 + 4) % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6];
  return { text: today ? formatClock(at.minutes) : `${weekday.slice(0, 3)} ${formatClock(at.minutes)}`, today };
}

/**
 * The panel's line for one service at `now`, e.g. "Delivery until 8:00 PM · order by 7:30 PM" or
 * "Curbside pickup paused today · back at 2:00 PM"; null when the store does not offer it.
 */
export function serviceLine(name: ServiceName, state: ServiceState | undefined, timeZone: string | null | undefined, now: Date = new Date()): string | null {
  if (!state?.offered) return null;
  const label = SERVICE_LABELS[name];
  const t = now.getTime();
  if (state.paused_until !== undefined && t < Date.parse(state.paused_until)) {
    const back = state.next_start ?? state.paused_until;
    const b = when(back, timeZone, now);
    const p = when(state.paused_until, timeZone, now);
    const paused = p.today ? `${label} paused today` : `${label} paused`;
    const line = b.today ? `${paused} · back at ${b.text}` : `${paused} · back ${b.text}`;
    return state.note ? `${line} · ${state.note}` : line;
  }
  if (serviceAvailable(state, now)) {
    if (state.until === undefined) return `${label} available now`;
    const until = `${label} until ${when(state.until, timeZone, now).text}`;
    return state.last_order_at === undefined ? until : `${until} · order by ${when(state.last_order_at, timeZone, now).text}`;
  }
  if (state.until !== undefined && state.last_order_at !== undefined && t < Date.parse(state.until) + MINUTE) {
    const last = `${label} · last orders taken ${when(state.last_order_at, timeZone, now).text}`;
    return state.next_start === undefined ? last : `${last} · next ${when(state.next_start, timeZone, now).text}`;
  }
  if (state.next_start === undefined) return `${label} unavailable`;
  return `${label} from ${when(state.next_start, timeZone, now).text}`;
}

/** Every offered service's line, in the order of SERVICE_NAMES. */
export function serviceLines(store: { services?: ServicesNow; time_zone?: string | null }, now: Date = new Date()): { name: ServiceName; line: string }[] {
  const out: { name: ServiceName; line: string }[] = [];
  for (const name of SERVICE_NAMES) {
    const line = serviceLine(name, store.services?.[name], store.time_zone, now);
    if (line !== null) out.push({ name, line });
  }
  return out;
}
