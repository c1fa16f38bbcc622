import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import { signedInOptions } from "../../../lib/session/hint";

/** GET admin/me (credentials): the signed-in moderator, or null when signed out. */
export const adminMeOptions = () =>
  signedInOptions(adminKeys.me, "locator_admin", async (signal) => unwrap(await api.GET("/admin/me", { credentials: "include", signal })).moderator);
