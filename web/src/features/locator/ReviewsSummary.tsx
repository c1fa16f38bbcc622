import { useQuery } from "@tanstack/react-query";
import { Stars } from "../../components/Stars";
import { Spinner } from "../../components/ui/spinner";
import { reviewSummaryOptions } from "../../api/endpoints/store-reviews";

/** "Reviews summary": five bars from 5 down to 1, the average (one decimal), the recommended share. */
export function ReviewsSummary({ storeId }: { storeId: number }) {
  const reviews = useQuery(reviewSummaryOptions(storeId));
  const summary = reviews.data?.summary;
  const max = Math.max(1, ...(summary?.counts.map((c) => c.count) ?? [0]));
  return (
    <section className="border-t border-gray-200 pt-3" aria-labelledby={`reviews-${storeId}`}>
      <h3 id={`reviews-${storeId}`} className="font-semibold text-gray-900">
        Reviews summary
      </h3>
      {reviews.isPending ? (
        <Spinner label="Loading reviews" className="mt-2" />
      ) : reviews.isError || !summary ? (
        <p className="mt-2 text-sm text-gray-600">Reviews are not available right now.</p>
      ) : summary.count === 0 ? (
        <p className="mt-2 text-sm text-gray-700">No reviews yet</p>
      ) : (
        <div className="mt-2 flex gap-4">
          <div className="shrink-0 text-center">
            <p className="text-3xl font-semibold text-gray-900">{summary.average.toFixed(1)}</p>
            <Stars rating={summary.average} />
            <p className="text-xs text-gray-700">{summary.count} reviews</p>
          </div>
          <div className="flex-1">
            <ul aria-label="Ratings" className="space-y-1">
              {[5, 4, 3, 2, 1].map((rating) => {
                const count = summary.counts.find((c) => c.rating === rating)?.count ?? 0;
                return (
                  <li key={rating} className="flex items-center gap-2 text-xs text-gray-700">
                    <span className="w-3">{rating}</span>
                    <span className="sr-only">stars:</span>
                    <span aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded-full bg-gray-200">
                      <span className="block h-full rounded-full bg-amber-500" style={{ width: `${(count / max) * 100}%` }} />
                    </span>
                    <span className="w-8 text-right">{count}</span>
                  </li>
                );
              })}
            </ul>
            <p className="mt-2 text-sm text-gray-800">{summary.recommended_percentage}% of reviewers recommend this store</p>
          </div>
        </div>
      )}
      <a
        href={`/reviews?store=${storeId}`}
        target="_blank"
        rel="noopener noreferrer"
        className="mt-2 inline-block text-sm font-medium text-emerald-800 underline"
      >
        Go to reviews
      </a>
    </section>
  );
}
