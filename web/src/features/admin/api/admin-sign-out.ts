import { api, unwrap } from "../../../api/client";

/** DELETE admin/auth: ends the moderator session. */
export async function adminSignOut(): Promise<void> {
  unwrap(await api.DELETE("/admin/auth", { credentials: "include" }));
}
