import { api, unwrap } from "../../../api/client";
import type { Customer } from "../types";

/** POST customers/remove-favorite-phstore (credentials). */
export async function removeFavorite(phstoreId: number): Promise<Customer> {
  return unwrap(await api.POST("/customers/remove-favorite-phstore", { body: { phstore_id: phstoreId }, credentials: "include" })).customer;
}
