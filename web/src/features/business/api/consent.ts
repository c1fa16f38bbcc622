import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";

export type Decision = "accept" | "decline";

/** POST business/consent/request: what a mailed consent link asks; reading it decides nothing (400 for a spent or expired link). */
export function consentRequestOptions(token: string) {
  return queryOptions({
    queryKey: businessKeys.consent(token),
    queryFn: async ({ signal }) => unwrap(await api.POST("/business/consent/request", { body: { token }, signal })).request,
    retry: false,
    staleTime: Infinity,
  });
}

/** POST business/consent: the owner's decision with the mailed link, which it uses up. */
export async function consentByLink(token: string, decision: Decision): Promise<string> {
  return unwrap(await api.POST("/business/consent", { body: { token, decision } })).message;
}

/** POST business/stores/{id}/pending-owners/{claimId}: an owner accepts or declines a pending co-owner; answers the store. */
export async function decidePendingOwner(id: number, claimId: number, decision: Decision) {
  return unwrap(
    await api.POST("/business/stores/{id}/pending-owners/{claimId}", {
      params: { path: { id, claimId } },
      body: { decision },
      credentials: "include",
    }),
  ).store;
}

/** GET business/waiting: the stores the account claimed and waits to change until an owner consents. */
export function waitingOptions() {
  return queryOptions({
    queryKey: businessKeys.waiting,
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/waiting", { credentials: "include", signal })).waiting,
    staleTime: 0,
  });
}
