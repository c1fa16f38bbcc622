import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { storeKeys, type StoreListQuery } from "../../../api/keys";
import { RESULTS_LIMIT, SEARCH_RADIUS } from "../../../lib/constants";
import { nextTask } from "../../../lib/nextTask";

export interface StoreFilters {
  open: boolean;
  delivery: boolean;
  online: boolean;
  curbside: boolean;
  /** Only stores with an active licence in a public registry (docs/licences.md). */
  licensed: boolean;
}

/** The service filters and the service each chooses (docs/product-rules.md, "Services"). */
export const SERVICE_FILTERS = { delivery: "delivery", online: "online_order", curbside: "curbside_pickup" } as const;

export const NO_FILTERS: StoreFilters = { open: false, delivery: false, online: false, curbside: false, licensed: false };

export interface StoreSearch {
  latitude: number;
  longitude: number;
  filters?: StoreFilters;
  /** A product's id or GTIN: only stores that carry it, each with its row (docs/products.md). */
  product?: string | null;
  /** With a product: only stores where it is in stock or limited, lawful and reported lately. */
  inStock?: boolean;
  /** Only stores that pass the compliance rule (the widget's, docs/embed.md). */
  compliant?: boolean;
  /** The widget's partner: the search is counted under it too. */
  partner?: string | null;
}

/**
 * GET store/physical-store/list-physical-store/: the stores near a point. Filters are sent only
 * when on (curbside as the API spells it: is_curdside_pickup_available); limit is the maximum so
 * the results panel has pages. With Open now and a service on, available_now asks for stores
 * taking that service's orders now ("Delivery now").
 */
export function listPhysicalStoresOptions({ latitude, longitude, filters = NO_FILTERS, product = null, inStock = false, compliant = false, partner = null }: StoreSearch) {
  const query: StoreListQuery = {
    latitude,
    longitude,
    radius: SEARCH_RADIUS,
    limit: RESULTS_LIMIT,
    ...(filters.delivery && { is_delivery_available: "true" as const }),
    ...(filters.online && { is_order_online_available: "true" as const }),
    ...(filters.curbside && { is_curdside_pickup_available: "true" as const }),
    ...(filters.open && { is_open_now: "true" as const }),
    ...(filters.licensed && { is_licence_verified: "true" as const }),
    ...(filters.open && (filters.delivery || filters.online || filters.curbside) && { available_now: "true" as const }),
    ...(product !== null && { product, ...(inStock && { in_stock: "true" as const }) }),
    ...(compliant && { compliant: "true" as const }),
    ...(partner !== null && { partner }),
  };
  return queryOptions({
    queryKey: storeKeys.list(query),
    queryFn: async ({ signal }) => {
      // Out of the task that started it (on the page's load, the first commit's effects).
      await nextTask();
      return unwrap(await api.GET("/store/physical-store/list-physical-store/", { params: { query }, signal }));
    },
    placeholderData: keepPreviousData,
    // Every filter or centre change asks the server again, even back to a search seen before.
    staleTime: 0,
  });
}
