import { api, unwrap } from "../../../api/client";
import type { paths } from "../../../api/schema";

export type LocatePayload = NonNullable<paths["/store/claim/locate"]["post"]["requestBody"]>["content"]["application/json"];
export type Located = paths["/store/claim/locate"]["post"]["responses"]["200"]["content"]["application/json"];

/** POST store/claim/locate: where the address is found and how precisely (found false: nowhere). */
export async function locateAddress(payload: LocatePayload): Promise<Located> {
  return unwrap(await api.POST("/store/claim/locate", { body: payload }));
}
