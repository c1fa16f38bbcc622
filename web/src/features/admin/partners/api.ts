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

export type APIKey = components["schemas"]["APIKey"];
export type Webhook = components["schemas"]["Webhook"];
export type WebhookEvent = components["schemas"]["WebhookEvent"];

/** GET admin/partners/{id}/keys: the partner's read keys (never the keys themselves). */
export function partnerKeysOptions(id: string) {
  return queryOptions({
    queryKey: [...adminKeys.partners, id, "keys"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/partners/{id}/keys", { params: { path: { id } }, credentials: "include", signal })),
    staleTime: 0,
  });
}

/** POST admin/partners/{id}/keys: the key with its secret, answered once. */
export async function createPartnerKey(id: string, name: string) {
  return unwrap(await api.POST("/admin/partners/{id}/keys", { params: { path: { id } }, body: { name }, credentials: "include" }));
}

/** DELETE admin/partners/{id}/keys/{keyId}. */
export async function revokePartnerKey(id: string, keyId: number) {
  return unwrap(await api.DELETE("/admin/partners/{id}/keys/{keyId}", { params: { path: { id, keyId } }, credentials: "include" }));
}

/** GET admin/partners/{id}/webhooks: each webhook with its last status and newest deliveries. */
export function webhooksOptions(id: string) {
  return queryOptions({
    queryKey: [...adminKeys.partners, id, "webhooks"] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/partners/{id}/webhooks", { params: { path: { id } }, credentials: "include", signal })).webhooks,
    staleTime: 0,
  });
}

/** POST admin/partners/{id}/webhooks: the webhook with its signing secret, answered once. */
export async function registerWebhook(id: string, url: string, events: WebhookEvent[]) {
  return unwrap(await api.POST("/admin/partners/{id}/webhooks", { params: { path: { id } }, body: { url, events }, credentials: "include" }));
}

/** DELETE admin/partners/{id}/webhooks/{hookId}. */
export async function removeWebhook(id: string, hookId: number) {
  const { error, response } = await api.DELETE("/admin/partners/{id}/webhooks/{hookId}", { params: { path: { id, hookId } }, credentials: "include" });
  if (error !== undefined || !response.ok) unwrap({ error: error ?? {}, response });
}
