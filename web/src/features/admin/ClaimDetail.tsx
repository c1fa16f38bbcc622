import { useMutation } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { approveClaim } from "./api/approve-claim";
import { decideClaimConsent } from "./api/claim-consent";
import { rejectClaim } from "./api/reject-claim";
import { formatDate } from "./ClaimList";
import { formatCoordinate, parseCoordinates } from "../../components/location/coordinates";
import { LocationEditor } from "../../components/location/LocationEditor";
import {
  centreOnlyText,
  COORDINATES_INVALID,
  distanceKm,
  formatMiles,
  MODERATOR_NO_STREETS,
  NO_SUGGESTION,
  REASON_REQUIRED,
  SERVICE_LABELS,
  STATUS_LABELS,
} from "./messages";
import type { Claim, ClaimField, Coordinates, ExistingStore } from "./types";
import { isUnauthorized } from "./unauthorized";

const REASON_MAX = 1000;

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.status === 0 ? "the server could not be reached" : error.message;
  return "unexpected error";
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-gray-100 py-2 sm:flex-row sm:gap-4">
      <dt className="text-sm font-medium text-gray-700 sm:w-40 sm:shrink-0">{label}</dt>
      <dd className="whitespace-pre-wrap break-words text-gray-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** Text or an em dash for an empty field (every claim field is text, never HTML). */
const text = (value: string) => (value.trim() === "" ? "—" : value);

export interface ClaimDetailProps {
  claim: Claim;
  headingRef?: Ref<HTMLHeadingElement>;
  /** A decision was recorded (or the claim turned out to be decided already): refresh and report. */
  onDecided: (message: string, claim?: Claim) => void;
  /** The moderator session ended. */
  onUnauthorized: () => void;
}

/** One claim: all its fields as text, warnings, and for a pending claim the map, Approve and Reject. */
export function ClaimDetail({ claim, headingRef, onDecided, onUnauthorized }: ClaimDetailProps) {
  const suggested = claim.suggested_location;
  return (
    <section aria-labelledby={`claim-${claim.id}-heading`} className="flex flex-col gap-4">
      <div>
        <h2
          id={`claim-${claim.id}-heading`}
          ref={headingRef}
          tabIndex={-1}
          className="text-xl font-semibold break-words text-gray-900 [overflow-wrap:anywhere] focus:outline-none"
        >
          {claim.business_name}
        </h2>
        <p className="text-sm text-gray-700">
          Claim #{claim.id} · {STATUS_LABELS[claim.status]} · submitted {formatDate(claim.created_at)}
        </p>
      </div>

      {claim.existing_store && <ExistingStoreNote store={claim.existing_store} />}

      {claim.duplicate_of_store_id !== null && (
        <div className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <strong>Possible duplicate:</strong> a published store has the same name and postal code (
          <a className="underline" href={`/?store=${claim.duplicate_of_store_id}`} target="_blank" rel="noopener noreferrer">
            store #{claim.duplicate_of_store_id}
          </a>
          ). Check it before approving.
        </div>
      )}

      <dl>
        <Row label="Business name">{text(claim.business_name)}</Row>
        <Row label="Category">{text(claim.category)}</Row>
        <Row label="Email">{text(claim.email)}</Row>
        <Row label="Phone">{text(claim.phone)}</Row>
        <Row label="Website">{text(claim.website)}</Row>
        <Row label="Address">{text(claim.address1)}</Row>
        <Row label="City">{text(claim.city)}</Row>
        <Row label="State">{text(claim.state)}</Row>
        <Row label="Postal code">{text(claim.postal_code)}</Row>
        <Row label="Country">{text(claim.country)}</Row>
        <Row label="Working hours">{text(claim.working_hours)}</Row>
        <Row label="Hours parsed">
          {claim.working_hours_parsed ? "Yes: read as weekly hours" : "No: could not be read as weekly hours"}
        </Row>
        <HoursNotes label="Hours to check" notes={claim.working_hours_notes} />
        {claim.service_hours_read.map((read) => (
          <ServiceHoursRows key={read.service} claim={claim} read={read} />
        ))}
        <Row label="Licence number">{licenceText(claim)}</Row>
        {claim.adult_only && <Row label="Store kind">Adult-only store (set on the store when approved; docs/rules.md)</Row>}
        {claim.status === "pending" && (
          <Row label="Geocoded location">
            {suggested
              ? `${formatCoordinate(suggested.latitude)}, ${formatCoordinate(suggested.longitude)} (${suggested.precision_text})${suggested.approximate ? ": not the store; it is published only once a person places the pin" : ""}`
              : "Not found"}
          </Row>
        )}
        {ownerPin(claim) && <Row label="Owner's pin">{ownerPinText(claim)}</Row>}
        {claim.decided_at !== null && <Row label="Decided">{`${formatDate(claim.decided_at)} by ${claim.decided_by}`}</Row>}
        {claim.status === "rejected" && <Row label="Reason">{text(claim.reject_reason)}</Row>}
        {claim.waiting_for_email && <Row label="Owner">Waiting for the owner to confirm their email</Row>}
        {claim.consent !== "" && <Row label="Owners' consent">{CONSENT_LABELS[claim.consent]}</Row>}
        {claim.store_id !== null && (
          <Row label="Published store">
            <a className="text-emerald-800 underline" href={`/?store=${claim.store_id}`} target="_blank" rel="noopener noreferrer">
              Store #{claim.store_id}
            </a>
          </Row>
        )}
      </dl>

      {claim.status === "pending" && <Decision claim={claim} onDecided={onDecided} onUnauthorized={onUnauthorized} />}
      {claim.consent === "pending" && <ConsentDecision claim={claim} onDecided={onDecided} onUnauthorized={onUnauthorized} />}
    </section>
  );
}

const CONSENT_LABELS: Record<Claim["consent"], string> = {
  "": "",
  pending: "Waiting: the store has an owner, so the claimant cannot change it until an owner (or a moderator) accepts",
  accepted: "Accepted: the claimant is a co-owner",
  declined: "Declined: the claimant cannot change the store",
};

/** A moderator's answer for the store's owners to a pending co-owner (docs/claims.md, "Consent of the owners"). */
function ConsentDecision({ claim, onDecided, onUnauthorized }: Omit<ClaimDetailProps, "headingRef">) {
  const decide = useMutation({
    mutationFn: (decision: "accept" | "decline") => decideClaimConsent(claim.id, decision),
    onSuccess: (c) =>
      onDecided(c.consent === "accepted" ? `${c.email} is now a co-owner of store #${c.store_id ?? ""}.` : `${c.email} will not be able to change the store.`, c),
    onError: (error) => {
      if (isUnauthorized(error)) onUnauthorized();
      if (error instanceof ApiError && error.status === 409) onDecided(`Claim #${claim.id}: ${error.message}`);
    },
  });
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm text-gray-900">
        The store&apos;s owners were asked whether {claim.email} may change the store. You may answer for them.
      </p>
      <div className="flex flex-wrap gap-3">
        <Button disabled={decide.isPending} onClick={() => decide.mutate("accept")}>
          Accept as co-owner
        </Button>
        <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate("decline")}>
          Decline co-owner
        </Button>
      </div>
      {decide.error && !(decide.error instanceof ApiError && [401, 409].includes(decide.error.status)) && (
        <FormError>{`Could not answer: ${failureText(decide.error)}`}</FormError>
      )}
    </div>
  );
}

/** The pin the owner placed in the wizard, or undefined. */
function ownerPin(claim: Claim): Coordinates | undefined {
  return claim.pin_latitude !== null && claim.pin_longitude !== null ? { latitude: claim.pin_latitude, longitude: claim.pin_longitude } : undefined;
}

function ownerPinText(claim: Claim): string {
  const at = ownerPin(claim);
  if (!at) return "";
  const how = claim.pin_source === "device" ? "from the owner's device at the store" : "placed by the owner on the map";
  const far =
    claim.pin_distance_km !== null && claim.zip_centre
      ? `; ${formatMiles(claim.pin_distance_km)} from the centre of ZIP ${claim.zip_centre.postal_code}`
      : "";
  return `${formatCoordinate(at.latitude)}, ${formatCoordinate(at.longitude)} (${how}${far})`;
}

/** Ranges of an hours text read one way that could mean another, for the moderator to check. */
function HoursNotes({ label, notes }: { label: string; notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <Row label={label}>
      <ul role="list">{notes.map((note) => <li key={note}>{note}</li>)}</ul>
    </Row>
  );
}

type ServiceRead = Claim["service_hours_read"][number];

/** One service's hours text of the claim: what was typed, whether it reads, the ranges to check. */
function ServiceHoursRows({ claim, read }: { claim: Claim; read: ServiceRead }) {
  const label = SERVICE_LABELS[read.service];
  return (
    <>
      <Row label={`${label} hours`}>{text(claim[`${read.service}_hours`])}</Row>
      <Row label={`${label} hours parsed`}>
        {read.parsed ? "Yes: published as its own weekly hours" : "No: not published (the service follows the store's hours)"}
      </Row>
      <HoursNotes label={`${label} hours to check`} notes={read.notes} />
    </>
  );
}

/** The licence number and, once approved, what the registries say of it. */
function licenceText(claim: Claim): string {
  if (claim.licence_number === "") return text("");
  if (claim.licence_verified === null) return `${claim.licence_number} (checked with the registries on approval)`;
  return claim.licence_verified
    ? `${claim.licence_number}: verified, the registry lists it at the store's address`
    : `${claim.licence_number}: not verified, no active licence with this number at the store's address`;
}

/** The owners of the store a claim matches: they are mailed, and an approval never removes them. */
function ExistingStoreNote({ store }: { store: ExistingStore }) {
  return (
    <div className="rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950">
      <strong>Already listed as store #{store.id}.</strong>{" "}
      {store.owners_summary !== ""
        ? `${store.owners_summary} They are emailed about this claim and stay owners whatever you decide.`
        : "This store has no owner yet."}
    </div>
  );
}

/** The head of a field-by-field comparison: "Field", then columns (each spaced from the next). */
export function ComparisonHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr className="text-left text-gray-600">
        {["Field", ...columns].map((c, i) => (
          <th key={c} className={i < columns.length ? "pr-4 font-normal" : "font-normal"}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * The claim beside the store it matches, one row per field: the moderator ticks the claimed values
 * to take; the others stay as they are.
 */
export function Comparison({
  store,
  picked,
  onToggle,
}: {
  store: ExistingStore;
  picked: ClaimField[];
  onToggle: (field: ClaimField, on: boolean) => void;
}) {
  return (
    <section aria-labelledby={`compare-${store.id}`} className="flex flex-col gap-2">
      <h3 id={`compare-${store.id}`} className="text-lg font-semibold text-gray-900">
        Compare with the listed store
      </h3>
      <p className="text-sm text-gray-700">
        Tick the claimed values to publish; nothing else changes. The store is marked verified only when every row then shows the
        claimed value.
      </p>
      <table className="text-sm">
        <ComparisonHead columns={["Now", "Claimed", "Use the claimed value"]} />
        <tbody>
          {store.fields.map((f) => (
            <tr key={f.field} className="border-t border-gray-100 align-top">
              <th className="py-1 pr-4 text-left font-normal text-gray-700">{f.label}</th>
              <td className="py-1 pr-4 break-words text-gray-700 [overflow-wrap:anywhere]">{text(f.current)}</td>
              <td className="py-1 pr-4 break-words text-gray-900 [overflow-wrap:anywhere]">{text(f.claimed)}</td>
              <td className="py-1">
                {f.same ? (
                  <span className="text-gray-600">Same</span>
                ) : f.claimed.trim() === "" ? (
                  <span className="text-gray-600">Not in the claim</span>
                ) : (
                  <input
                    type="checkbox"
                    aria-label={`Use the claimed ${f.label.toLowerCase()}`}
                    checked={picked.includes(f.field)}
                    onChange={(e) => onToggle(f.field, e.target.checked)}
                    className="size-4 accent-emerald-700"
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Decision({ claim, onDecided, onUnauthorized }: Omit<ClaimDetailProps, "headingRef">) {
  const suggested = claim.suggested_location;
  const existing = claim.existing_store;
  const pinned = ownerPin(claim);
  // A listed store starts at its own position (kept unless the marker moves, or unless it stands
  // only at a centre and the owner placed a pin); a new one at the owner's pin, else the geocoded one.
  const start = existing
    ? existing.geo_precision === "postal_code" || existing.geo_precision === "city"
      ? (pinned ?? { latitude: existing.latitude, longitude: existing.longitude })
      : { latitude: existing.latitude, longitude: existing.longitude }
    : (pinned ?? suggested);
  // Only a postal or city centre and nobody placed the pin: the approval would be refused.
  const centreOnly = !existing && !pinned && suggested?.approximate === true;
  const [latitude, setLatitude] = useState(start ? formatCoordinate(start.latitude) : "");
  const [longitude, setLongitude] = useState(start ? formatCoordinate(start.longitude) : "");
  const [position, setPosition] = useState<Coordinates | null>(start ? { latitude: start.latitude, longitude: start.longitude } : null);
  const [picked, setPicked] = useState<ClaimField[]>([]);
  const [edited, setEdited] = useState(false);
  const [coordinateError, setCoordinateError] = useState<string | undefined>();
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | undefined>();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const reasonId = useId();

  const fail = (error: unknown) => {
    if (isUnauthorized(error)) onUnauthorized();
    if (error instanceof ApiError && error.status === 409) onDecided(`Claim #${claim.id} was already decided: ${error.message}`);
  };
  const approve = useMutation({
    mutationFn: (at: Coordinates | undefined) => approveClaim(claim.id, at, existing ? picked : undefined),
    onSuccess: (c) =>
      onDecided(
        existing
          ? `Approved claim #${c.id}: ${picked.length === 0 ? "no field" : picked.length === 1 ? "1 field" : `${picked.length} fields`} of store #${existing.id} changed.`
          : `Approved claim #${c.id}: ${c.business_name} is published${c.store_id !== null ? ` as store #${c.store_id}` : ""}.`,
        c,
      ),
    onError: fail,
  });
  const reject = useMutation({
    mutationFn: (why: string) => rejectClaim(claim.id, why),
    onSuccess: (c) => onDecided(`Rejected claim #${c.id}: ${c.business_name}. The owner is emailed the reason.`, c),
    onError: fail,
  });
  const busy = approve.isPending || reject.isPending;

  const typed = (lat: string, lon: string) => {
    setEdited(true);
    setCoordinateError(undefined);
    const parsed = parseCoordinates(lat, lon);
    if (parsed) setPosition(parsed);
  };

  const onApprove = () => {
    approve.reset();
    reject.reset();
    if (!edited || (latitude.trim() === "" && longitude.trim() === "")) {
      approve.mutate(undefined);
      return;
    }
    const at = parseCoordinates(latitude, longitude);
    if (!at) {
      setCoordinateError(COORDINATES_INVALID);
      return;
    }
    approve.mutate(at);
  };

  const onReject = (event: FormEvent) => {
    event.preventDefault();
    approve.reset();
    reject.reset();
    const why = reason.trim();
    if (why === "") {
      setReasonError(REASON_REQUIRED);
      reasonRef.current?.focus();
      return;
    }
    reject.mutate(why);
  };

  const resetLocation = () => {
    if (!start) return;
    setLatitude(formatCoordinate(start.latitude));
    setLongitude(formatCoordinate(start.longitude));
    setPosition({ latitude: start.latitude, longitude: start.longitude });
    setEdited(false);
    setCoordinateError(undefined);
  };

  return (
    <div className="flex flex-col gap-6">
      {existing && (
        <Comparison
          store={existing}
          picked={picked}
          onToggle={(field, on) => setPicked((p) => (on ? [...p.filter((f) => f !== field), field] : p.filter((f) => f !== field)))}
        />
      )}
      <section aria-labelledby={`approve-${claim.id}`} className="flex flex-col gap-3">
        <h3 id={`approve-${claim.id}`} className="text-lg font-semibold text-gray-900">
          Location and approval
        </h3>
        <p className="text-sm text-gray-700">
          {existing
            ? "The marker is the store's position: it stays there unless you move it."
            : pinned
              ? "The marker is the owner's pin. Drag it, click the map or type the coordinates if it is wrong."
              : centreOnly && suggested
                ? centreOnlyText(suggested.precision_text)
                : suggested
                  ? "Drag the marker, click the map or type the coordinates if the geocoded position is wrong."
                  : NO_SUGGESTION}
        </p>
        <LocationEditor
          latitude={latitude}
          longitude={longitude}
          position={position}
          error={coordinateError}
          onMarkerMove={(at) => {
            setEdited(true);
            setCoordinateError(undefined);
            setPosition(at);
            setLatitude(formatCoordinate(at.latitude));
            setLongitude(formatCoordinate(at.longitude));
          }}
          onLatitudeChange={(value) => {
            setLatitude(value);
            typed(value, longitude);
          }}
          onLongitudeChange={(value) => {
            setLongitude(value);
            typed(latitude, value);
          }}
          noStreets={MODERATOR_NO_STREETS}
        />
        {position && claim.zip_centre && (
          <p className="text-sm text-gray-800">
            {`The marker is ${formatMiles(distanceKm(position, claim.zip_centre))} from the centre of ZIP ${claim.zip_centre.postal_code}.`}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={onApprove} disabled={busy || (centreOnly && !edited)}>
            {approve.isPending ? "Approving…" : "Approve"}
          </Button>
          {edited && start && (
            <Button variant="outline" onClick={resetLocation} disabled={busy}>
              {existing ? "Keep the store's position" : pinned ? "Use the owner's pin" : "Use the geocoded location"}
            </Button>
          )}
        </div>
        <p className="text-xs text-gray-700">
          {existing
            ? `${picked.length === 0 ? "Changes no detail of the store" : "Publishes the ticked values"}; ${edited ? "moves the store to the coordinates above" : "keeps its position"}. The claimant's account is added beside the owners.`
            : edited
              ? "Publishes the store at the coordinates above."
              : pinned
                ? "Publishes the store at the owner's pin."
                : centreOnly
                  ? "Place the pin on the store to approve: a ZIP or city centre is not published."
                  : "Publishes the store at the geocoded location."}
        </p>
        {approve.isError && <FormError>{`Could not approve: ${failureText(approve.error)}`}</FormError>}
      </section>

      <form noValidate onSubmit={onReject} aria-labelledby={`reject-${claim.id}`} className="flex flex-col gap-3">
        <h3 id={`reject-${claim.id}`} className="text-lg font-semibold text-gray-900">
          Rejection
        </h3>
        <div className="flex flex-col gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium text-gray-900">
            Reason (required, emailed to the owner)
          </label>
          <textarea
            id={reasonId}
            ref={reasonRef}
            rows={3}
            maxLength={REASON_MAX}
            required
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${reasonId}-error` : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              if (reasonError && e.target.value.trim() !== "") setReasonError(undefined);
            }}
            className="rounded-md border border-gray-400 px-3 py-2 text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-emerald-700 aria-invalid:border-red-700"
          />
          {reasonError && (
            <p id={`${reasonId}-error`} role="alert" className="text-sm text-red-700">
              {reasonError}
            </p>
          )}
        </div>
        <div>
          <Button type="submit" variant="outline" disabled={busy}>
            {reject.isPending ? "Rejecting…" : "Reject"}
          </Button>
        </div>
        {reject.isError && <FormError>{`Could not reject: ${failureText(reject.error)}`}</FormError>}
      </form>
    </div>
  );
}
