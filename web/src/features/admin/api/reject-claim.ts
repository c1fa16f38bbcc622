import { api, unwrap } from "../../../api/client";
import type { Claim } from "../types";

/** POST admin/claims/{id}/reject {reason}: the reason is emailed to the owner (409 when already decided). */
export async function rejectClaim(id: number, reason: string): Promise<Claim> {
  return unwrap(await api.POST("/admin/claims/{id}/reject", { params: { path: { id } }, body: { reason }, credentials: "include" }));
}
