import { api, unwrap } from "../../../api/client";
import type { Claim } from "../types";

/** POST admin/claims/{id}/consent {decision}: a moderator accepts or declines a pending co-owner for the store's owners (409 when none waits). */
export async function decideClaimConsent(id: number, decision: "accept" | "decline"): Promise<Claim> {
  return unwrap(await api.POST("/admin/claims/{id}/consent", { params: { path: { id } }, body: { decision }, credentials: "include" }));
}
