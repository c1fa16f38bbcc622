import { memo } from "react";
import { Stars } from "../../components/Stars";
import { StoreStatus } from "../../components/StoreStatus";
import type { PhysicalStore } from "../../api/types";

// Memoised: the locator page re-renders on every change of its own state (search text, spinner,
// the sheet), and a row only changes with its store or the minute.
const ResultRow = memo(function ResultRow({ store, onSelect, now }: { store: PhysicalStore; onSelect: (id: number) => void; now: Date }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(store.id)}
        className="flex w-full flex-col items-start gap-1 px-4 py-3 text-left hover:bg-gray-50 focus-visible:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-700"
      >
        <span className="font-medium text-gray-900">{store.name}</span>
        <span className="flex flex-wrap items-center gap-2">
          <Stars rating={store.average_rating} count={store.review_count} />
          <StoreStatus store={store} now={now} />
        </span>
      </button>
    </li>
  );
});

/** One page of stores: name, average rating stars, review count, Opened or Closed and what comes next. */
export const ResultsList = memo(function ResultsList({ stores, onSelect, now }: { stores: readonly PhysicalStore[]; onSelect: (id: number) => void; now: Date }) {
  return (
    <ul aria-label="Stores" className="divide-y divide-gray-200">
      {stores.map((store) => (
        <ResultRow key={store.id} store={store} onSelect={onSelect} now={now} />
      ))}
    </ul>
  );
});
