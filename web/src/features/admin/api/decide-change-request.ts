import { api, unwrap } from "../../../api/client";

/** POST admin/change-requests/{id}/approve: publishes the change (409 when already decided). */
export async function approveChangeRequest(id: number) {
  return unwrap(await api.POST("/admin/change-requests/{id}/approve", { params: { path: { id } }, body: {}, credentials: "include" }));
}

/** POST admin/change-requests/{id}/reject: the store stays as it is; a reason is required. */
export async function rejectChangeRequest(id: number, reason: string) {
  return unwrap(await api.POST("/admin/change-requests/{id}/reject", { params: { path: { id } }, body: { reason }, credentials: "include" }));
}
