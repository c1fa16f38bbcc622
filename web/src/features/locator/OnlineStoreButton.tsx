import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import type { StoreListItem } from "../../api/types";
import { keptVerdict } from "../../lib/agecheck";
import { sendEvent } from "../../lib/beacon";
import { storefrontUrl } from "../../lib/config";
import { placeRulesOptions } from "./api/place-rules";

/** What the button reads of a store: the list's entry has it all. */
type OnlineStore = Pick<StoreListItem, "id" | "store_id" | "latitude" | "longitude" | "is_curbside_pickup_available" | "is_order_online_available">;

// The dialog and its logic load on the first click only (the first screen's budget).
const AgeDialog = lazy(() => import("../../components/AgeDialog"));

/** The federal minimum, used until the place's rules have answered. */
const FALLBACK_MIN_AGE = 21;

/** The shopper's place: the searched centre in the address, else the store's own position. */
function shopperPosition(store: OnlineStore): [number, number] {
  const q = new URLSearchParams(window.location.search);
  const lat = Number(q.get("lat"));
  const lon = Number(q.get("lon"));
  return q.get("lat") && q.get("lon") && Number.isFinite(lat) && Number.isFinite(lon) ? [lat, lon] : [store.latitude, store.longitude];
}

/** The store's page on the marketplace's storefront ("Go to online store"). */
export function onlineStoreUrl(store: Pick<OnlineStore, "store_id">): string {
  return `${storefrontUrl()}/store/${encodeURIComponent(store.store_id)}`;
}

/**
 * The law of the shopper's place for buying online from this store: the minimum age, the ban on
 * shipping to consumers if any, and whether the store takes orders for pickup (then "Order for
 * pickup" stands in for a checkout that would refuse them). `pending` until the place's rules
 * answer; a failed answer falls back to the federal minimum age, shipping allowed.
 */
export function useOnlineStoreLaw(store: OnlineStore) {
  const [lat, lon] = shopperPosition(store);
  const place = useQuery(placeRulesOptions(lat, lon));
  const ban = place.data?.shipping_ban ?? null;
  const pickup = store.is_curbside_pickup_available || store.is_order_online_available;
  return { pending: place.isPending, minAge: place.data?.min_age ?? FALLBACK_MIN_AGE, ban, pickup, offered: !ban || pickup };
}

/**
 * A link to the storefront behind the age check (docs/rules.md). Until an "ok" verdict is kept,
 * the shop's address is not on the page: the control is a button that opens the age dialog, so no
 * way of opening a link (middle click, a modified click, the context menu, dragging it to the tab
 * bar, copying its address) gets round the check. With the verdict kept it is a plain link, which
 * opens every way a link does. `storeId` is counted in the insights (docs/insights.md).
 */
export function AgeCheckedLink({
  href,
  minAge,
  storeId,
  className,
  label,
  children,
}: {
  href: string;
  minAge: number;
  storeId: number;
  className: string;
  /** The accessible name when it is not the visible text alone. */
  label?: string;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const [under, setUnder] = useState(false);
  const [passed, setPassed] = useState(false);
  const verdictOk = passed || keptVerdict(document.cookie, minAge) === "ok";

  const open = () => {
    sendEvent("online_store", storeId);
    window.open(href, "_blank", "noopener,noreferrer");
  };
  const pass = () => {
    setPassed(true);
    open();
  };
  const check = () => {
    const kept = keptVerdict(document.cookie, minAge); // another tab may have kept one meanwhile
    if (kept === "ok") pass();
    else if (kept === "under") setUnder(true);
    else setAsking(true);
  };
  return (
    <>
      {verdictOk ? (
        <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label} onClick={() => sendEvent("online_store", storeId)} className={className}>
          {children}
        </a>
      ) : (
        <button type="button" onClick={check} aria-haspopup="dialog" aria-label={label} className={className}>
          {children}
        </button>
      )}
      {under && (
        <p role="status" className="text-sm text-gray-800">
          You need to be {minAge} or older to buy tobacco or vape products here. The store&apos;s details stay open to you.
        </p>
      )}
      {asking && (
        <Suspense fallback={null}>
          <AgeDialog minAge={minAge} onPass={pass} onClose={() => setAsking(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * "Go to online store", behind the age check (docs/rules.md). Where the law of the shopper's place
 * allows no shipping to consumers, it says so and offers pickup at this store instead, when the
 * store takes orders for pickup; otherwise no link to a checkout that would refuse them.
 */
export function OnlineStoreButton({ store }: { store: OnlineStore }) {
  const { pending, minAge, ban, pickup, offered } = useOnlineStoreLaw(store);
  // Until the place's rules answer, no button: it would change under the pointer where the law
  // bans shipping.
  if (pending) return null;

  return (
    <div className="space-y-2">
      {ban && (
        <p className="text-sm text-gray-800" data-testid="shipping-ban">
          {ban.summary} ({ban.citation}), so the online store can&apos;t ship to you.{" "}
          {pickup ? "You can order online and pick up at this store." : "You can buy in person at this store."}
        </p>
      )}
      {offered && (
        <AgeCheckedLink
          href={onlineStoreUrl(store)}
          minAge={minAge}
          storeId={store.id}
          className="inline-flex items-center gap-1 self-start rounded-md bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800"
        >
          {ban ? "Order for pickup" : "Go to online store"}
          <ExternalLink aria-hidden="true" className="size-4" />
        </AgeCheckedLink>
      )}
    </div>
  );
}
