import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { formatCoordinate, parseCoordinates } from "../../components/location/coordinates";
import { LocationEditor } from "../../components/location/LocationEditor";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { verifiedLabel } from "../../lib/verified";
import { patchStore } from "./api/patch-store";
import { HolidayForm } from "./HolidayForm";
import { LicenceNumberForm } from "./LicenceNumberForm";
import { PhotoUpload } from "./PhotoUpload";
import { ServicesForm } from "./ServicesForm";
import { WeekFields } from "./WeekFields";
import { verifyStore } from "./api/verify-store";
import { CHANGE_REQUESTED, NOTHING_CHANGED, SAVED, VERIFIED } from "./messages";
import {
  detailsOf,
  detailsPatch,
  locationOf,
  locationPatch,
  validateDetails,
  validateLocation,
  passes,
  type DetailsField,
  type DetailsValues,
  type Errors,
  type LocationValues,
} from "./storeForm";
import type { BusinessStore, StorePatch } from "./types";
import { Notice } from "../../components/ui/outcome";

/** A part's outcome: the notice (a live region, present while empty) and the failure, scrolled into view when they come. */
function SaveOutcome({ notice, failure }: { notice: string; failure: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice || failure) ref.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [notice, failure]);
  return (
    <div ref={ref} className="flex flex-col gap-2 scroll-mb-4">
      <Notice notice={notice} />
      {failure && <FormError>{failure}</FormError>}
    </div>
  );
}

const saveFailure = (error: unknown) => failureText(error, "The server could not be reached. Please try again.");

const flags = [
  ["is_delivery_available", "Delivery"],
  ["is_order_online_available", "Order online"],
  ["is_curbside_pickup_available", "Curbside pickup"],
] as const;

/** The parts of a store's dashboard that save, each with its outcome shown beside it. */
type Part = "verify" | "details" | "holiday" | "services" | "location";

/**
 * One store of the dashboard: its published details, a change request for name/address/position, and the confirm button.
 * What a save came to is said right under the part that was saved (and scrolled into view), not at the top of the
 * store: the forms are taller than a screen, so a confirmation up there went unseen (issue 39, m26).
 */
export function StoreEditor({ store, onSaved, now }: { store: BusinessStore; onSaved: (store: BusinessStore) => void; now: Date }) {
  const [part, setPart] = useState<Part>("verify");
  const [notice, setNoticeText] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setNotice = (at: Part, text: string) => {
    setPart(at);
    setFailure(null);
    setNoticeText(text);
  };
  /** The outcome line of a part: live regions for all, text in the one that was saved last. */
  const outcome = (at: Part) => <SaveOutcome notice={at === part ? notice : ""} failure={at === part ? failure : null} />;

  const run = async (at: Part, work: () => Promise<{ store: BusinessStore; message: string }>) => {
    setBusy(true);
    setPart(at);
    setFailure(null);
    setNoticeText("");
    try {
      const { store: saved, message } = await work();
      onSaved(saved);
      setNoticeText(message);
    } catch (error) {
      setFailure(saveFailure(error));
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby={`store-${store.id}-title`} className="flex flex-col gap-6">
      <div>
        <h2 id={`store-${store.id}-title`} className="text-xl font-semibold text-gray-900">
          {store.name}
        </h2>
        <p className="text-sm text-gray-700">{[store.address, store.city, store.state, store.postal_code].filter(Boolean).join(", ")}</p>
        <p className="text-sm text-gray-600">{verifiedLabel(store.last_verified_at, now, store.time_zone)}</p>
      </div>
      <div className="flex flex-col gap-3">
        <div>
          <Button
            variant="outline"
            disabled={busy}
            onClick={() => void run("verify", async () => ({ store: await verifyStore(store.id), message: VERIFIED }))}
          >
            Confirm these details are correct
          </Button>
        </div>
        {outcome("verify")}
      </div>
      <div className="flex flex-col gap-3">
        <DetailsForm
          key={`details-${store.id}`}
          store={store}
          busy={busy}
          onSubmit={(patch) => run("details", async () => ({ ...(await patchStore(store.id, patch)), message: SAVED }))}
          onNothing={() => setNotice("details", NOTHING_CHANGED)}
        />
        {outcome("details")}
      </div>
      <div className="flex flex-col gap-3">
        <HolidayForm
          key={`holiday-${store.id}`}
          store={store}
          busy={busy}
          onSubmit={(patch) => run("holiday", async () => await patchStore(store.id, patch))}
          onNothing={() => setNotice("holiday", NOTHING_CHANGED)}
        />
        {outcome("holiday")}
      </div>
      <div className="flex flex-col gap-3">
        <ServicesForm
          key={`services-${store.id}`}
          store={store}
          busy={busy}
          onSubmit={(patch) => run("services", async () => await patchStore(store.id, patch))}
        />
        {outcome("services")}
      </div>
      <LicenceNumberForm key={`licence-${store.id}`} storeId={store.id} />
      <PhotoUpload key={`photo-${store.id}`} store={store} onUploaded={(image) => onSaved({ ...store, image })} />
      <div className="flex flex-col gap-3">
        <LocationForm
          key={`location-${store.id}`}
          store={store}
          busy={busy}
          onSubmit={(patch) =>
            run("location", async () => {
              const answer = await patchStore(store.id, patch);
              return { store: answer.store, message: answer.change_request ? CHANGE_REQUESTED : NOTHING_CHANGED };
            })
          }
          onNothing={() => setNotice("location", NOTHING_CHANGED)}
        />
        {outcome("location")}
      </div>
    </section>
  );
}

interface FormProps {
  store: BusinessStore;
  busy: boolean;
  onSubmit: (patch: ReturnType<typeof detailsPatch>) => Promise<void>;
  onNothing: () => void;
}

/**
 * A store form's submit: it shows what validate finds; else it sends the patch of what changed, or
 * says that nothing did.
 */
function submitStoreForm<V, K extends string>(
  values: V,
  validate: (values: V) => Errors<K>,
  setErrors: (found: Errors<K>) => void,
  patchOf: (values: V) => StorePatch,
  onSubmit: FormProps["onSubmit"],
  onNothing: () => void,
) {
  return (event: FormEvent) => {
    event.preventDefault();
    if (!passes(validate(values), setErrors)) return;
    const patch = patchOf(values);
    if (Object.keys(patch).length === 0) return onNothing();
    void onSubmit(patch);
  };
}

function DetailsForm({ store, busy, onSubmit, onNothing }: FormProps) {
  const [values, setValues] = useState<DetailsValues>(() => detailsOf(store));
  const [errors, setErrors] = useState<Errors<DetailsField>>({});
  const set = <K extends keyof DetailsValues>(key: K, value: DetailsValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = submitStoreForm(values, validateDetails, setErrors, (v) => detailsPatch(store, v), onSubmit, onNothing);

  return (
    <form noValidate onSubmit={submit} aria-label="Hours and contact" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Hours and contact</h3>
      <p className="text-sm text-gray-700">Published at once.</p>
      <WeekFields legend="Weekly hours" week={values.week} errors={errors} onChange={(week) => set("week", week)} />
      {/* The line under the name is made from the weekly hours whenever there are any (schedule.ShownHours): a
          text written for former hours can never contradict them (issue #39, M2). */}
      <Field
        label="Hours text"
        hint="Shown under the store's name only while no weekly hours are set; otherwise shoppers read a line made from the weekly hours."
        value={values.hours}
        error={errors.hours}
        onChange={(e) => set("hours", e.target.value)}
      />
      <Field label="Phone number" type="tel" value={values.phone_number} error={errors.phone_number} onChange={(e) => set("phone_number", e.target.value)} />
      <Field label="Website" type="url" value={values.website} error={errors.website} onChange={(e) => set("website", e.target.value)} />
      <fieldset className="flex flex-wrap gap-4">
        <legend className="text-sm font-medium text-gray-900">Services</legend>
        {flags.map(([key, label]) => (
          <label key={key} className="flex items-center gap-2 text-sm text-gray-900">
            <input type="checkbox" checked={values[key]} onChange={(e) => set(key, e.target.checked)} />
            {label}
          </label>
        ))}
      </fieldset>
      <label className="flex items-start gap-2 text-sm text-gray-900">
        <input type="checkbox" className="mt-1" checked={values.adult_only} onChange={(e) => set("adult_only", e.target.checked)} />
        <span>
          Adult-only store
          <span className="block text-gray-700">No one under the minimum age may enter. Some local rules exempt such stores.</span>
        </span>
      </label>
      <Button type="submit" disabled={busy} className="self-start">
        Save and publish
      </Button>
    </form>
  );
}

function LocationForm({ store, busy, onSubmit, onNothing }: FormProps) {
  const [values, setValues] = useState<LocationValues>(() => locationOf(store));
  const [errors, setErrors] = useState<Errors<keyof LocationValues>>({});
  const field = (key: keyof LocationValues, label: string) => (
    <Field label={label} value={values[key]} error={errors[key]} onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))} />
  );

  const submit = submitStoreForm(values, validateLocation, setErrors, (v) => locationPatch(store, v), onSubmit, onNothing);

  // The pin: where the fields say, or the store's published position while they say nothing valid.
  const { latitude, longitude } = values;
  const position = useMemo(
    () => parseCoordinates(latitude, longitude) ?? { latitude: store.latitude, longitude: store.longitude },
    [latitude, longitude, store.latitude, store.longitude],
  );
  const pending = store.pending_change_request;
  return (
    <form noValidate onSubmit={submit} aria-label="Name, address and position" className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="text-base font-semibold text-gray-900">Name, address and position</h3>
      <p className="text-sm text-gray-700">A moderator checks these changes before they are published.</p>
      {pending && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          A change request sent on {new Date(pending.created_at).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" })} is
          waiting for a moderator; sending another replaces it.
        </p>
      )}
      {field("name", "Store name")}
      {field("address", "Address")}
      <div className="grid gap-3 sm:grid-cols-3">
        {field("city", "City")}
        {field("state", "State")}
        {field("postal_code", "Postal code")}
      </div>
      <p className="text-sm text-gray-700">Drag the pin, click the map or type the coordinates to move the store.</p>
      <LocationEditor
        latitude={latitude}
        longitude={longitude}
        position={position}
        error={errors.latitude ?? errors.longitude}
        onMarkerMove={(at) => setValues((v) => ({ ...v, latitude: formatCoordinate(at.latitude), longitude: formatCoordinate(at.longitude) }))}
        onLatitudeChange={(text) => setValues((v) => ({ ...v, latitude: text }))}
        onLongitudeChange={(text) => setValues((v) => ({ ...v, longitude: text }))}
      />
      <Button type="submit" variant="outline" disabled={busy} className="self-start">
        Send to a moderator
      </Button>
    </form>
  );
}
