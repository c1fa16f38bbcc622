import { api, unwrap } from "../../../api/client";
import type { Customer } from "../types";

/** POST customers/add-favorite-phstore (credentials). */
export async function addFavorite(phstoreId: number): Promise<Customer> {
  return unwrap(await api.POST("/customers/add-favorite-phstore", { body: { phstore_id: phstoreId }, credentials: "include" })).customer;
}
