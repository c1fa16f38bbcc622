import { api, unwrap } from "../../../api/client";
import type { paths } from "../../../api/schema";

/** What a shopper sends: the reason and an optional note (at most 500 characters). */
export type ReportPayload = NonNullable<paths["/store/physical-store/{id}/reports"]["post"]["requestBody"]>["content"]["application/json"];

/** POST store/physical-store/{id}/reports: 201 {message, report}; 400, 404 and 429 carry {message}. */
export async function reportStore(id: number, payload: ReportPayload) {
  return unwrap(await api.POST("/store/physical-store/{id}/reports", { params: { path: { id } }, body: payload }));
}
