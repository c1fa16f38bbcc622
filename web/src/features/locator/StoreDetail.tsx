import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Heart, Navigation, Phone, Share2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { physicalStoreOptions } from "../../api/endpoints/physical-store";
import type { PhysicalStore, Rule, StoreView } from "../../api/types";
import { Stars } from "../../components/Stars";
import { StoreImage } from "../../components/StoreImage";
import { StoreStatus } from "../../components/StoreStatus";
import { sendEvent } from "../../lib/beacon";
import { cn } from "../../lib/cn";
import { embedded } from "../../lib/embed";
import { formatDistance } from "../../lib/distance";
import { useDocumentMeta } from "../../lib/documentMeta";
import { formatPhone, phoneHref } from "../../lib/phone";
import { useFavorites } from "../../lib/session";
import { closureLine } from "../../lib/status";
import { verifiedLabel } from "../../lib/verified";
import { AddressLine } from "./AddressLine";
import { directionsUrl } from "./directions";
import { LicenceLines } from "./LicenceLines";
import { OnlineStoreButton } from "./OnlineStoreButton";
import { StoreProducts } from "./product/StoreProducts";
import { ReportProblem } from "./report/ReportProblem";
import { ReviewsSummary } from "./ReviewsSummary";
import { RuleLines } from "./RuleLines";
import { ServiceLines } from "./ServiceLines";
import { shareStore } from "./share";
import { storePagePath } from "../../lib/storePage";
import { WorkingHoursTable } from "./WorkingHoursTable";

const action =
  "flex flex-col items-center gap-1 rounded-md px-2 py-2 text-xs font-medium text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-emerald-700";

/**
 * The store detail side panel. `store` is what there is of the store: the list's entry until
 * `whole` (the one-store answer) arrives, so the panel opens at once; the lines only the whole
 * store has (licence, last verified, website, the services' own weeks, special dates past the
 * status's week) appear when it does. `rules` are the store's rules, whole (the list answer
 * carries each once).
 */
export function StoreDetail({
  store,
  whole,
  rules,
  distance,
  onBack,
  now,
  product = null,
}: {
  store: StoreView;
  whole: PhysicalStore | undefined;
  rules: readonly Rule[];
  /** Miles from the searched point, when the store is listed (the one-store answer has none). */
  distance?: number;
  onBack: () => void;
  now: Date;
  /** The product the shopper searched for (id or GTIN): its kind opens in the store's products. */
  product?: string | null;
}) {
  const miles = distance ?? ("distance" in store && typeof store.distance === "number" ? store.distance : undefined);
  const queryClient = useQueryClient();
  const { isFavorite, toggleFavorite, askSignIn } = useFavorites();
  const [shareNote, setShareNote] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const favorite = isFavorite(store.id);
  const where = [store.city, store.state].filter(Boolean).join(", ");
  // A closure in force or to come, with its note: the status says what holds now, this what is
  // coming ("Temporarily closed from Dec 3 until further notice · Renovation"), as the store page.
  const closure = "permanently_closed" in store && store.permanently_closed ? null : closureLine(store.temporarily_closed, store.time_zone, now);
  useDocumentMeta(
    `${store.name}${where ? `, ${where}` : ""} · Store Locator`,
    `${store.name}${where ? ` in ${where}` : ""}: address, phone, opening hours and directions.`,
  );

  useEffect(() => {
    heading.current?.focus();
    sendEvent("panel", store.id);
  }, [store.id]);

  // Signed out, the toggle asks to sign in at once. Favourites keep whole stores: signed in, a
  // click before the whole store arrives waits for it (already on its way).
  const onFavorite = async () => {
    if (!favorite) sendEvent("favourite", store.id);
    if (askSignIn(store.id)) return onBack(); // favourited once signed in (m14)
    const full = whole ?? (await queryClient.fetchQuery(physicalStoreOptions(store.id)).catch(() => undefined));
    if (full && toggleFavorite(full) === "sign-in") onBack();
  };

  const onShare = async () => {
    sendEvent("share", store.id);
    const result = await shareStore(store);
    setShareNote(result === "copied" ? "Link copied" : result === "failed" ? "Could not share the link" : "");
  };

  return (
    <article aria-labelledby={`store-${store.id}-name`} aria-busy={!whole} className="flex flex-col gap-4 p-4">
      <button type="button" onClick={onBack} className="inline-flex items-center gap-1 self-start text-sm font-medium text-emerald-800 underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to results
      </button>
      <StoreImage src={store.image} alt="" className="aspect-video w-full rounded-md bg-gray-100 object-cover" />
      <div>
        <h2 id={`store-${store.id}-name`} ref={heading} tabIndex={-1} className="text-xl font-semibold text-gray-900 outline-none">
          {store.name}
        </h2>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          {store.review_count > 0 ? (
            <Stars rating={store.average_rating} count={store.review_count} />
          ) : (
            <span className="text-sm text-gray-700">No reviews yet</span>
          )}
          <StoreStatus store={store} now={now} closure={false} />
          {miles !== undefined && (
            <span className="text-sm text-gray-700">
              {formatDistance(miles)}
              <span className="sr-only"> away</span>
            </span>
          )}
        </div>
        {closure && (
          <p role="note" className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900">
            {closure}
          </p>
        )}
        {/* The server makes this line from the weekly hours (schedule.ShownHours), so it never contradicts them. */}
        {store.hours && <p className="mt-1 text-sm text-gray-700">{store.hours}</p>}
        {whole && <p className="mt-1 text-xs text-gray-600">{verifiedLabel(whole.last_verified_at, now, store.time_zone)}</p>}
        <ServiceLines store={store} now={now} />
      </div>
      {whole && <LicenceLines store={whole} now={now} />}
      <RuleLines rules={rules} />

      <div className="grid grid-cols-4 gap-1 border-y border-gray-200 py-2">
        {store.phone_number ? (
          <a href={phoneHref(store.phone_number)} onClick={() => sendEvent("call", store.id)} className={action}>
            <Phone aria-hidden="true" className="size-5" />
            Call
          </a>
        ) : (
          <span aria-hidden="true" />
        )}
        <a
          href={directionsUrl(store.latitude, store.longitude)}
          target="_blank"
          rel="noopener noreferrer"
          onClick={() => sendEvent("directions", store.id)}
          className={action}
        >
          <Navigation aria-hidden="true" className="size-5" />
          Directions
        </a>
        {/* The widget signs no one in and keeps nothing: no favourite, and no link to share of a page only its host frames. */}
        {!embedded && (
          <button type="button" onClick={() => void onShare()} className={action}>
            <Share2 aria-hidden="true" className="size-5" />
            Share
          </button>
        )}
        {!embedded && (
          <button type="button" aria-pressed={favorite} onClick={() => void onFavorite()} className={action}>
            <Heart aria-hidden="true" className={cn("size-5", favorite && "fill-rose-600 text-rose-600")} />
            Favorite
          </button>
        )}
      </div>
      <p role="status" className="text-sm text-gray-700 empty:hidden">
        {shareNote}
      </p>

      <div>
        <AddressLine store={store} />
        {/* The spec's line names country, state and street; the town and postal code complete it. */}
        {(store.city || store.postal_code) && (
          <p className="text-sm text-gray-700">{[store.city, [store.state, store.postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", ")}</p>
        )}
      </div>
      <WorkingHoursTable store={store} now={now} />
      {store.phone_number && (
        <p className="text-sm text-gray-800">
          Phone:{" "}
          <a href={phoneHref(store.phone_number)} onClick={() => sendEvent("call", store.id)} className="underline">
            {formatPhone(store.phone_number)}
          </a>
        </p>
      )}
      {whole?.website && /^https?:\/\//.test(whole.website) && (
        <p className="text-sm text-gray-800">
          Website:{" "}
          <a href={whole.website} target="_blank" rel="noopener noreferrer" onClick={() => sendEvent("website", store.id)} className="break-all underline">
            {whole.website.replace(/^https?:\/\//, "")}
          </a>
        </p>
      )}
      {/* The store's own page (server-rendered, a plain link): its address to keep or share (m11). */}
      <p className="text-sm">
        {/* In the widget the store page opens beside it: it refuses to be framed. */}
        <a href={storePagePath(store)} target={embedded ? "_blank" : undefined} className="font-medium text-emerald-800 underline">
          View store page
        </a>
      </p>
      <OnlineStoreButton store={store} />
      <StoreProducts store={store} product={product} now={now} />
      {!embedded && <ReviewsSummary storeId={store.id} />}
      {!embedded && <ReportProblem storeId={store.id} storeName={store.name} />}
    </article>
  );
}
