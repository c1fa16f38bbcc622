import type { ReviewList } from "../api/types";
import { Stars } from "./Stars";

const SIZES = {
  // The store panel's summary.
  compact: {
    box: "mt-2 flex gap-4",
    average: "text-3xl",
    count: "text-xs text-gray-700",
    list: "space-y-1",
    row: "text-xs text-gray-700",
    bar: "h-2",
    total: "w-8",
    recommended: "mt-2 text-sm text-gray-800",
  },
  // The reviews page's.
  full: {
    box: "mt-3 flex flex-col gap-6 sm:flex-row",
    average: "text-4xl",
    count: "text-sm text-gray-700",
    list: "space-y-1.5",
    row: "text-sm text-gray-800",
    bar: "h-2.5",
    total: "w-10",
    recommended: "mt-3 text-gray-800",
  },
} as const;

/** A store's reviews in numbers: the average (one decimal) with its stars, five bars from 5 down to 1, the recommended share. */
export function RatingsBreakdown({ summary, size }: { summary: ReviewList["summary"]; size: keyof typeof SIZES }) {
  const c = SIZES[size];
  // Each bar is its share of all reviews (a single 5-star review among ten is a tenth of a bar,
  // not a full one as when scaled to the largest count).
  const total = Math.max(1, summary.count, summary.counts.reduce((sum, n) => sum + n.count, 0));
  return (
    <div className={c.box}>
      <div className="shrink-0 text-center">
        <p className={`${c.average} font-semibold text-gray-900`}>{summary.average.toFixed(1)}</p>
        <Stars rating={summary.average} />
        <p className={c.count}>{summary.count} reviews</p>
      </div>
      <div className="flex-1">
        <ul aria-label="Ratings" className={c.list}>
          {[5, 4, 3, 2, 1].map((rating) => {
            const count = summary.counts.find((n) => n.rating === rating)?.count ?? 0;
            return (
              <li key={rating} className={`flex items-center gap-2 ${c.row}`}>
                {size === "compact" ? (
                  <>
                    <span className="w-3">{rating}</span>
                    <span className="sr-only">stars:</span>
                  </>
                ) : (
                  <span className="w-16">{rating} stars</span>
                )}
                <span aria-hidden="true" className={`${c.bar} flex-1 overflow-hidden rounded-full bg-gray-200`}>
                  <span className="block h-full rounded-full bg-amber-500" style={{ width: `${(count / total) * 100}%` }} />
                </span>
                <span className={`${c.total} text-right`}>{count}</span>
              </li>
            );
          })}
        </ul>
        <p className={c.recommended}>{summary.recommended_percentage}% of reviewers recommend this store</p>
      </div>
    </div>
  );
}
