import { DAYS, type Day, type DayHours, type Errors } from "./storeForm";

/** A week of opening and closing times, a day closed when unticked (the store's week and each service's). */
export function WeekFields({
  legend,
  week,
  errors,
  onChange,
  label = (day, edge) => `${day} ${edge}`,
}: {
  legend: string;
  week: Record<Day, DayHours>;
  errors: Errors<`week.${Day}`>;
  onChange: (week: Record<Day, DayHours>) => void;
  /** The accessible name of a time input ("Monday opens"). */
  label?: (day: Day, edge: "opens" | "closes") => string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-gray-900">{legend}</legend>
      {DAYS.map((day) => {
        const d = week[day];
        const setDay = (next: Partial<DayHours>) => onChange({ ...week, [day]: { ...d, ...next } });
        const error = errors[`week.${day}`];
        return (
          <div key={day} className="flex flex-wrap items-center gap-2">
            <label className="flex w-32 items-center gap-2 text-sm text-gray-900">
              <input type="checkbox" checked={d.open} onChange={(e) => setDay({ open: e.target.checked })} />
              {day}
            </label>
            {d.open ? (
              <>
                <TimeInput label={label(day, "opens")} value={d.start} invalid={!!error} onChange={(start) => setDay({ start })} />
                <span aria-hidden="true">–</span>
                <TimeInput label={label(day, "closes")} value={d.end} invalid={!!error} onChange={(end) => setDay({ end })} />
              </>
            ) : (
              <span className="text-sm text-gray-600">Closed</span>
            )}
            {error && (
              <p role="alert" className="w-full text-sm text-red-700">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

function TimeInput({ label, value, invalid, onChange }: { label: string; value: string; invalid: boolean; onChange: (value: string) => void }) {
  return (
    <input
      type="time"
      aria-label={label}
      value={value}
      aria-invalid={invalid || undefined}
      onChange={(e) => onChange(e.target.value)}
      className="rounded-md border border-gray-400 px-2 py-1 text-sm"
    />
  );
}
