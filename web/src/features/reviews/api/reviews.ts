import { queryOptions } from "@tanstack/react-query";
import { ApiError, api, unwrap } from "../../../api/client";
import type { components, paths } from "../../../api/schema";

export type MyReview = components["schemas"]["MyReview"];
export type ReviewInput = components["schemas"]["ReviewInput"];
export type ReviewPolicy = components["schemas"]["ReviewPolicy"];
export type FlagReason = NonNullable<paths["/reviews/{id}/flags"]["post"]["requestBody"]>["content"]["application/json"]["reason"];

/** The signed-in member's review of a store (null when there is none yet). */
export function myReviewOptions(storeId: number, memberId: number) {
  return queryOptions({
    queryKey: ["reviews", "mine", storeId, memberId] as const,
    queryFn: async ({ signal }): Promise<MyReview | null> => {
      try {
        return unwrap(await api.GET("/store/physical-store/{id}/reviews/mine", { params: { path: { id: storeId } }, credentials: "include", signal }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** POST store/physical-store/{id}/reviews: the member writes a review (published or held). */
export async function writeReview(storeId: number, body: ReviewInput) {
  return unwrap(await api.POST("/store/physical-store/{id}/reviews", { params: { path: { id: storeId } }, body, credentials: "include" }));
}

/** PATCH store/physical-store/{id}/reviews/mine: the member edits their review. */
export async function editReview(storeId: number, body: ReviewInput) {
  return unwrap(await api.PATCH("/store/physical-store/{id}/reviews/mine", { params: { path: { id: storeId } }, body, credentials: "include" }));
}

/** DELETE store/physical-store/{id}/reviews/mine. */
export async function deleteReview(storeId: number) {
  return unwrap(await api.DELETE("/store/physical-store/{id}/reviews/mine", { params: { path: { id: storeId } }, credentials: "include" }));
}

/** POST reviews/{id}/flags: anyone flags a published review. */
export async function flagReview(reviewId: number, reason: FlagReason) {
  return unwrap(await api.POST("/reviews/{id}/flags", { params: { path: { id: reviewId } }, body: { reason } }));
}

/** GET reviews/policy: the published reasons and the removals per month. */
export function reviewPolicyOptions() {
  return queryOptions({
    queryKey: ["reviews", "policy"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/reviews/policy", { signal })),
  });
}
