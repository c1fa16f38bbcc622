import { api, unwrap } from "../../../api/client";
import type { Customer } from "../types";

export interface SignInPayload {
  email: string;
  password: string;
}

/**
 * POST store/auth (credentials): signs in and answers the customer with favorites_phstores.
 */
export async function signIn(payload: SignInPayload): Promise<Customer> {
  const answer = unwrap(await api.POST("/store/auth", { body: payload, credentials: "include" }));
  return answer.customer;
}
