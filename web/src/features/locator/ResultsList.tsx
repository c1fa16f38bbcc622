import { memo, Suspense, type ComponentType } from "react";
import { Stars } from "../../components/Stars";
import { StoreStatus } from "../../components/StoreStatus";
import type { StoreListItem } from "../../api/types";
import { cn } from "../../lib/cn";
import { formatDistance } from "../../lib/distance";
import { highlightHandlers, useIsHighlighted } from "./highlight";

// Memoised: the locator page re-renders on every change of its own state (search text, spinner,
// the sheet), and a row only changes with its store, its number, the minute or its highlight.
const ResultRow = memo(function ResultRow({
  store,
  number,
  onSelect,
  onPrefetch,
  now,
  Offer,
}: {
  store: StoreListItem;
  number: number;
  onSelect: (id: number) => void;
  onPrefetch?: (id: number) => void;
  now: Date;
  Offer?: OfferLine;
}) {
  const lit = useIsHighlighted(store.id);
  const highlight = highlightHandlers(store.id);
  return (
    <li>
      <button
        type="button"
        data-store-id={store.id}
        onClick={() => onSelect(store.id)}
        {...highlight}
        onMouseEnter={() => {
          highlight.onMouseEnter();
          onPrefetch?.(store.id);
        }}
        onFocus={() => {
          highlight.onFocus();
          onPrefetch?.(store.id);
        }}
        className={cn(
          "flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-gray-50 focus-visible:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-700",
          lit && "bg-amber-50",
        )}
      >
        {/* The same number as the store's pin on the map, read out too ("3. Green Leaf ..."). */}
        <span
          className={cn(
            "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white",
            lit ? "bg-amber-600" : "bg-emerald-800",
          )}
        >
          {number}
          <span className="sr-only">. </span>
        </span>
        <span className="flex min-w-0 flex-1 flex-col items-start gap-1">
          <span className="flex w-full items-baseline justify-between gap-2">
            <span data-part="name" className="min-w-0 font-medium break-words text-gray-900">{store.name}</span>
            {"distance" in store && typeof store.distance === "number" && (
              <span className="shrink-0 text-sm text-gray-700">{formatDistance(store.distance)}</span>
            )}
          </span>
          <span className="flex flex-wrap items-center gap-2">
            {/* Five empty stars and "(0)" would read as a store rated zero. */}
            {store.review_count > 0 ? <Stars rating={store.average_rating} count={store.review_count} /> : <span className="text-sm text-gray-700">No reviews yet</span>}
            <StoreStatus store={store} now={now} />
          </span>
        </span>
      </button>
      {Offer && (
        <Suspense fallback={null}>
          <Offer store={store} now={now} />
        </Suspense>
      )}
    </li>
  );
});

/** A store's row for the chosen product, under its line (outside its button: it may hold a link). */
type OfferLine = ComponentType<{ store: StoreListItem; now: Date }>;

/**
 * One page of stores: the row's number (as on its map pin), name, distance, average rating stars
 * and review count ("No reviews yet" without any), Opened or Closed and what comes next. `first` is the number of the first row.
 * `onPrefetch` is told of the row pointed at or focused (the panel's whole store is fetched ahead).
 * With a product chosen, `Offer` draws each store's row for it.
 */
export const ResultsList = memo(function ResultsList({
  stores,
  first = 1,
  onSelect,
  onPrefetch,
  now,
  Offer,
}: {
  stores: readonly StoreListItem[];
  first?: number;
  onSelect: (id: number) => void;
  onPrefetch?: (id: number) => void;
  now: Date;
  Offer?: OfferLine;
}) {
  return (
    <ul aria-label="Stores" className="divide-y divide-gray-200">
      {stores.map((store, i) => (
        <ResultRow key={store.id} store={store} number={first + i} onSelect={onSelect} onPrefetch={onPrefetch} now={now} Offer={Offer} />
      ))}
    </ul>
  );
});
