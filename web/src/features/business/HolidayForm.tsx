import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import {
  addEntry,
  closureOf,
  emptyDate,
  entryOf,
  holidayPatch,
  validateClosure,
  validateNewDate,
  type ClosureValues,
  type NewDate,
  type SpecialEntry,
} from "./holidayForm";
import type { BusinessStore, StorePatch } from "./types";

const describe = (e: SpecialEntry) =>
  `${e.date}: ${e.closed ? "closed" : `${e.startTime ?? ""}–${e.endTime ?? ""}`}${e.note ? ` · ${e.note}` : ""}`;

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
  const [draft, setDraft] = useState<NewDate>(emptyDate);
  const [draftErrors, setDraftErrors] = useState<ReturnType<typeof validateNewDate>>({});
  const [closure, setClosure] = useState<ClosureValues>(() => closureOf(store));
  const [closureErrors, setClosureErrors] = useState<ReturnType<typeof validateClosure>>({});
  const setD = (next: Partial<NewDate>) => setDraft((d) => ({ ...d, ...next }));
  const setC = (next: Partial<ClosureValues>) => setClosure((c) => ({ ...c, ...next }));

  const add = () => {
    const found = validateNewDate(draft);
    setDraftErrors(found);
    if (Object.keys(found).length > 0) return;
    setList((l) => addEntry(l, entryOf(draft)));
    setDraft(emptyDate);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateClosure(closure);
    setClosureErrors(found);
    if (Object.keys(found).length > 0) return;
    const patch = holidayPatch(store, list, closure);
    if (Object.keys(patch).length === 0) return onNothing();
    void onSubmit(patch);
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Holiday hours and closures" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Holiday hours and closures</h3>
      <p className="text-sm text-gray-700">Dates in the store's time zone ({store.time_zone}). Published at once.</p>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-gray-900">Special dates</legend>
        {list.length === 0 ? (
          <p className="text-sm text-gray-600">No special dates.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {list.map((e, i) => (
              <li key={`${e.date}-${i}`} className="flex items-center gap-2 text-sm text-gray-900">
                <span>{describe(e)}</span>
                <Button type="button" variant="outline" onClick={() => setList((l) => l.filter((_, j) => j !== i))} aria-label={`Remove ${describe(e)}`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Date" type="date" value={draft.date} error={draftErrors.date} onChange={(e) => setD({ date: e.target.value })} />
          <label className="flex items-center gap-2 text-sm text-gray-900">
            <input type="checkbox" checked={draft.closed} onChange={(e) => setD({ closed: e.target.checked })} />
            Closed all day
          </label>
          {!draft.closed && (
            <>
              <Field label="Opens" type="time" value={draft.start} onChange={(e) => setD({ start: e.target.value })} />
              <Field label="Closes" type="time" value={draft.end} onChange={(e) => setD({ end: e.target.value })} />
            </>
          )}
          <Field label="Note" value={draft.note} error={draftErrors.note} onChange={(e) => setD({ note: e.target.value })} />
          <Button type="button" variant="outline" onClick={add}>
            Add date
          </Button>
        </div>
        {draftErrors.times && (
          <p role="alert" className="text-sm text-red-700">
            {draftErrors.times}
          </p>
        )}
      </fieldset>
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
