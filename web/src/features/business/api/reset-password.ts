import { api, unwrap } from "../../../api/client";

/** POST business/password-reset: sets the new password with the emailed token (400 with the reason otherwise). */
export async function resetBusinessPassword(body: { password: string; token: string }): Promise<string> {
  return unwrap(await api.POST("/business/password-reset", { body, credentials: "include" })).message;
}
