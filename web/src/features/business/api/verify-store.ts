import { api, unwrap } from "../../../api/client";

/** POST business/stores/{id}/verify: "Confirm these details are correct" (sets last_verified_at). */
export async function verifyStore(id: number) {
  return unwrap(await api.POST("/business/stores/{id}/verify", { params: { path: { id } }, credentials: "include" })).store;
}
