import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { failureText } from "../../api/client";
import type { components } from "../../api/schema";
import { adminKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Field, FormError } from "../../components/ui/field";
import { Loaded } from "../../components/Loaded";
import { reportsOptions } from "./api/list-reports";
import { resolveReports, type ResolvePayload } from "./api/resolve-reports";
import { Notice } from "../../components/ui/outcome";
import { useSignedOutOn } from "./unauthorized";

type ReportedStore = components["schemas"]["ReportedStore"];
type StoreReport = components["schemas"]["StoreReport"];

export const REASON_LABELS: Record<StoreReport["reason"], string> = {
  wrong_hours: "Wrong hours",
  permanently_closed: "Permanently closed",
  wrong_location: "Wrong location",
  wrong_phone: "Wrong phone",
  other: "Other",
};

const DONE: Record<ResolvePayload["action"], string> = {
  fix: "Store corrected; its reports are accepted.",
  hide: "Store hidden; its reports are accepted.",
  close: "Store marked permanently closed; its reports are accepted.",
  dismiss: "Reports dismissed.",
};

/** Stores a page of the queue holds (the server's default and most). */
const PAGE_SIZE = 20;

/** The reports queue of /admin: stores with open shopper reports, each with its current data and the decisions. */
export function ReportsPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const [page, setPage] = useState(1);
  const queue = useQuery(reportsOptions(page));
  const [notice, setNotice] = useState("");
  useSignedOutOn([queue.error], onUnauthorized);
  const decided = (message: string) => {
    setNotice(message);
    // The last store of a later page decided: show the page before it.
    if (page > 1 && queue.data?.stores.length === 1) setPage(page - 1);
  };
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="reports-heading" className="flex flex-col gap-4">
      <h2 id="reports-heading" className="text-base font-semibold text-gray-900">
        Open reports
      </h2>
      <Notice notice={notice} />
      <Loaded query={queue} loading="Loading reports…" failed="Could not load reports">
        {(data) =>
          data.stores.length === 0 ? (
            <p className="text-gray-700">No open reports.</p>
          ) : (
            <>
              {data.stores.map((g) => (
                <ReportGroup key={g.store.id} store={g.store} reports={g.reports} onDone={decided} />
              ))}
              {(page > 1 || data.has_more) && (
                <nav aria-label="Report pages" className="flex items-center gap-3 text-sm">
                  <Button variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                    Previous
                  </Button>
                  <span className="text-gray-700">
                    Page {page} of {pages} · {data.total} {data.total === 1 ? "store" : "stores"}
                  </span>
                  <Button variant="outline" disabled={!data.has_more} onClick={() => setPage((p) => p + 1)}>
                    Next
                  </Button>
                </nav>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function ReportGroup({ store, reports, onDone }: { store: ReportedStore; reports: StoreReport[]; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [fixing, setFixing] = useState(false);
  const [note, setNote] = useState("");
  const decide = useMutation({
    mutationFn: (payload: ResolvePayload) => resolveReports(store.id, payload),
    onSuccess: (_data, payload) => {
      onDone(`${store.name}: ${DONE[payload.action]}`);
      void queryClient.invalidateQueries({ queryKey: adminKeys.reports });
    },
  });
  const headingId = `reported-${store.id}`;
  // Repeats of an open report merge into it (copies): each one counts.
  const count = reports.reduce((n, r) => n + r.copies, 0);
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 id={headingId} className="font-semibold text-gray-900">
        {store.name} <span className="text-sm font-normal text-gray-600">({count} {count === 1 ? "report" : "reports"})</span>
      </h3>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Status</dt>
        <dd>{store.status}</dd>
        <dt className="text-gray-600">Address</dt>
        <dd>{[store.address, store.city, store.state, store.postal_code].filter(Boolean).join(", ")}</dd>
        <dt className="text-gray-600">Phone</dt>
        <dd>{store.phone_number || "—"}</dd>
        <dt className="text-gray-600">Hours</dt>
        <dd>
          {store.hours || "—"}
          {store.workingHours.length > 0 && (
            <span className="block text-gray-700">
              {store.workingHours.map((h) => `${h.weekDay.slice(0, 3)} ${h.startTime ?? "closed"}–${h.endTime ?? ""}`).join(", ")}
            </span>
          )}
        </dd>
        <dt className="text-gray-600">Position</dt>
        <dd>
          {store.latitude.toFixed(5)}, {store.longitude.toFixed(5)}
        </dd>
      </dl>
      <ul className="flex flex-col gap-2">
        {reports.map((r) => (
          <li key={r.id} className="rounded bg-gray-50 px-3 py-2 text-sm">
            <span className="font-medium">{REASON_LABELS[r.reason]}</span>
            <span className="text-gray-600">
              {" "}
              · {new Date(r.created_at).toLocaleString()} · {r.signed_in ? "member" : "anonymous"}
              {r.copies > 1 && ` · sent by ${r.copies} shoppers`}
            </span>
            {r.note && <p className="mt-1 text-gray-800">{r.note}</p>}
          </li>
        ))}
      </ul>
      <Field label="Note for the audit log and the owner (optional)" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
      {decide.isError && <FormError>{failureText(decide.error)}</FormError>}
      {fixing ? (
        <FixForm store={store} pending={decide.isPending} onCancel={() => setFixing(false)} onFix={(changes) => decide.mutate({ action: "fix", note, changes })} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setFixing(true)}>Fix the store…</Button>
          <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate({ action: "close", note })}>
            Mark permanently closed
          </Button>
          <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate({ action: "hide", note })}>
            Hide the store
          </Button>
          <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate({ action: "dismiss", note })}>
            Dismiss
          </Button>
        </div>
      )}
    </article>
  );
}

type Changes = NonNullable<ResolvePayload["changes"]>;
const FIX_FIELDS = [
  ["name", "Name"],
  ["phone_number", "Phone"],
  ["hours", "Hours (text)"],
  ["address", "Address"],
  ["city", "City"],
  ["state", "State"],
  ["postal_code", "ZIP"],
] as const;

/** The moderator's correction: only the fields that changed are sent. */
function FixForm({ store, pending, onCancel, onFix }: { store: ReportedStore; pending: boolean; onCancel: () => void; onFix: (c: Changes) => void }) {
  const [values, setValues] = useState<Record<(typeof FIX_FIELDS)[number][0], string>>({
    name: store.name,
    phone_number: store.phone_number,
    hours: store.hours,
    address: store.address,
    city: store.city,
    state: store.state,
    postal_code: store.postal_code,
  });
  const [error, setError] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: Changes = {};
    for (const [key] of FIX_FIELDS) if (values[key] !== store[key]) changes[key] = values[key];
    if (Object.keys(changes).length === 0) return setError("Change at least one field");
    setError("");
    onFix(changes);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
      {FIX_FIELDS.map(([key, label]) => (
        <Field key={key} label={label} value={values[key]} onChange={(e) => setValues({ ...values, [key]: e.target.value })} />
      ))}
      {error && <FormError>{error}</FormError>}
      <div className="flex gap-2 sm:col-span-2">
        <Button type="submit" disabled={pending}>
          Save and accept
        </Button>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
