import { api, unwrap } from "../../../api/client";

export interface ResetPasswordPayload {
  password: string;
  token: string;
}

/** POST store/customers/password-reset: sets a new password with the emailed token (which names the account). */
export async function resetPassword(payload: ResetPasswordPayload): Promise<void> {
  unwrap(await api.POST("/store/customers/password-reset", { body: payload }));
}
