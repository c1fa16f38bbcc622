import { api, unwrap } from "../../../api/client";

/** GET admin/stores/{id}/owners: the business accounts that can change a store, the earliest link first. */
export async function storeOwners(id: number) {
  return unwrap(await api.GET("/admin/stores/{id}/owners", { params: { path: { id } }, credentials: "include" })).owners;
}

/** DELETE admin/stores/{id}/owners/{ownerId}: takes the store away from that account (audit log "store.unlink"). */
export async function removeStoreOwner(id: number, ownerId: number): Promise<string> {
  return unwrap(
    await api.DELETE("/admin/stores/{id}/owners/{ownerId}", { params: { path: { id, ownerId } }, credentials: "include" }),
  ).message;
}
