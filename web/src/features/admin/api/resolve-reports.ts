import { api, unwrap } from "../../../api/client";
import type { paths } from "../../../api/schema";

export type ResolvePayload = NonNullable<paths["/admin/reports/{storeId}/resolve"]["post"]["requestBody"]>["content"]["application/json"];

/** POST admin/reports/{storeId}/resolve: fix, hide or dismiss every open report of a store (409 when none is left). */
export async function resolveReports(storeId: number, payload: ResolvePayload) {
  return unwrap(await api.POST("/admin/reports/{storeId}/resolve", { params: { path: { storeId } }, body: payload, credentials: "include" }));
}
