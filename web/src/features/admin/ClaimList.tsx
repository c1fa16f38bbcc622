import { cn } from "../../lib/cn";
import { STATUS_LABELS } from "./messages";
import type { Claim, ClaimFilter } from "./types";

const FILTERS: ClaimFilter[] = ["pending", "approved", "rejected", "all"];

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The status filter: toggle buttons (one pressed). */
export function StatusFilter({ value, onChange }: { value: ClaimFilter; onChange: (value: ClaimFilter) => void }) {
  return (
    <div role="group" aria-label="Show claims" className="flex flex-wrap gap-2">
      {FILTERS.map((f) => (
        <button
          key={f}
          type="button"
          aria-pressed={value === f}
          onClick={() => onChange(f)}
          className="rounded-full border border-gray-300 bg-white px-3 py-1.5 text-sm text-gray-800 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 aria-pressed:border-emerald-700 aria-pressed:bg-emerald-700 aria-pressed:text-white"
        >
          {STATUS_LABELS[f]}
        </button>
      ))}
    </div>
  );
}

/** The claims, oldest first; every field is rendered as text. */
export function ClaimList({
  claims,
  selectedId,
  onSelect,
}: {
  claims: readonly Claim[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  return (
    <ul aria-label="Claims" className="flex flex-col gap-2">
      {claims.map((c) => (
        <li key={c.id}>
          <button
            type="button"
            aria-current={c.id === selectedId ? "true" : undefined}
            onClick={() => onSelect(c.id)}
            className={cn(
              "flex w-full flex-col items-start gap-0.5 rounded-md border px-3 py-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700",
              c.id === selectedId ? "border-emerald-700 bg-emerald-50" : "border-gray-300 bg-white hover:bg-gray-50",
            )}
          >
            <span className="font-medium break-words text-gray-900 [overflow-wrap:anywhere]">{c.business_name}</span>
            <span className="text-sm break-words text-gray-700 [overflow-wrap:anywhere]">
              {[c.city, c.state, c.country].filter(Boolean).join(", ")}
            </span>
            <span className="flex flex-wrap gap-2 text-xs text-gray-700">
              <span>
                #{c.id} · {formatDate(c.created_at)}
              </span>
              {c.status !== "pending" && <span className="font-medium">{STATUS_LABELS[c.status]}</span>}
              {c.duplicate_of_store_id !== null && <span className="font-medium text-amber-800">Possible duplicate</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
