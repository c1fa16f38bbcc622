import { api, unwrap } from "../../../api/client";
import type { components } from "../../../api/schema";
import type { Customer } from "../../../lib/session";

export type ProfileUpdate = components["schemas"]["ProfileUpdate"];

/** POST store/customers/me (credentials): first_name and last_name, or phone, or password. */
export async function updateMe(update: ProfileUpdate): Promise<Customer> {
  const answer = unwrap(await api.POST("/store/customers/me", { body: update, credentials: "include" }));
  return answer.customer;
}
