import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { addEntry, describeEntry, emptyDate, entryOf, validateNewDate, type NewDate, type SpecialEntry } from "./holidayForm";
import { passes } from "./storeForm";

/**
 * Special dates being edited (the store's own, and each service's): the list with a Remove button
 * per date, and a new date (closed all day, or open from a time to a time, with a note) checked
 * before it joins the list. `name` prefixes the inputs' names ("Delivery date") where a page has
 * several of these.
 */
export function SpecialDatesFields({
  legend,
  list,
  onChange,
  name = "",
}: {
  legend: string;
  list: SpecialEntry[];
  onChange: (list: SpecialEntry[]) => void;
  name?: string;
}) {
  const [draft, setDraft] = useState<NewDate>(emptyDate);
  const [errors, setErrors] = useState<ReturnType<typeof validateNewDate>>({});
  const setD = (next: Partial<NewDate>) => setDraft((d) => ({ ...d, ...next }));
  // "Date" for the store, "Delivery date" for a service: the first word keeps its capital.
  const label = (text: string) => (name ? `${name} ${text.toLowerCase()}` : text);

  const add = () => {
    if (!passes(validateNewDate(draft), setErrors)) return;
    onChange(addEntry(list, entryOf(draft)));
    setDraft(emptyDate);
  };

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-gray-900">{legend}</legend>
      {list.length === 0 ? (
        <p className="text-sm text-gray-600">No special dates.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {list.map((e, i) => (
            <li key={`${e.date}-${i}`} className="flex items-center gap-2 text-sm text-gray-900">
              <span>{describeEntry(e)}</span>
              <Button type="button" variant="outline" onClick={() => onChange(list.filter((_, j) => j !== i))} aria-label={`Remove ${describeEntry(e)}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <Field label={label("Date")} type="date" value={draft.date} error={errors.date} onChange={(e) => setD({ date: e.target.value })} />
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input type="checkbox" checked={draft.closed} onChange={(e) => setD({ closed: e.target.checked })} />
          {label("Closed all day")}
        </label>
        {!draft.closed && (
          <>
            <Field label={label("Opens")} type="time" value={draft.start} onChange={(e) => setD({ start: e.target.value })} />
            <Field label={label("Closes")} type="time" value={draft.end} onChange={(e) => setD({ end: e.target.value })} />
          </>
        )}
        <Field label={label("Note")} value={draft.note} error={errors.note} onChange={(e) => setD({ note: e.target.value })} />
        <Button type="button" variant="outline" onClick={add}>
          Add date
        </Button>
      </div>
      {errors.times && (
        <p role="alert" className="text-sm text-red-700">
          {errors.times}
        </p>
      )}
    </fieldset>
  );
}
