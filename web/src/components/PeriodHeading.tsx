import { Button } from "./ui/button";

/** A section's heading with the periods to choose from ("7 days", "30 days", ...): the owner's insights and the operator's demand. */
export function PeriodHeading<P extends number>({ id, title, periods, days, onDays }: { id: string; title: string; periods: readonly P[]; days: P; onDays: (d: P) => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 id={id} className="text-base font-semibold text-gray-900">
        {title}
      </h2>
      <div role="group" aria-label="Period" className="flex gap-1">
        {periods.map((d) => (
          <Button key={d} variant="chip" aria-pressed={days === d} onClick={() => onDays(d)}>
            {d} days
          </Button>
        ))}
      </div>
    </div>
  );
}
