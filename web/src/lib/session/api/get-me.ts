import { requestJson } from "../../../api/http";
import type { Customer } from "../types";

/** GET store/customers/me (credentials): the signed-in customer, or a failure when logged out. */
export async function getMe(signal?: AbortSignal): Promise<Customer> {
  const answer = await requestJson<{ customer: Customer }>("/store/customers/me", { credentials: true, signal });
  return answer.customer;
}
