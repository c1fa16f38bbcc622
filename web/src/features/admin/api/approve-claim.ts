import { api, unwrap } from "../../../api/client";
import type { Claim, ClaimField, Coordinates } from "../types";

/**
 * POST admin/claims/{id}/approve: publishes the store at `at`, or at the geocoded location when
 * `at` is undefined (400 when the address cannot be geocoded, 409 when already decided). For a claim
 * that matches a store already listed, `fields` are the claimed values to apply (none: nothing
 * public changes) and an undefined `at` keeps the store's position.
 */
export async function approveClaim(id: number, at?: Coordinates, fields?: ClaimField[]): Promise<Claim> {
  const body = { ...(at ? { latitude: at.latitude, longitude: at.longitude } : {}), ...(fields ? { fields } : {}) };
  return unwrap(await api.POST("/admin/claims/{id}/approve", { params: { path: { id } }, body, credentials: "include" }));
}
