import { api, unwrap } from "../../../api/client";
import type { Claim, Coordinates } from "../types";

/**
 * POST admin/claims/{id}/approve: publishes the store at `at`, or at the geocoded location when
 * `at` is undefined (400 when the address cannot be geocoded, 409 when already decided).
 */
export async function approveClaim(id: number, at?: Coordinates): Promise<Claim> {
  const body = at ? { latitude: at.latitude, longitude: at.longitude } : {};
  return unwrap(await api.POST("/admin/claims/{id}/approve", { params: { path: { id } }, body, credentials: "include" }));
}
