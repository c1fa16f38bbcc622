import { api, unwrap } from "../../../api/client";
import type { BusinessAccount } from "../types";

/** POST business/auth: sets the dashboard cookie; 401 {message} for a wrong email or password, 429 when locked. */
export async function businessSignIn(body: { email: string; password: string }): Promise<BusinessAccount> {
  return unwrap(await api.POST("/business/auth", { body, credentials: "include" })).account;
}
