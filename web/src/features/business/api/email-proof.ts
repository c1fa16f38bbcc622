import { api, unwrap } from "../../../api/client";
import type { BusinessAccount } from "../types";

/** POST business/email-proof: mails the signed-in, unconfirmed account a new link (429 with Retry-After when asked too often). */
export async function resendBusinessProof(): Promise<string> {
  return unwrap(await api.POST("/business/email-proof", { credentials: "include" })).message;
}

/** POST business/email-proof/confirm: follows the mailed link with its password; signs the account in. */
export async function confirmBusinessEmail(body: { token: string; password: string }): Promise<BusinessAccount> {
  return unwrap(await api.POST("/business/email-proof/confirm", { body, credentials: "include" })).account;
}
