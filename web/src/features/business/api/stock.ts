import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import type { components } from "../../../api/schema";

export type StockItem = components["schemas"]["OwnerStockItem"];
export type CatalogueProduct = components["schemas"]["AdminProduct"];
export type Availability = StockItem["availability"];

/** GET business/stores/{id}/stock: the store's stock, each row with the law's verdict. */
export function storeStockOptions(id: number) {
  return queryOptions({
    queryKey: businessKeys.stock(id),
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/stores/{id}/stock", { params: { path: { id } }, credentials: "include", signal })).items,
    retry: false,
  });
}

/** GET business/products: catalogue products by name, brand, id or a scanned barcode. */
export function findProductsOptions(q: string) {
  return queryOptions({
    queryKey: businessKeys.products(q),
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/products", { params: { query: { q, limit: 10 } }, credentials: "include", signal })),
    enabled: q.trim() !== "",
    retry: false,
  });
}

/** PUT business/stores/{id}/stock/{productId}: the store carries the product with these values. */
export async function setStock(id: number, productId: string, body: { availability: Availability; quantity: number | null; price: string | null }) {
  return unwrap(await api.PUT("/business/stores/{id}/stock/{productId}", { params: { path: { id, productId } }, body, credentials: "include" })).item;
}

/** DELETE business/stores/{id}/stock/{productId}: the store no longer carries the product. */
export async function removeStock(id: number, productId: string) {
  return unwrap(await api.DELETE("/business/stores/{id}/stock/{productId}", { params: { path: { id, productId } }, credentials: "include" })).message;
}

/** POST business/stock/import: a feed file (CSV or TSV) for the account's stores; answers the report. */
export async function uploadStockFeed(file: File, replace: boolean) {
  const text = await file.text();
  return unwrap(
    await api.POST("/business/stock/import", {
      params: { query: { replace: replace ? "true" : "false", file_name: file.name.slice(0, 200) } },
      // openapi-fetch would JSON-encode the body: send the text as it is.
      body: text,
      bodySerializer: (b: unknown) => b as BodyInit,
      headers: { "Content-Type": "text/csv" },
      credentials: "include",
    }),
  );
}
