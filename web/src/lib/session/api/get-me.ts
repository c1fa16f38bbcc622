import { api, unwrap } from "../../../api/client";
import type { Customer } from "../types";

/** GET store/customers/me (credentials): the signed-in customer, or a failure when logged out. */
export async function getMe(signal?: AbortSignal): Promise<Customer> {
  return unwrap(await api.GET("/store/customers/me", { credentials: "include", signal })).customer;
}
