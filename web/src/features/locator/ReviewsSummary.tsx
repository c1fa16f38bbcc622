import { useQuery } from "@tanstack/react-query";
import { RatingsBreakdown } from "../../components/RatingsBreakdown";
import { Spinner } from "../../components/ui/spinner";
import { reviewSummaryOptions } from "../../api/endpoints/store-reviews";

/** "Reviews summary": five bars from 5 down to 1, the average (one decimal), the recommended share. */
export function ReviewsSummary({ storeId }: { storeId: number }) {
  const reviews = useQuery(reviewSummaryOptions(storeId));
  const summary = reviews.data?.summary;
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
        <RatingsBreakdown summary={summary} size="compact" />
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
