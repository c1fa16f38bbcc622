import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";

/** GET store/physical-store/{id}/reviews: the summary feeds the "Reviews summary" chart. */
export function storeReviewsOptions(id: number) {
  return queryOptions({
    queryKey: ["store-reviews", id],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/store/physical-store/{id}/reviews", { params: { path: { id }, query: { page: 1, limit: 1 } }, signal }),
      ),
  });
}
