import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { productKeys, storeKeys } from "../../../api/keys";

/** Suggestions asked for at a time (the API's default). */
export const SUGGEST_LIMIT = 8;

/** GET store/products/suggest?q=&limit=: products by name, brand or GTIN, best first. */
export function suggestProductsOptions(q: string) {
  return queryOptions({
    queryKey: productKeys.suggest(q),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/store/products/suggest", { params: { query: { q, limit: SUGGEST_LIMIT } }, signal })).products,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET store/products/{id} (an id or a GTIN): the chosen product's name after a reload or from a shared link. */
export function productOptions(id: string) {
  return queryOptions({
    queryKey: productKeys.detail(id),
    queryFn: async ({ signal }) => unwrap(await api.GET("/store/products/{id}", { params: { path: { id } }, signal })).product,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET store/brand-products?brand=&partner=: the widget's brand chooser, best first (docs/embed.md). */
export function brandProductsOptions(brand: string, partner: string | null) {
  return queryOptions({
    queryKey: productKeys.brand(brand, partner),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/store/brand-products", { params: { query: { brand, ...(partner && { partner }) } }, signal })),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** GET store/physical-store/{id}/products: what a store carries, by kind, brand and name. */
export function storeProductsOptions(storeId: number) {
  return queryOptions({
    queryKey: storeKeys.products(storeId),
    queryFn: async ({ signal }) => unwrap(await api.GET("/store/physical-store/{id}/products", { params: { path: { id: storeId } }, signal })).products,
    // Stock changes during the day: asked again each time the panel opens.
    staleTime: 0,
  });
}
