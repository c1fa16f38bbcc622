import { api, unwrap } from "../../../api/client";
import type { Moderator } from "../types";

/** POST admin/auth: sets the moderator cookie; 401 {message} for a wrong email or password. */
export async function adminSignIn(body: { email: string; password: string }): Promise<Moderator> {
  return unwrap(await api.POST("/admin/auth", { body, credentials: "include" })).moderator;
}
