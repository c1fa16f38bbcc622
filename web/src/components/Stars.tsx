import { memo } from "react";

// lucide's "star" icon as plain markup: the results list draws five per store (100 per page), and
// lucide's component (forwardRef, context, class merging, building the node per render) cost
// more main-thread time on the locator's load than the rest of a result row. Same SVG as lucide's.
const STAR_PATH =
  "M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z";

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={filled ? "lucide lucide-star size-4 fill-amber-500 text-amber-500" : "lucide lucide-star size-4 text-gray-300"}
    >
      <path d={STAR_PATH} />
    </svg>
  );
}

/** Average rating as five stars (rounded to the nearest whole star) with the review count. */
export const Stars = memo(function Stars({ rating, count, className }: { rating: number; count?: number; className?: string }) {
  const filled = Math.round(rating);
  return (
    <span className={className ?? "inline-flex items-center gap-1 text-sm text-gray-700"}>
      <span role="img" aria-label={`Rated ${rating.toFixed(1)} out of 5`} className="inline-flex">
        {[1, 2, 3, 4, 5].map((i) => (
          <StarIcon key={i} filled={i <= filled} />
        ))}
      </span>
      {count !== undefined && (
        <span>
          ({count}
          <span className="sr-only"> reviews</span>)
        </span>
      )}
    </span>
  );
});
