import { api, unwrap } from "../../../api/client";

export interface ResetPasswordPayload {
  email: string;
  password: string;
  token: string;
}

/** POST store/customers/password-reset: sets a new password with the emailed token. */
export async function resetPassword(payload: ResetPasswordPayload): Promise<void> {
  unwrap(await api.POST("/store/customers/password-reset", { body: payload }));
}
