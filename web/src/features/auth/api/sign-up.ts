import { api, unwrap } from "../../../api/client";
import type { components } from "../../../api/schema";

export type SignUpPayload = components["schemas"]["SignUpRequest"];

/** POST store/customers: creates a member (does not sign in). Failures carry the server's message. */
export async function signUp(payload: SignUpPayload): Promise<void> {
  unwrap(await api.POST("/store/customers", { body: payload }));
}
