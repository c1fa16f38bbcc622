import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { failureText } from "../../api/client";
import { adminKeys } from "../../api/keys";
import { Loaded } from "../../components/Loaded";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Notice } from "../../components/ui/outcome";
import {
  mapMedusaLocation,
  medusaLocationsOptions,
  medusaProposalsOptions,
  type MedusaLocation,
  type MedusaSyncState,
} from "./api/medusa";
import { isUnauthorized, useSignedOutOn } from "./unauthorized";

/**
 * "Marketplace" in /admin: the marketplace's Medusa stock locations, each mapped to one of our
 * stores, whose stock the products sync then writes (docs/products.md, "From the marketplace
 * (Medusa)"). A location's address proposes the store: the same street address first.
 */
export function MedusaPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const list = useQuery(medusaLocationsOptions());
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  useSignedOutOn([list.error], onUnauthorized);
  return (
    <section aria-labelledby="medusa-heading" className="flex flex-col gap-4">
      <h2 id="medusa-heading" className="text-base font-semibold text-gray-900">
        Stock locations of the marketplace
      </h2>
      <p className="text-sm text-gray-700">
        Each location mapped to a store gives that store its stock at every sync. A store takes one location.
      </p>
      <Notice notice={notice} />
      <Loaded query={list} loading="Loading locations…" failed="Could not load the stock locations">
        {(data) => (
          <>
            <SyncState state={data.sync} />
            {data.locations.length === 0 ? (
              <p className="text-gray-700">No stock locations yet: they appear after the first sync (locator products sync).</p>
            ) : (
              <ul aria-label="Stock locations" className="flex flex-col gap-3">
                {data.locations.map((l) => (
                  <li key={l.id} className="rounded-md border border-gray-200 bg-white p-3">
                    <LocationRow
                      location={l}
                      open={openId === l.id}
                      onOpen={() => setOpenId(openId === l.id ? null : l.id)}
                      onMapped={(message) => {
                        setNotice(message);
                        setOpenId(null);
                      }}
                      onUnauthorized={onUnauthorized}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function SyncState({ state }: { state: MedusaSyncState | null }) {
  if (!state) return <p className="text-sm text-gray-700">No Medusa server is set here (LOCATOR_MEDUSA_URL): the mapping waits for one.</p>;
  return (
    <p className="text-sm text-gray-700">
      Syncing from {state.source}
      {state.last_ok_at ? `; last success ${new Date(state.last_ok_at).toLocaleString()}` : "; no success yet"}
      {state.failures > 0 && (
        <>
          {"; "}
          <strong>
            {state.failures} {state.failures === 1 ? "failure" : "failures"} in a row: {state.last_error}
          </strong>
        </>
      )}
      .{state.last_run_at && <> {deletions(state)}</>}
    </p>
  );
}

/** What the last run withdrew of what Medusa deleted (docs/products.md). */
function deletions(s: MedusaSyncState) {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return (
    `Deletions the last run applied: ${n(s.last_withdrawn, "variant", "variants")} withdrawn ` +
    `(${n(s.last_products_removed, "product", "products")} removed from the catalogue), ` +
    `${n(s.last_locations_gone, "stock location", "stock locations")} gone, ${n(s.last_stock_removed, "stock row", "stock rows")} removed.`
  );
}

function address(l: MedusaLocation) {
  return [l.address, l.city, [l.province, l.postal_code].filter(Boolean).join(" "), l.country_code].filter((p) => p.trim() !== "").join(", ");
}

function LocationRow({
  location,
  open,
  onOpen,
  onMapped,
  onUnauthorized,
}: {
  location: MedusaLocation;
  open: boolean;
  onOpen: () => void;
  onMapped: (message: string) => void;
  onUnauthorized: () => void;
}) {
  const queryClient = useQueryClient();
  const map = useMutation({
    mutationFn: (storeId: number | null) => mapMedusaLocation(location.id, storeId),
    onSuccess: (l) => {
      onMapped(l.store ? `${location.name} is mapped to ${l.store.name} (store #${l.store.id}).` : `${location.name} is no longer mapped.`);
      void queryClient.invalidateQueries({ queryKey: adminKeys.medusa });
    },
    onError: (e) => {
      if (isUnauthorized(e)) onUnauthorized();
    },
  });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h3 className="font-semibold text-gray-900">{location.name}</h3>
          <p className="text-sm text-gray-700">
            {address(location) || "No address"} · {location.id}
          </p>
          {location.gone_at && (
            <p className="text-sm text-red-800">
              <strong>Deleted in Medusa</strong> (missing since {new Date(location.gone_at).toLocaleString()}): the stock it gave its store was
              removed and it is read no more.
            </p>
          )}
          <p className="text-sm text-gray-700">
            {location.store ? (
              <>
                Mapped to <strong>{location.store.name}</strong> (store #{location.store.id}, {location.store.address})
              </>
            ) : (
              "Not mapped to a store"
            )}
          </p>
        </div>
        <div className="flex gap-2">
          {location.store && (
            <Button variant="outline" disabled={map.isPending} onClick={() => map.mutate(null)}>
              Unmap
            </Button>
          )}
          <Button variant="outline" aria-expanded={open} onClick={onOpen}>
            {open ? "Close" : location.store ? "Change the store" : "Choose a store"}
          </Button>
        </div>
      </div>
      {open && <StorePicker location={location} pending={map.isPending} onPick={(id) => map.mutate(id)} />}
      {map.isError && <FormError>{`Could not map the location: ${failureText(map.error)}`}</FormError>}
    </div>
  );
}

function StorePicker({ location, pending, onPick }: { location: MedusaLocation; pending: boolean; onPick: (id: number) => void }) {
  const proposals = useQuery(medusaProposalsOptions(location.id));
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const typedId = /^[1-9][0-9]{0,15}$/.test(typed.trim()) ? Number(typed.trim()) : null;
  return (
    <div className="flex flex-col gap-2">
      <Loaded query={proposals} loading="Looking for stores…" failed="Could not look for stores">
        {(ps) =>
          ps.length === 0 ? (
            <p className="text-sm text-gray-700">No store near this address: enter the store's number.</p>
          ) : (
            <ul aria-label={`Stores proposed for ${location.name}`} className="flex flex-col gap-1">
              {ps.map((p) => (
                <li key={p.store.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span className="text-sm">
                    <strong>{p.store.name}</strong>, {[p.store.address, p.store.city, p.store.postal_code].filter(Boolean).join(", ")} · store #{p.store.id}
                    {p.same_address ? " · same address" : p.distance_km !== null ? ` · ${p.distance_km.toFixed(1)} km` : ""}
                  </span>
                  <Button disabled={pending} onClick={() => onPick(p.store.id)} aria-label={`Map to ${p.store.name} (store #${p.store.id})`}>
                    Map to this store
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (typedId !== null) onPick(typedId);
        }}
      >
        <label htmlFor={inputId} className="flex flex-col text-sm text-gray-700">
          Or a store's number
          <input id={inputId} inputMode="numeric" value={typed} onChange={(e) => setTyped(e.target.value)} className="rounded border border-gray-300 px-2 py-1" />
        </label>
        <Button type="submit" variant="outline" disabled={pending || typedId === null}>
          Map to store #{typedId ?? "…"}
        </Button>
      </form>
    </div>
  );
}
