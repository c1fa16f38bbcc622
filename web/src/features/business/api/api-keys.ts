import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type ApiKey = components["schemas"]["APIKey"];

/** GET business/api-keys: the account's point-of-sale keys (never the keys themselves), the bound and the rate. */
export function apiKeysOptions() {
  return queryOptions({
    queryKey: businessKeys.apiKeys,
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/api-keys", { credentials: "include", signal })),
    retry: false,
  });
}

/** POST business/api-keys: a new key; its secret is in this answer only. */
export async function createApiKey(name: string) {
  return unwrap(await api.POST("/business/api-keys", { body: { name }, credentials: "include" }));
}

/** DELETE business/api-keys/{id}: revokes the key at once; answers it with its revoked_at. */
export async function revokeApiKey(id: number) {
  return unwrap(await api.DELETE("/business/api-keys/{id}", { params: { path: { id } }, credentials: "include" })).key;
}
