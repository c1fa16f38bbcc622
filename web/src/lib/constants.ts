// Product constants (web/README.md, "Product rules").

/** Default map centre, near New York. */
export const DEFAULT_CENTER = { latitude: 40.7128, longitude: -74.006 } as const;

/** Search radius in miles; fixed. On the wire it is the query text "30". */
export const SEARCH_RADIUS = 30;

/** Stores asked for per search (the API's maximum), so pagination has pages. */
export const RESULTS_LIMIT = 200;

/** Stores per results page; pagination appears only above this. */
export const PAGE_SIZE = 20;

/** Mobile layout at this width or less. */
export const MOBILE_MAX_WIDTH = 767;

/** Map zoom: default, after choosing a place, and the fallback when none is known. */
export const DEFAULT_ZOOM = 10;
export const PLACE_ZOOM = 11;
export const FALLBACK_ZOOM = 4;
/** The deepest zoom of every map (the locator's and the moderation page's). */
export const MAX_ZOOM = 18;

/** Browser geolocation: no high accuracy, 10 s timeout, 60 s max age; code 2 retried after 2 s, 2 attempts. */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: false, timeout: 10_000, maximumAge: 60_000 };
export const GEOLOCATION_RETRY_DELAY_MS = 2_000;
export const GEOLOCATION_ATTEMPTS = 2;

/** Place search debounce. */
export const PLACE_SEARCH_DEBOUNCE_MS = 1_000;

/** "Redo search in this area" stays hidden this long after use. */
export const REDO_SEARCH_HIDE_MS = 500;

/** The address line is cut at this many characters, plus "...". */
export const ADDRESS_MAX_LENGTH = 80;

/** Store marker icon size in CSS pixels. */
export const MARKER_SIZE = 32;

/** Weekday names as the API sends them, Sunday first (Date.getDay() order). */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
