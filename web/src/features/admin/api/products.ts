import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { adminKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type AdminProduct = components["schemas"]["AdminProduct"];
export type ProductPatch = components["schemas"]["ProductPatch"];

/** Products per page of the editor's list. */
export const PRODUCT_PAGE = 20;

/** GET admin/products: the products whose name, brand, id or GTIN holds q, a page at a time. */
export function productSearchOptions(q: string, offset: number) {
  return queryOptions({
    queryKey: [...adminKeys.products, "search", q, offset] as const,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/admin/products", { params: { query: { q: q || undefined, limit: PRODUCT_PAGE, offset } }, credentials: "include", signal })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET admin/products/{id}: one product as the editor shows it. */
export function productOptions(id: string) {
  return queryOptions({
    queryKey: [...adminKeys.products, "one", id] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/products/{id}", { params: { path: { id } }, credentials: "include", signal })).product,
    staleTime: 0,
  });
}

/** PATCH admin/products/{id}: the changed fields; the answer is the product as saved. */
export async function editProduct(id: string, patch: ProductPatch) {
  return unwrap(await api.PATCH("/admin/products/{id}", { params: { path: { id } }, body: patch, credentials: "include" })).product;
}
