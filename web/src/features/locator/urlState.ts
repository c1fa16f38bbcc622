import type { StoreFilters } from "./api/list-physical-stores";

/**
 * What the address bar carries, so reload, back/forward and shared links restore the view:
 * /?place=Brooklyn&lat=40.65&lon=-73.95&open=1&delivery=1&online=1&curbside=1&licensed=1&store=123
 * and, with a product chosen, &product=ID (a catalogue id or a GTIN) and &in_stock=1.
 */
export interface LocatorUrlState {
  place: string | null;
  center: { latitude: number; longitude: number } | null;
  filters: StoreFilters;
  store: number | null;
  /** The chosen product's id or GTIN: the list shows the stores that carry it (docs/products.md). */
  product: string | null;
  /** "In stock only" (meaningful with a product only). */
  inStock: boolean;
}

export const FILTER_PARAMS: Record<keyof StoreFilters, string> = {
  open: "open",
  delivery: "delivery",
  online: "online",
  curbside: "curbside",
  licensed: "licensed",
};

function num(value: string | null, min: number, max: number): number | null {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
}

export function parseLocatorUrl(params: URLSearchParams): LocatorUrlState {
  const lat = num(params.get("lat"), -90, 90);
  const lon = num(params.get("lon"), -180, 180);
  const store = num(params.get("store"), 1, Number.MAX_SAFE_INTEGER);
  const flag = (name: string) => params.get(name) === "1" || params.get(name) === "true";
  return {
    place: params.get("place")?.trim() || null,
    center: lat !== null && lon !== null ? { latitude: lat, longitude: lon } : null,
    filters: {
      open: flag(FILTER_PARAMS.open),
      delivery: flag(FILTER_PARAMS.delivery),
      online: flag(FILTER_PARAMS.online),
      curbside: flag(FILTER_PARAMS.curbside),
      licensed: flag(FILTER_PARAMS.licensed),
    },
    store: store !== null && Number.isInteger(store) ? store : null,
    product: productParam(params.get("product")),
    inStock: flag("in_stock"),
  };
}

/** A product id as the API takes it (up to 100 characters, no control characters), else none. */
function productParam(value: string | null): string | null {
  const id = value?.trim() ?? "";
  // eslint-disable-next-line no-control-regex -- a pasted link's control characters are refused
  return id !== "" && id.length <= 100 && !/[\u0000-\u001f\u007f]/.test(id) ? id : null;
}

const round = (n: number) => String(Math.round(n * 1e5) / 1e5);

export function formatLocatorUrl(state: LocatorUrlState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.place) params.set("place", state.place);
  if (state.center) {
    params.set("lat", round(state.center.latitude));
    params.set("lon", round(state.center.longitude));
  }
  for (const key of Object.keys(FILTER_PARAMS) as (keyof StoreFilters)[]) {
    if (state.filters[key]) params.set(FILTER_PARAMS[key], "1");
  }
  if (state.store !== null) params.set("store", String(state.store));
  if (state.product !== null) {
    params.set("product", state.product);
    if (state.inStock) params.set("in_stock", "1");
  }
  return params;
}
