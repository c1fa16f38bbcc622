import { api, unwrap } from "../../../api/client";

/** DELETE store/auth (credentials): ends the session. */
export async function signOut(): Promise<void> {
  unwrap(await api.DELETE("/store/auth", { credentials: "include" }));
}
