import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { ApiError } from "../../../api/client";
import { productKeys, storeKeys } from "../../../api/keys";
import { apiBase } from "../../../lib/config";
import type { Product, ProductSummary, StoreProduct } from "./types";

/** Suggestions asked for at a time (the API's default). */
export const SUGGEST_LIMIT = 8;

/** A GET on the API answering JSON, or an ApiError with the server's message. */
async function getJson<T>(path: string, signal: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await globalThis.fetch(new Request(`${apiBase}${path}`, { signal }));
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(0, "the server could not be reached");
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok || body === null) {
    const message = typeof body === "object" && body !== null && "message" in body && typeof body.message === "string" ? body.message : "";
    throw new ApiError(response.status, message || `Request failed with status ${response.status}`);
  }
  return body as T;
}

/** GET store/products/suggest?q=&limit=: products by name, brand or GTIN, best first. */
export function suggestProductsOptions(q: string) {
  return queryOptions({
    queryKey: productKeys.suggest(q),
    queryFn: async ({ signal }) =>
      (await getJson<{ products: ProductSummary[] }>(`/store/products/suggest?${new URLSearchParams({ q, limit: String(SUGGEST_LIMIT) })}`, signal)).products,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET store/products/{id} (an id or a GTIN): the chosen product's name after a reload or a shared link. */
export function productOptions(id: string) {
  return queryOptions({
    queryKey: productKeys.detail(id),
    queryFn: async ({ signal }) => (await getJson<{ product: Product }>(`/store/products/${encodeURIComponent(id)}`, signal)).product,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET store/physical-store/{id}/products: what a store carries, by kind, brand and name. */
export function storeProductsOptions(storeId: number) {
  return queryOptions({
    queryKey: storeKeys.products(storeId),
    queryFn: async ({ signal }) => (await getJson<{ products: StoreProduct[] }>(`/store/physical-store/${storeId}/products`, signal)).products,
    // Stock changes during the day: asked again each time the panel opens.
    staleTime: 0,
  });
}
