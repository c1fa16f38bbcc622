import type { ServicesNow } from "../../api/types";
import { SERVICE_LABELS, SERVICE_NAMES, serviceLines } from "../../lib/services";
import { CaptionTable, hoursRows } from "./WorkingHoursTable";

/** A line per offered service: "Delivery until 8:00 PM · order by 7:30 PM" (lib/services.ts). */
export function ServiceLines({ store, now }: { store: { services?: ServicesNow; time_zone?: string | null }; now: Date }) {
  const lines = serviceLines(store, now);
  if (lines.length === 0) return null;
  return (
    <ul aria-label="Services" className="mt-1 text-sm text-gray-700">
      {lines.map(({ name, line }) => (
        <li key={name}>{line}</li>
      ))}
    </ul>
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
