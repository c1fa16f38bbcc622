import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import { adminKeys } from "../../api/keys";
import type { components } from "../../api/schema";
import { Button } from "../../components/ui/button";
import { Field } from "../../components/ui/field";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { Loaded } from "../../components/Loaded";
import { ComparisonHead } from "./ClaimDetail";
import { approveChangeRequest, rejectChangeRequest } from "./api/decide-change-request";
import { changeRequestsOptions } from "./api/list-change-requests";
import { linkStore } from "./api/link-store";
import { removeStoreOwner, storeOwners } from "./api/store-owners";

type ChangeRequest = components["schemas"]["ChangeRequest"];
type Details = components["schemas"]["StoreDetails"];
type Owner = components["schemas"]["StoreOwner"];


const LABELS: [keyof Details, string][] = [
  ["name", "Name"],
  ["address", "Address"],
  ["city", "City"],
  ["state", "State"],
  ["postal_code", "Postal code"],
  ["latitude", "Latitude"],
  ["longitude", "Longitude"],
];

/**
 * Starts the submit of a form that names a store: clears the outcome and returns the store id typed,
 * or null with the failure shown when it is not a whole number from 1.
 */
function startWithStoreId(event: FormEvent, text: string, outcome: ReturnType<typeof useOutcome>): number | null {
  event.preventDefault();
  outcome.clear();
  const id = Number(text.trim());
  if (Number.isInteger(id) && id >= 1) return id;
  outcome.setFailure("Enter the store's id (a whole number).");
  return null;
}

/** Store owners' side of moderation: their change requests, a store's owners, and linking a store to a business account. */
export function StoreOwners() {
  return (
    <section aria-labelledby="owners-heading" className="flex flex-col gap-4 md:col-span-2">
      <h2 id="owners-heading" className="text-base font-semibold text-gray-900">
        Store owners
      </h2>
      <ChangeRequests />
      <OwnersLookup />
      <LinkForm />
    </section>
  );
}

function ChangeRequests() {
  const queryClient = useQueryClient();
  const list = useQuery(changeRequestsOptions());
  const outcome = useOutcome();
  const [reasons, setReasons] = useState<Record<number, string>>({});

  const decide = async (c: ChangeRequest, approve: boolean) => {
    outcome.clear();
    try {
      if (approve) await approveChangeRequest(c.id);
      else await rejectChangeRequest(c.id, reasons[c.id] ?? "");
      outcome.setNotice(`${approve ? "Published" : "Rejected"} the change to ${c.store_name}.`);
      void queryClient.invalidateQueries({ queryKey: adminKeys.changes });
    } catch (error) {
      outcome.setFailure(`Could not ${approve ? "approve" : "reject"} the change: ${failureText(error)}`);
    }
  };

  return (
    <div className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="font-medium text-gray-900">Change requests</h3>
      <Outcome {...outcome} />
      <Loaded query={list} loading="Loading change requests…" failed="Could not load change requests">
        {(data) =>
          data.length === 0 ? (
            <p className="text-sm text-gray-700">No pending change requests.</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {data.map((c) => (
                <li key={c.id} className="rounded-md border border-gray-200 p-3">
                  <p className="text-sm font-medium text-gray-900">
                    Store {c.store_id}: {c.store_name} <span className="font-normal text-gray-600">(by {c.business_email})</span>
                  </p>
                  <table className="mt-2 text-sm">
                    <ComparisonHead columns={["Now", "Proposed"]} />
                    <tbody>
                      {LABELS.filter(([key]) => c.proposed[key] !== undefined).map(([key, label]) => (
                        <tr key={key}>
                          <th className="pr-4 text-left font-normal text-gray-700">{label}</th>
                          <td className="pr-4 text-gray-700">{String(c.previous[key] ?? "")}</td>
                          <td className="text-gray-900">{String(c.proposed[key])}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <div className="mt-2 flex flex-wrap items-end gap-2">
                    <Button onClick={() => void decide(c, true)}>Approve change</Button>
                    <Field
                      label="Reason to reject"
                      value={reasons[c.id] ?? ""}
                      onChange={(e) => setReasons((r) => ({ ...r, [c.id]: e.target.value }))}
                    />
                    <Button variant="outline" onClick={() => void decide(c, false)}>
                      Reject change
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </div>
  );
}

function LinkForm() {
  const [storeId, setStoreId] = useState("");
  const [email, setEmail] = useState("");
  const outcome = useOutcome();

  const submit = async (event: FormEvent) => {
    const id = startWithStoreId(event, storeId, outcome);
    if (id === null) return;
    if (email.trim() === "") return outcome.setFailure("Enter the email of the business account.");
    try {
      outcome.setNotice(await linkStore(id, email.trim()));
    } catch (error) {
      outcome.setFailure(`Could not link the store: ${failureText(error)}`);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Link a store" className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="font-medium text-gray-900">Link a store to a business account</h3>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Store id" inputMode="numeric" value={storeId} onChange={(e) => setStoreId(e.target.value)} />
        <Field label="Business account email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit">Link</Button>
      </div>
      <Outcome {...outcome} />
    </form>
  );
}

const sinceFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** The owners of one store, each with a Remove button (any link; the audit log keeps who removed it). */
export function OwnersLookup() {
  const [storeId, setStoreId] = useState("");
  const [shown, setShown] = useState<{ id: number; owners: Owner[] } | null>(null);
  const outcome = useOutcome();

  const load = async (id: number) => setShown({ id, owners: await storeOwners(id) });

  const submit = async (event: FormEvent) => {
    const id = startWithStoreId(event, storeId, outcome);
    if (id === null) return;
    try {
      await load(id);
    } catch (error) {
      setShown(null);
      outcome.setFailure(`Could not load the owners: ${failureText(error)}`);
    }
  };

  const remove = async (id: number, owner: Owner) => {
    if (!window.confirm(`Remove ${owner.email} from the owners of store ${id}?`)) return;
    outcome.clear();
    try {
      outcome.setNotice(await removeStoreOwner(id, owner.id));
      await load(id);
    } catch (error) {
      outcome.setFailure(`Could not remove ${owner.email}: ${failureText(error)}`);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Owners of a store" className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-4">
      <h3 className="font-medium text-gray-900">Owners of a store</h3>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Store id" inputMode="numeric" value={storeId} onChange={(e) => setStoreId(e.target.value)} />
        <Button type="submit">Show owners</Button>
      </div>
      {shown &&
        (shown.owners.length === 0 ? (
          <p className="text-sm text-gray-700">Store {shown.id} has no owner.</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label={`Owners of store ${shown.id}`}>
            {shown.owners.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span className="break-all text-gray-900">
                  {o.email} <span className="text-gray-600">· since {sinceFormat.format(new Date(o.since))} · linked by {o.linked_by}</span>
                </span>
                <Button variant="outline" onClick={() => void remove(shown.id, o)}>
                  {`Remove ${o.email}`}
                </Button>
              </li>
            ))}
          </ul>
        ))}
      <Outcome {...outcome} />
    </form>
  );
}
