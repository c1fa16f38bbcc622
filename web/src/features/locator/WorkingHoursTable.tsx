import { ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import type { WorkingHour } from "../../api/types";
import { WEEKDAYS } from "../../lib/constants";
import { cn } from "../../lib/cn";

export const NO_HOURS_NOTICE = "Attention Customers: This store does not have set business hours.";

/** Sunday to Saturday: "HH:MM - HH:MM", or "Closed" for a day without start and end. */
export function hoursRows(hours: readonly WorkingHour[]): { day: string; text: string }[] {
  return WEEKDAYS.map((day) => {
    const entries = hours.filter((h) => h.weekDay === day && h.startTime && h.endTime);
    return { day, text: entries.length === 0 ? "Closed" : entries.map((e) => `${e.startTime} - ${e.endTime}`).join(", ") };
  });
}

/** Whether the store has any working hours set. */
export function hasWorkingHours(hours: readonly WorkingHour[]): boolean {
  return hours.some((h) => h.startTime && h.endTime);
}

/** The collapsible "Working Hours" table, or the notice when the store has none. */
export function WorkingHoursTable({ hours }: { hours: readonly WorkingHour[] }) {
  const [open, setOpen] = useState(true);
  const id = useId();
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
              {hoursRows(hours).map((row) => (
                <tr key={row.day}>
                  <th scope="row" className="py-0.5 pr-4 text-left font-normal text-gray-700">
                    {row.day}
                  </th>
                  <td className="py-0.5 text-gray-900">{row.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{NO_HOURS_NOTICE}</p>
        )}
      </div>
    </section>
  );
}
