import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../client";
import { storeKeys } from "../keys";

export const REVIEWS_PAGE_SIZE = 10;

/** The orders of the reviews page: newest first, or by rating (then newest first). */
export type ReviewSort = "newest" | "rating_desc" | "rating_asc";

/** GET store/physical-store/{id}/reviews?page=&limit=&sort=: a page of reviews with the summary. */
async function storeReviews(id: number, page: number, limit: number, signal: AbortSignal, sort: ReviewSort = "newest") {
  const query = sort === "newest" ? { page, limit } : { page, limit, sort };
  return unwrap(await api.GET("/store/physical-store/{id}/reviews", { params: { path: { id }, query }, signal }));
}

/** The summary only (one review asked for): the store panel's "Reviews summary" chart. */
export function reviewSummaryOptions(id: number) {
  return queryOptions({
    queryKey: storeKeys.reviewSummary(id),
    queryFn: ({ signal }) => storeReviews(id, 1, 1, signal),
  });
}

/** The reviews page: REVIEWS_PAGE_SIZE at a time while has_more, in the order sort. */
export function reviewPagesOptions(id: number, sort: ReviewSort = "newest") {
  return infiniteQueryOptions({
    queryKey: [...storeKeys.reviewPages(id), sort] as const,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => storeReviews(id, pageParam, REVIEWS_PAGE_SIZE, signal, sort),
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}
