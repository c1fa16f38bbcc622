import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type Partner = components["schemas"]["Partner"];
export type PartnerInput = components["schemas"]["PartnerInput"];

/** GET admin/partners: every partner, enabled ones first. */
export function partnersOptions() {
  return queryOptions({
    queryKey: adminKeys.partners,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/partners", { credentials: "include", signal })).partners,
    staleTime: 0,
  });
}

/** POST admin/partners: the partner as saved. */
export async function createPartner(input: PartnerInput) {
  return unwrap(await api.POST("/admin/partners", { body: input, credentials: "include" })).partner;
}

/** PATCH admin/partners/{id}: the fields given replace the partner's. */
export async function editPartner(id: string, input: PartnerInput) {
  return unwrap(await api.PATCH("/admin/partners/{id}", { params: { path: { id } }, body: input, credentials: "include" })).partner;
}

/** POST admin/partners/{id}/disable. */
export async function disablePartner(id: string) {
  return unwrap(await api.POST("/admin/partners/{id}/disable", { params: { path: { id } }, credentials: "include" })).partner;
}
