import { useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import {
  isPaused,
  pauseUntil,
  SERVICE_KEYS,
  SERVICE_TITLES,
  servicePatch,
  serviceValuesOf,
  validateService,
  type ServiceField,
  type ServiceKey,
  type ServicePatch,
  type ServiceValues,
} from "./servicesForm";
import { SpecialDatesFields } from "./SpecialDatesFields";
import { passes, weekOf, type Errors } from "./storeForm";
import type { BusinessStore, StorePatch } from "./types";
import { WeekFields } from "./WeekFields";

type Submit = (patch: StorePatch) => Promise<void>;

/** "Service hours": each service's own week and special dates, last order and a one-click pause, published at once. */
export function ServicesForm({ store, busy, onSubmit }: { store: BusinessStore; busy: boolean; onSubmit: Submit }) {
  return (
    <section aria-label="Service hours" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Service hours</h3>
      <p className="text-sm text-gray-700">
        Without hours of their own, services follow the store&apos;s hours. Delivery and curbside pickup stop while the store is closed. Published at once.
      </p>
      {SERVICE_KEYS.map((key) => (
        <ServiceSettings key={key} store={store} service={key} busy={busy} onSubmit={onSubmit} />
      ))}
    </section>
  );
}

function ServiceSettings({ store, service, busy, onSubmit }: { store: BusinessStore; service: ServiceKey; busy: boolean; onSubmit: Submit }) {
  const title = SERVICE_TITLES[service];
  const [values, setValues] = useState<ServiceValues>(() => serviceValuesOf(store, service));
  const [errors, setErrors] = useState<Errors<ServiceField>>({});
  const [date, setDate] = useState("");
  const [note, setNote] = useState("");
  const send = (patch: ServicePatch) => void onSubmit({ services: { [service]: patch } });
  const now = new Date();
  const paused = isPaused(store, service, now);
  const until = store.services[service].paused_until;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!passes(validateService(values), setErrors)) return;
    const patch = servicePatch(store, service, values);
    if (patch) send(patch);
  };
  const pause = (kind: "hour" | "closing" | "date") => send({ paused_until: pauseUntil(kind, new Date(), date), ...(note.trim() && { note: note.trim() }) });

  return (
    <form noValidate onSubmit={submit} aria-label={`${title} settings`} className="flex flex-col gap-2 border-t border-gray-200 pt-3">
      <h4 className="text-sm font-semibold text-gray-900">
        {title}
        {!store[flagOf(service)] && <span className="font-normal text-gray-600"> (not offered)</span>}
      </h4>
      <div role="group" aria-label={`Pause ${title.toLowerCase()}`} className="flex flex-wrap items-end gap-2">
        {paused && until ? (
          <>
            <p className="text-sm text-amber-900">
              Paused until {new Date(until).toLocaleString("en-US", { timeZone: store.time_zone, dateStyle: "medium", timeStyle: "short" })}
            </p>
            <Button type="button" variant="outline" disabled={busy} onClick={() => send({ paused_until: "" })}>
              Resume {title.toLowerCase()}
            </Button>
          </>
        ) : (
          <>
            <Field label={`${title} pause note`} value={note} onChange={(e) => setNote(e.target.value)} />
            <Button type="button" variant="outline" disabled={busy} onClick={() => pause("hour")}>
              Pause for 1 hour
            </Button>
            <Button type="button" variant="outline" disabled={busy} onClick={() => pause("closing")}>
              Pause until closing
            </Button>
            <Field label={`Pause ${title.toLowerCase()} until`} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
            <Button type="button" variant="outline" disabled={busy || date === ""} onClick={() => pause("date")}>
              Pause until date
            </Button>
          </>
        )}
      </div>
      <label className="flex items-center gap-2 text-sm text-gray-900">
        {/* Ticked, the week starts from the store's hours as they are now, not as they were when the
            page opened: an owner who has just saved new store hours gets those (issue #39, m28). */}
        <input
          type="checkbox"
          checked={values.own}
          onChange={(e) => {
            const own = e.target.checked;
            setValues((v) => ({ ...v, own, week: own && !v.own ? weekOf(store.workingHours) : v.week }));
          }}
        />
        {title} has its own hours
      </label>
      {values.own && (
        <WeekFields
          legend={`${title} hours`}
          week={values.week}
          errors={errors}
          onChange={(week) => setValues((v) => ({ ...v, week }))}
          label={(day, edge) => `${title} ${day} ${edge}`}
        />
      )}
      <SpecialDatesFields
        legend={`${title} special dates`}
        name={title}
        list={values.special}
        onChange={(special) => setValues((v) => ({ ...v, special }))}
      />
      <Field
        label={`${title}: last order, minutes before closing`}
        inputMode="numeric"
        value={values.lastOrder}
        error={errors.lastOrder}
        onChange={(e) => setValues((v) => ({ ...v, lastOrder: e.target.value }))}
      />
      <Button type="submit" disabled={busy} className="self-start">
        Save {title.toLowerCase()} hours
      </Button>
    </form>
  );
}

function flagOf(service: ServiceKey) {
  return ({ delivery: "is_delivery_available", curbside_pickup: "is_curbside_pickup_available", online_order: "is_order_online_available" } as const)[service];
}
