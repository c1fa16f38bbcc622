import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { paths } from "../../../api/schema";

export type LicenceSource = NonNullable<paths["/admin/licences/import"]["post"]["parameters"]["query"]>["source"];

/** GET admin/licences: per registry source, the newest file's date and its matched / ambiguous / unmatched rows. */
export function licenceStatusOptions() {
  return queryOptions({
    queryKey: [...adminKeys.licences, "status"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/licences", { credentials: "include", signal })),
    staleTime: 0,
  });
}

/** GET admin/licences/matches: doubtful matches waiting for a moderator. */
export function licenceQueueOptions() {
  return queryOptions({
    queryKey: [...adminKeys.licences, "matches"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/licences/matches", { credentials: "include", signal })),
    staleTime: 0,
  });
}

/** GET admin/licences/unmatched: active licences without a store near a place. */
export function unmatchedOptions(place: { latitude: number; longitude: number; radius: number } | null) {
  return queryOptions({
    queryKey: [...adminKeys.licences, "unmatched", place] as const,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/licences/unmatched", { params: { query: place ?? { latitude: 0, longitude: 0 } }, credentials: "include", signal })),
    enabled: place !== null,
    staleTime: 0,
  });
}

/** POST admin/licences/import: the registry file itself is the body. */
export async function importRegistry(source: LicenceSource, date: string, file: File) {
  const text = await file.text();
  return unwrap(
    await api.POST("/admin/licences/import", {
      params: { query: { source, date, file_name: file.name } },
      // openapi-fetch would JSON-encode the body: send the file as it is.
      body: text,
      bodySerializer: (b: unknown) => b as BodyInit,
      headers: { "Content-Type": file.name.toLowerCase().endsWith(".json") ? "application/json" : "text/csv" },
      credentials: "include",
    }),
  );
}

/** POST admin/licences/matches/{id}: accept or reject a doubtful match. */
export async function decideMatch(id: number, decision: "accept" | "reject") {
  return unwrap(await api.POST("/admin/licences/matches/{id}", { params: { path: { id } }, body: { decision }, credentials: "include" }));
}

/** POST admin/licences/rows/{id}/store: the row belongs to another store. */
export async function pickStore(rowId: number, storeId: number) {
  return unwrap(await api.POST("/admin/licences/rows/{id}/store", { params: { path: { id: rowId } }, body: { store_id: storeId }, credentials: "include" }));
}

/** POST admin/licences/rows/{id}/new-store: an unpublished store from the row. */
export async function createStoreFromRow(rowId: number) {
  return unwrap(await api.POST("/admin/licences/rows/{id}/new-store", { params: { path: { id: rowId } }, credentials: "include" }));
}
