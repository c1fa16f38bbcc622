import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";

export const REVIEWS_PAGE_SIZE = 10;

/** GET store/physical-store/{id}/reviews, page by page (newest first) while has_more. */
export function reviewsOptions(id: number) {
  return infiniteQueryOptions({
    queryKey: ["store-reviews-pages", id],
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await api.GET("/store/physical-store/{id}/reviews", {
          params: { path: { id }, query: { page: pageParam, limit: REVIEWS_PAGE_SIZE } },
          signal,
        }),
      ),
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}
