import { api, unwrap } from "../../../api/client";

/**
 * DELETE business/stores/{id}/owners/{ownerId}: removes a co-owner linked after this account; answers
 * the store with its owners (403 for an earlier owner, which only a moderator can remove).
 */
export async function removeOwner(id: number, ownerId: number) {
  return unwrap(
    await api.DELETE("/business/stores/{id}/owners/{ownerId}", { params: { path: { id, ownerId } }, credentials: "include" }),
  ).store;
}
