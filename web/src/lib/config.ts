/** Configuration the Go server injects into index.html before the app's script runs. */
export interface RuntimeConfig {
  apiBase?: string;
  /** The marketplace's storefront; "Go to online store" opens {storefrontUrl}/store/{store_id}. */
  storefrontUrl?: string;
  /** A MapLibre style URL; when set the map uses it instead of the offline basemap. */
  mapStyleUrl?: string;
  /** An upstream geocoder is configured: the place search finds street addresses. */
  addressSearch?: boolean;
  /** The server can locate a visitor by IP address (GET geo/ip-location); absent: it never can. */
  ipLocation?: boolean;
}

declare global {
  interface Window {
    __LOCATOR_CONFIG__?: RuntimeConfig;
  }
}

export const DEFAULT_API_BASE = "/api";

/**
 * Picks the API base: runtime config (window.__LOCATOR_CONFIG__.apiBase), then the build-time
 * VITE_API_BASE, then same-origin "/api". The result is absolute (resolved against the page's
 * address) and has no trailing slash, so paths like "/store/auth" can be appended.
 */
export function resolveApiBase(
  runtime: RuntimeConfig | undefined,
  buildTime: string | undefined,
  pageUrl: string,
): string {
  const chosen = [runtime?.apiBase, buildTime].find((v) => v !== undefined && v.trim() !== "");
  const base = new URL(chosen?.trim() ?? DEFAULT_API_BASE, pageUrl).href;
  return base.replace(/\/+$/, "");
}

/** The API base of this page, e.g. "https://locator.example/api". */
export const apiBase: string = resolveApiBase(
  window.__LOCATOR_CONFIG__,
  import.meta.env.VITE_API_BASE,
  window.location.href,
);

/** The storefront's base URL without a trailing slash ("" when not configured: same origin). */
export function storefrontUrl(): string {
  return (window.__LOCATOR_CONFIG__?.storefrontUrl ?? "").trim().replace(/\/+$/, "");
}

/** The configured MapLibre style URL, read at run time; undefined for the offline basemap. */
export function mapStyleUrl(): string | undefined {
  const url = window.__LOCATOR_CONFIG__?.mapStyleUrl?.trim();
  return url ? url : undefined;
}

/**
 * What the place search box can find: street addresses only with a geocoder (`addressSearch`),
 * otherwise cities, ZIP codes and neighbourhoods.
 */
export function placeSearchHint(): string {
  return window.__LOCATOR_CONFIG__?.addressSearch === true ? "Search city, ZIP code or address" : "Search city, ZIP code or neighbourhood";
}

/** Whether asking the server for the visitor's IP location can answer (else it is always 404). */
export function ipLocationAvailable(): boolean {
  return window.__LOCATOR_CONFIG__?.ipLocation === true;
}
