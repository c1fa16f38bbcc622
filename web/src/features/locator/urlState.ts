import type { StoreFilters } from "./api/list-physical-stores";

/**
 * What the address bar carries, so reload, back/forward and shared links restore the view:
 * /?place=Brooklyn&lat=40.65&lon=-73.95&open=1&delivery=1&online=1&curbside=1&licensed=1&store=123
 */
export interface LocatorUrlState {
  place: string | null;
  center: { latitude: number; longitude: number } | null;
  filters: StoreFilters;
  store: number | null;
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
  };
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
  return params;
}
