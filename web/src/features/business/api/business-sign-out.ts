import { api, unwrap } from "../../../api/client";

/** DELETE business/auth: ends the dashboard session. */
export async function businessSignOut(): Promise<void> {
  unwrap(await api.DELETE("/business/auth", { credentials: "include" }));
}
