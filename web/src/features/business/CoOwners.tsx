import { useState } from "react";
import { failureText } from "../../api/client";
import { Button } from "../../components/ui/button";
import { Outcome, useOutcome } from "../../components/ui/outcome";
import { removeOwner } from "./api/remove-owner";
import type { BusinessStore } from "./types";

type Owner = BusinessStore["owners"][number];

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * "Who can change this store": every business account linked to the store. An owner removes an
 * account linked after its own (a claim a moderator approved beside it, say); an earlier owner
 * only a moderator can remove.
 */
export function CoOwners({ store, onChanged }: { store: BusinessStore; onChanged: (store: BusinessStore) => void }) {
  const outcome = useOutcome();
  const [busy, setBusy] = useState<number | null>(null);

  const remove = async (owner: Owner) => {
    if (!window.confirm(`Remove ${owner.email}? They will no longer be able to change ${store.name}.`)) return;
    outcome.clear();
    setBusy(owner.id);
    try {
      const updated = await removeOwner(store.id, owner.id);
      outcome.setNotice(`${owner.email} can no longer change this store.`);
      onChanged(updated);
    } catch (error) {
      outcome.setFailure(`Could not remove ${owner.email}: ${failureText(error)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby={`owners-${store.id}`} className="flex flex-col gap-2 rounded-md border border-gray-200 bg-white p-4">
      <h3 id={`owners-${store.id}`} className="font-medium text-gray-900">
        Who can change this store
      </h3>
      <ul className="flex flex-col gap-2">
        {store.owners.map((o) => (
          <li key={o.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="break-all text-gray-900">
              {o.email}
              {o.you && " (you)"} <span className="text-gray-600">· since {dateFormat.format(new Date(o.since))}</span>
            </span>
            {o.removable && (
              <Button variant="outline" disabled={busy !== null} onClick={() => void remove(o)}>
                {busy === o.id ? "Removing…" : `Remove ${o.email}`}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {store.owners.length > 1 && (
        <p className="text-xs text-gray-700">
          You can remove an account added after yours. If an account you do not know was added before yours, ask a moderator.
        </p>
      )}
      <Outcome {...outcome} />
    </section>
  );
}
