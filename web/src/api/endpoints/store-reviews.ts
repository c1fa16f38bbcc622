import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../client";
import { storeKeys } from "../keys";

export const REVIEWS_PAGE_SIZE = 10;

/** GET store/physical-store/{id}/reviews?page=&limit=: a page of reviews, newest first, with the summary. */
async function storeReviews(id: number, page: number, limit: number, signal: AbortSignal) {
  return unwrap(await api.GET("/store/physical-store/{id}/reviews", { params: { path: { id }, query: { page, limit } }, signal }));
}

/** The summary only (one review asked for): the store panel's "Reviews summary" chart. */
export function reviewSummaryOptions(id: number) {
  return queryOptions({
    queryKey: storeKeys.reviewSummary(id),
    queryFn: ({ signal }) => storeReviews(id, 1, 1, signal),
  });
}

/** The reviews page: REVIEWS_PAGE_SIZE at a time while has_more. */
export function reviewPagesOptions(id: number) {
  return infiniteQueryOptions({
    queryKey: storeKeys.reviewPages(id),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => storeReviews(id, pageParam, REVIEWS_PAGE_SIZE, signal),
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}
