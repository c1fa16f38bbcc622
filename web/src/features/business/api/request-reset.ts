import { api, unwrap } from "../../../api/client";

/** POST business/password-token: mails a reset link when the email has a business account (same answer either way). */
export async function requestBusinessReset(email: string): Promise<string> {
  return unwrap(await api.POST("/business/password-token", { body: { email } })).message;
}
