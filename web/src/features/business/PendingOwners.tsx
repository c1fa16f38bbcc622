import { useState } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { decidePendingOwner, type Decision } from "./api/consent";
import type { BusinessStore } from "./types";

type Pending = BusinessStore["pending_owners"][number];

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * "Waiting for your consent": accounts whose claim on the store a moderator approved while the store
 * already had an owner. They cannot change the store until an owner (or a moderator) accepts them;
 * a decline tells them by mail and they never get it (docs/claims.md, "Consent of the owners").
 */
export function PendingOwners({ store, onChanged }: { store: BusinessStore; onChanged: (store: BusinessStore) => void }) {
  const outcome = useOutcome();
  const [busy, setBusy] = useState<number | null>(null);
  if (store.pending_owners.length === 0 && !outcome.notice) return null;

  const decide = async (p: Pending, decision: Decision) => {
    if (decision === "decline" && !window.confirm(`Decline ${p.email}? They will not be able to change ${store.name}.`)) return;
    outcome.clear();
    setBusy(p.claim_id);
    try {
      const updated = await decidePendingOwner(store.id, p.claim_id, decision);
      outcome.setNotice(decision === "accept" ? `${p.email} can now change this store with you.` : `${p.email} will not be able to change this store.`);
      onChanged(updated);
    } catch (error) {
      outcome.setFailure(`Could not answer ${p.email}: ${failureText(error)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby={`pending-${store.id}`} className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-4">
      <h3 id={`pending-${store.id}`} className="font-medium text-gray-900">
        Waiting for your consent
      </h3>
      {store.pending_owners.length > 0 && (
        <p className="text-sm text-gray-800">
          A moderator approved a claim on this store by an account that is not yet an owner. It cannot change the store unless you accept it.
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {store.pending_owners.map((p) => (
          <li key={p.claim_id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="break-all text-gray-900">
              {p.email} <span className="text-gray-700">· claim #{p.claim_id}, approved {dateFormat.format(new Date(p.since))}</span>
            </span>
            <span className="flex gap-2">
              <Button disabled={busy !== null} onClick={() => void decide(p, "accept")}>
                {busy === p.claim_id ? "Saving…" : `Accept ${p.email}`}
              </Button>
              <Button variant="outline" disabled={busy !== null} onClick={() => void decide(p, "decline")}>
                {`Decline ${p.email}`}
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <Outcome {...outcome} />
    </section>
  );
}
