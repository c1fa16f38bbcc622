import { Star } from "lucide-react";

/** Average rating as five stars (rounded to the nearest whole star) with the review count. */
export function Stars({ rating, count, className }: { rating: number; count?: number; className?: string }) {
  const filled = Math.round(rating);
  return (
    <span className={className ?? "inline-flex items-center gap-1 text-sm text-gray-700"}>
      <span role="img" aria-label={`Rated ${rating.toFixed(1)} out of 5`} className="inline-flex">
        {[1, 2, 3, 4, 5].map((i) => (
          <Star
            key={i}
            aria-hidden="true"
            className={i <= filled ? "size-4 fill-amber-500 text-amber-500" : "size-4 text-gray-300"}
          />
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
}
