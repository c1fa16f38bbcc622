import type { ServicesNow } from "../../api/types";
import { serviceLines } from "../../lib/services";

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
