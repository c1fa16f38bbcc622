import { api, unwrap } from "../../../api/client";

/** POST store/auth (credentials) with the current password: verifies it before a change. */
export async function verifyPassword(email: string, password: string): Promise<void> {
  unwrap(await api.POST("/store/auth", { body: { email, password }, credentials: "include" }));
}
