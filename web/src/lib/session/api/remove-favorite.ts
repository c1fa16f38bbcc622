import { requestJson } from "../../../api/http";
import type { Customer } from "../types";

/** POST customers/remove-favorite-phstore (credentials). */
export async function removeFavorite(phstoreId: number): Promise<Customer> {
  const answer = await requestJson<{ customer: Customer }>("/customers/remove-favorite-phstore", {
    method: "POST",
    body: { phstore_id: phstoreId },
    credentials: true,
  });
  return answer.customer;
}
