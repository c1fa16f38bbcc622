/**
 * Whether the map under a pin shows streets. The default basemap has none (land, water, borders
 * and place names only); a street map (LOCATOR_PMTILES, a hosted style) draws them in a layer of
 * roads ("roads" in the Protomaps schema, "transportation" in OpenMapTiles). A picker that can
 * show nothing to check the pin against says so (docs/claims.md, "Where the store stands").
 */

/** The zoom from which a street map draws a town's streets: below it no answer is given. */
export const STREETS_ZOOM = 13;

const STREET_LAYER = /road|street|transportation|highway/i;

/** A rendered feature as MapLibre gives it (only what the test reads). */
export interface RenderedFeature {
  sourceLayer?: string;
  layer?: { id?: string };
}

/** True when any rendered feature is a street (by its source layer or its style layer's id). */
export function hasStreets(features: readonly RenderedFeature[]): boolean {
  return features.some((f) => STREET_LAYER.test(f.sourceLayer ?? "") || STREET_LAYER.test(f.layer?.id ?? ""));
}

/** What a picker says when the map under the pin has no streets. */
export const NO_STREETS =
  "The map here shows no streets: place the pin from the address (a street map or your own knowledge of the block) or type the coordinates.";
