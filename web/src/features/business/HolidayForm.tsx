import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { closureOf, holidayPatch, validateClosure, type ClosureValues, type SpecialEntry } from "./holidayForm";
import { passes } from "./storeForm";
import { SpecialDatesFields } from "./SpecialDatesFields";
import type { BusinessStore, StorePatch } from "./types";

/** "Holiday hours and closures": special dates (closed, or open in spans) and a temporary closure, published at once. */
export function HolidayForm({
  store,
  busy,
  onSubmit,
  onNothing,
}: {
  store: BusinessStore;
  busy: boolean;
  onSubmit: (patch: StorePatch) => Promise<void>;
  onNothing: () => void;
}) {
  const [list, setList] = useState<SpecialEntry[]>(() => store.special_hours);
  const [closure, setClosure] = useState<ClosureValues>(() => closureOf(store));
  const [closureErrors, setClosureErrors] = useState<ReturnType<typeof validateClosure>>({});
  const setC = (next: Partial<ClosureValues>) => setClosure((c) => ({ ...c, ...next }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!passes(validateClosure(closure), setClosureErrors)) return;
    const patch = holidayPatch(store, list, closure);
    if (Object.keys(patch).length === 0) return onNothing();
    void onSubmit(patch);
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Holiday hours and closures" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Holiday hours and closures</h3>
      <p className="text-sm text-gray-700">Dates in the store's time zone ({store.time_zone}). Published at once.</p>
      <SpecialDatesFields legend="Special dates" list={list} onChange={setList} />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-gray-900">Temporary closure</legend>
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input type="checkbox" checked={closure.closed} onChange={(e) => setC({ closed: e.target.checked })} />
          Temporarily closed
        </label>
        {closure.closed && (
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Closed from" type="date" value={closure.from} error={closureErrors.from} onChange={(e) => setC({ from: e.target.value })} />
            <Field
              label="Until (leave empty: until further notice)"
              type="date"
              value={closure.until}
              error={closureErrors.until}
              onChange={(e) => setC({ until: e.target.value })}
            />
            <Field label="Closure note" value={closure.note} error={closureErrors.note} onChange={(e) => setC({ note: e.target.value })} />
          </div>
        )}
      </fieldset>
      <Button type="submit" disabled={busy} className="self-start">
        Save holiday hours and closures
      </Button>
    </form>
  );
}
