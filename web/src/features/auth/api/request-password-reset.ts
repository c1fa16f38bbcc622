import { api, unwrap } from "../../../api/client";

/** POST store/customers/password-token2: emails a reset link. The email is trimmed; app is "locator". */
export async function requestPasswordReset(email: string): Promise<void> {
  unwrap(await api.POST("/store/customers/password-token2", { body: { email: email.trim(), app: "locator" } }));
}
