import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { physicalStoreOptions } from "../../api/endpoints/physical-store";
import { reviewPagesOptions, type ReviewSort } from "../../api/endpoints/store-reviews";
import type { ReviewList } from "../../api/types";
import { firstFrame } from "../../lib/firstFrame";
import { RatingsBreakdown } from "../../components/RatingsBreakdown";
import { Stars } from "../../components/Stars";
import { StoreStatus } from "../../components/StoreStatus";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { useMinuteTick } from "../../lib/useMinuteTick";
import { useTitle } from "../../lib/documentMeta";
import { addressLine } from "../../lib/address";
import { FlagButton } from "./FlagButton";
import { MyReviewSection } from "./MyReview";
import { PolicySection } from "./PolicySection";

type Review = ReviewList["reviews"][number];

/**
 * /reviews?store=ID: the store's name, its review summary, the member's own review (write, edit,
 * delete) and the reviews, newest first or by rating, each with the owner's reply and a flag.
 */
export function ReviewsPage() {
  const [params] = useSearchParams();
  const raw = params.get("store") ?? "";
  const id = /^\d+$/.test(raw) ? Number(raw) : 0;
  if (id < 1) {
    return (
      <Shell title="Reviews">
        <p className="mt-4 text-gray-700">No store was chosen. Open the reviews from a store on the locator.</p>
        <PolicySection />
      </Shell>
    );
  }
  return <StoreReviews id={id} />;
}

function Shell({ title, children }: { title: string; children: ReactNode }) {
  useTitle(title === "Reviews" ? title : `Reviews of ${title}`);
  return (
    <main className="mx-auto max-w-3xl p-4 md:p-8">
      <Link to="/" className="text-sm font-medium text-emerald-800 underline">
        Back to the locator
      </Link>
      <h1 className="mt-3 text-2xl font-semibold text-gray-900">{title}</h1>
      {children}
    </main>
  );
}

function StoreReviews({ id }: { id: number }) {
  const store = useQuery(physicalStoreOptions(id));
  const [sort, setSort] = useState<ReviewSort>("newest");
  const reviews = useInfiniteQuery(reviewPagesOptions(id, sort));
  const title = store.data ? store.data.name : "Reviews";
  const first = reviews.data?.pages[0];
  const list = reviews.data?.pages.flatMap((p) => p.reviews) ?? [];
  const now = useMinuteTick();
  const { pathname, search } = useLocation();
  // Until both answers are in, the server's first frame of this address (the store's heading
  // and summary, internal/httpapi/frames/reviews.html) stays: no "Reviews" and spinner between
  // it and the same text drawn again.
  const frame = firstFrame(pathname, search);
  if ((store.isPending || reviews.isPending) && frame !== null) {
    return <div className="contents" dangerouslySetInnerHTML={{ __html: frame }} />;
  }

  return (
    <Shell title={title}>
      {store.data && <p className="mt-1 text-sm text-gray-700">{addressLine(store.data)}</p>}
      {store.data && <StoreStatus store={store.data} now={now} className="mt-1" />}
      {store.isError && <p className="mt-2 text-gray-700">This store could not be found.</p>}
      {reviews.isPending ? (
        <Spinner label="Loading reviews" className="mt-6" />
      ) : reviews.isError || !first ? (
        <p className="mt-6 text-gray-700">Reviews are not available right now.</p>
      ) : (
        <>
          <Summary summary={first.summary} />
          <MyReviewSection storeId={id} />
          <section aria-labelledby="reviews-list" className="mt-8">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="reviews-list" className="text-lg font-semibold text-gray-900">
                All reviews
              </h2>
              <label className="flex items-center gap-2 text-sm text-gray-800">
                Sort by
                <select value={sort} onChange={(e) => setSort(e.target.value as ReviewSort)} className="rounded-md border border-gray-400 px-2 py-1">
                  <option value="newest">Newest first</option>
                  <option value="rating_desc">Highest rating</option>
                  <option value="rating_asc">Lowest rating</option>
                </select>
              </label>
            </div>
            {list.length === 0 ? (
              <p className="mt-3 text-gray-700">This store has no reviews yet.</p>
            ) : (
              <ul className="mt-3 divide-y divide-gray-200">
                {list.map((review) => (
                  <ReviewItem key={review.id} review={review} />
                ))}
              </ul>
            )}
            {reviews.hasNextPage && (
              <Button variant="outline" className="mt-4" disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
                {reviews.isFetchingNextPage ? "Loading…" : "Show more reviews"}
              </Button>
            )}
            <p className="mt-6 text-sm text-gray-700">
              Reviews are written by members with a proven email address; owners cannot remove them.{" "}
              <Link to="/reviews#review-policy" className="font-medium text-emerald-800 underline">
                How reviews are kept honest
              </Link>
            </p>
          </section>
        </>
      )}
    </Shell>
  );
}

function Summary({ summary }: { summary: ReviewList["summary"] }) {
  return (
    <section aria-labelledby="reviews-summary" className="mt-6 rounded-lg border border-gray-200 p-4">
      <h2 id="reviews-summary" className="text-lg font-semibold text-gray-900">
        Reviews summary
      </h2>
      <RatingsBreakdown summary={summary} size="full" />
    </section>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "long", day: "numeric" });

function ReviewItem({ review }: { review: Review }) {
  const product = review.product as { title?: unknown };
  const initial = review.customer.last_name.trim().charAt(0).toUpperCase();
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={review.rating} />
        <span className="font-medium text-gray-900">
          <span>{review.customer.first_name}</span>
          {initial && ` ${initial}.`}
        </span>
        <DateText value={review.created_at} />
        {review.edited_at && (
          <span className="text-sm text-gray-600">
            (edited <DateText value={review.edited_at} />)
          </span>
        )}
        {review.sample && <span className="rounded bg-gray-100 px-2 py-0.5 text-xs text-gray-700">Sample review (demo data)</span>}
      </div>
      {typeof product.title === "string" && product.title !== "" && <p className="mt-1 text-sm text-gray-600">{product.title}</p>}
      <p className="mt-2 whitespace-pre-line text-gray-800">{review.content}</p>
      {review.reply && (
        <div className="mt-3 ml-4 border-l-2 border-emerald-700 pl-3">
          <p className="text-sm font-medium text-gray-900">
            Reply from the store{review.reply.edited_at ? " (edited)" : ""}
          </p>
          <p className="mt-1 whitespace-pre-line text-sm text-gray-800">{review.reply.text}</p>
        </div>
      )}
      <FlagButton reviewId={review.id} />
    </li>
  );
}

function DateText({ value }: { value: string }) {
  const date = new Date(value);
  return (
    <time dateTime={value} className="text-sm text-gray-600">
      {Number.isNaN(date.getTime()) ? value : dateFormat.format(date)}
    </time>
  );
}
