import { api, unwrap } from "../../../api/client";

/** POST store/customers/me/email-proof (credentials): mails the member a link that confirms the address. */
export async function requestEmailProof(): Promise<string> {
  return unwrap(await api.POST("/store/customers/me/email-proof", { credentials: "include" })).message;
}
