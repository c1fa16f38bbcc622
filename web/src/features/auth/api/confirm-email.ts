import { api, unwrap } from "../../../api/client";

/** POST store/customers/email-proof/confirm: follows the mailed link with the member's password. */
export async function confirmMemberEmail(body: { token: string; password: string }): Promise<string> {
  return unwrap(await api.POST("/store/customers/email-proof/confirm", { body })).message;
}
