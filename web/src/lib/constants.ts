// Business constants from the specification (section 9).

/** Default map centre, near New York. */
export const DEFAULT_CENTER = { latitude: 40.7128, longitude: -74.006 } as const;

/** Search radius in miles; fixed. On the wire it is the query text "30". */
export const SEARCH_RADIUS = 30;

/** Stores per results page; pagination appears only above this. */
export const PAGE_SIZE = 20;

/** Mobile layout at this width or less. */
export const MOBILE_MAX_WIDTH = 767;
