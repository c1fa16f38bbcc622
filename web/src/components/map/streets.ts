// Where the map has streets. The offline basemap (internal/maptiles) has streets only where its
// data has them, two city centres (Chicago, San Francisco), and says where in its style's
// metadata ("locator:streets"); a street map of LOCATOR_PMTILES or a configured style has no such
// list and counts as streets everywhere. Maps say "no streets here" at street zooms elsewhere, so
// nobody takes the blank land for a place without streets. No MapLibre code here.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { mapStyleKeys } from "../../api/keys";
import { mapStyleUrl } from "../../lib/config";
import { MAP_STYLE_URL } from "./basemapStyle";

/** A box with streets: [west, south, east, north] in degrees. */
export interface StreetArea {
  name: string;
  bounds: [number, number, number, number];
}

/** From this zoom on a street map shows streets (the offline basemap's from 13). */
export const STREET_ZOOM = 13;

/** The style's street areas; null when the style does not list them (streets everywhere). */
export function streetAreasOf(style: unknown): StreetArea[] | null {
  const list = (style as { metadata?: Record<string, unknown> } | null)?.metadata?.["locator:streets"];
  if (!Array.isArray(list)) return null;
  return list.filter(
    (a): a is StreetArea =>
      typeof a === "object" && a !== null && typeof (a as StreetArea).name === "string" && Array.isArray((a as StreetArea).bounds) && (a as StreetArea).bounds.length === 4,
  );
}

/** Whether a point lies in one of the areas. */
export function hasStreetsAt(areas: StreetArea[], latitude: number, longitude: number): boolean {
  return areas.some(({ bounds: [w, s, e, n] }) => longitude >= w && longitude <= e && latitude >= s && latitude <= n);
}

/** "Chicago and San Francisco", "A, B and C". */
export function areaNames(areas: StreetArea[]): string {
  const names = areas.map((a) => a.name);
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;
}

/** The sentence a map shows where it has no streets. */
export function noStreetsMessage(areas: StreetArea[]): string {
  return areas.length === 0
    ? "No street data on this map: use the store's address for directions."
    : `No street data here: this map shows streets only in ${areaNames(areas)}. Use the store's address for directions.`;
}

async function fetchStreetAreas(): Promise<StreetArea[] | null> {
  try {
    // A Request of an absolute URL, as the API client sends (the component tests' fetch stubs read request.url).
    const res = await fetch(new Request(new URL(MAP_STYLE_URL, window.location.href)));
    return res.ok ? streetAreasOf(await res.json()) : null;
  } catch {
    return null;
  }
}

export function streetAreasOptions() {
  return queryOptions({ queryKey: mapStyleKeys.all, queryFn: fetchStreetAreas, staleTime: Infinity });
}

/**
 * The "no streets here" sentence for a map's centre and zoom, or null: below STREET_ZOOM, inside a
 * street area, or with a style that has streets everywhere. The style is fetched the first time a
 * map comes to a street zoom.
 */
export function useNoStreetsMessage(camera: { latitude: number; longitude: number; zoom: number }): string | null {
  const streetZoom = camera.zoom >= STREET_ZOOM && !mapStyleUrl();
  const { data: areas } = useQuery({ ...streetAreasOptions(), enabled: streetZoom });
  if (!streetZoom || !areas || hasStreetsAt(areas, camera.latitude, camera.longitude)) return null;
  return noStreetsMessage(areas);
}
