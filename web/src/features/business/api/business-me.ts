import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import { signedInOptions } from "../../../lib/session/hint";

/** GET business/me (credentials): the signed-in business account, or null when signed out. */
export const businessMeOptions = () =>
  signedInOptions(businessKeys.me, "locator_business", async (signal) => unwrap(await api.GET("/business/me", { credentials: "include", signal })).account);
