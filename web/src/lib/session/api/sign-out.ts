import { requestJson } from "../../../api/http";

/** DELETE store/auth (credentials): ends the session. */
export async function signOut(): Promise<void> {
  await requestJson<unknown>("/store/auth", { method: "DELETE", credentials: true });
}
