import { requestJson } from "../../../api/http";
import type { Customer } from "../types";

/** POST customers/add-favorite-phstore (credentials). */
export async function addFavorite(phstoreId: number): Promise<Customer> {
  const answer = await requestJson<{ customer: Customer }>("/customers/add-favorite-phstore", {
    method: "POST",
    body: { phstore_id: phstoreId },
    credentials: true,
  });
  return answer.customer;
}
