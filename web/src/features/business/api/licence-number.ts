import { api, unwrap } from "../../../api/client";

/**
 * POST business/stores/{id}/licence: the owner's licence number, verified only when an active
 * registry row with that number has the store's address (docs/licences.md).
 */
export async function submitLicenceNumber(id: number, number: string) {
  return unwrap(await api.POST("/business/stores/{id}/licence", { params: { path: { id } }, body: { number }, credentials: "include" }));
}
