import { api, unwrap } from "../../../api/client";
import type { StorePatch } from "../types";

/**
 * PATCH business/stores/{id}: hours, phone, website and the flags publish at once; name, address
 * and position come back as a change request for a moderator. 400 {message} for bad input.
 */
export async function patchStore(id: number, body: StorePatch) {
  return unwrap(await api.PATCH("/business/stores/{id}", { params: { path: { id } }, body, credentials: "include" }));
}
