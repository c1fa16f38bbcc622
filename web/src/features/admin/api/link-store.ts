import { api, unwrap } from "../../../api/client";

/** POST admin/business-links: lets the business account with `email` change store `storeId` (404 for an unknown one). */
export async function linkStore(storeId: number, email: string): Promise<string> {
  return unwrap(await api.POST("/admin/business-links", { body: { store_id: storeId, email }, credentials: "include" })).message;
}
