import { api, unwrap } from "../../../api/client";
import type { Customer } from "../types";

export interface SignInPayload {
  email: string;
  password: string;
}

/**
 * POST store/auth (credentials): signs in and answers the customer with favorites_phstores. The
 * profile page also uses it to check the old password before a change.
 */
export async function signIn(payload: SignInPayload): Promise<Customer> {
  const answer = unwrap(await api.POST("/store/auth", { body: payload, credentials: "include" }));
  return answer.customer;
}
