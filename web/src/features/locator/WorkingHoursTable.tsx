import { ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import type { ServicesNow, SpecialHour, WorkingHour } from "../../api/types";
import { WEEKDAYS } from "../../lib/constants";
import { cn } from "../../lib/cn";
import { spanText, zonedTime } from "../../lib/hours";
import { SERVICE_LABELS, SERVICE_NAMES } from "../../lib/services";
import { formatShortDate, upcomingSpecialHours } from "../../lib/status";

export const NO_HOURS_NOTICE = "Attention Customers: This store does not have set business hours.";

/** Sunday to Saturday: "9:00 AM – 9:00 PM" or "Open 24 hours" (lib/hours.ts spanText), or "Closed" for a day without start and end. */
export function hoursRows(hours: readonly WorkingHour[]): { day: string; text: string }[] {
  return WEEKDAYS.map((day) => {
    const entries = hours.filter((h) => h.weekDay === day && h.startTime && h.endTime);
    return { day, text: entries.length === 0 ? "Closed" : entries.map((e) => spanText(e.startTime ?? "", e.endTime ?? "")).join(", ") };
  });
}

/** Whether the store has any working hours set. */
export function hasWorkingHours(hours: readonly WorkingHour[]): boolean {
  return hours.some((h) => h.startTime && h.endTime);
}

/** The special dates as rows: "Thu, Nov 26" and "Closed · Thanksgiving" or "9:00 AM – 2:00 PM · Christmas Eve". */
export function specialRows(special: readonly SpecialHour[]): { date: string; label: string; text: string }[] {
  const byDate = new Map<string, SpecialHour[]>();
  for (const h of special) byDate.set(h.date, [...(byDate.get(h.date) ?? []), h]);
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, entries]) => {
      const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()] ?? "";
      const hoursText = entries.some((e) => e.closed) ? "Closed" : entries.map((e) => spanText(e.startTime ?? "", e.endTime ?? "")).join(", ");
      const note = entries.find((e) => e.note)?.note;
      return { date, label: `${weekday.slice(0, 3)}, ${formatShortDate(date)}`, text: note ? `${hoursText} · ${note}` : hoursText };
    });
}

/** A small captioned table of labelled rows under the week (special hours, a service's week). */
export function CaptionTable({ caption, rows }: { caption: string; rows: readonly { key: string; label: string; text: string }[] }) {
  return (
    <table className="mt-3 w-full text-sm" aria-label={caption}>
      <caption className="pb-1 text-left font-semibold text-gray-900">{caption}</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row" className="py-0.5 pr-4 text-left font-normal text-gray-700">
              {row.label}
            </th>
            <td className="py-0.5 text-gray-900">{row.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The weeks of the offered services that keep hours of their own, under the store's week. */
export function ServiceWeeks({ services }: { services: ServicesNow | undefined }) {
  if (!services) return null;
  return (
    <>
      {SERVICE_NAMES.map((name) => {
        const s = services[name];
        if (!s?.offered || !s.hours || s.hours.length === 0) return null;
        const caption = `${SERVICE_LABELS[name]} hours`;
        return <CaptionTable key={name} caption={caption} rows={hoursRows(s.hours).map((r) => ({ key: r.day, label: r.day, text: r.text }))} />;
      })}
    </>
  );
}

/**
 * The collapsible "Working Hours" table (today marked, in the store's zone, when `now` is given),
 * or the notice when the store has no weekly hours, then the special hours to come (92 days with the
 * whole store, schedule.SpecialWindowDays).
 */
export function WorkingHoursTable({
  store,
  now,
}: {
  store: { workingHours: readonly WorkingHour[]; special_hours?: readonly SpecialHour[]; time_zone?: string | null; services?: ServicesNow };
  now?: Date;
}) {
  const hours = store.workingHours;
  const [open, setOpen] = useState(true);
  const id = useId();
  const todayName = now ? WEEKDAYS[zonedTime(now, store.time_zone).weekday] : undefined;
  const special = specialRows(now ? upcomingSpecialHours(store.special_hours, store.time_zone, now) : (store.special_hours ?? []));
  return (
    <section className="border-t border-gray-200 pt-3">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
          className="flex w-full items-center justify-between text-left font-semibold text-gray-900"
        >
          Working Hours
          <ChevronDown aria-hidden="true" className={cn("size-4 transition-transform", open && "rotate-180")} />
        </button>
      </h3>
      <div id={id} hidden={!open} className="mt-2">
        {hasWorkingHours(hours) ? (
          <table className="w-full text-sm">
            <tbody>
              {hoursRows(hours).map((row) => {
                const today = row.day === todayName;
                return (
                  <tr key={row.day} aria-current={today ? "date" : undefined} className={cn(today && "font-semibold")}>
                    <th scope="row" className={cn("py-0.5 pr-4 text-left text-gray-700", today ? "font-semibold" : "font-normal")}>
                      {row.day}
                      {today && <span className="sr-only"> (today)</span>}
                    </th>
                    <td className="py-0.5 text-gray-900">{row.text}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : (
          <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{NO_HOURS_NOTICE}</p>
        )}
        {special.length > 0 && <CaptionTable caption="Special hours" rows={special.map((r) => ({ key: r.date, label: r.label, text: r.text }))} />}
        <ServiceWeeks services={store.services} />
      </div>
    </section>
  );
}
