import type { paths } from "../api/schema";
import { apiBase } from "./config";
import { embed } from "./embed";

/** What the app reports of a store (docs/insights.md); impressions and page views the server counts itself. */
export type BeaconKind = paths["/events"]["post"]["requestBody"]["content"]["application/json"]["kind"];

/**
 * Counts one shopper action on a store: POST /api/events with navigator.sendBeacon, which the
 * browser delivers even when the action leaves the page (a call, the directions tab). Nothing is
 * awaited, and a browser without beacons (or one that refuses it) is simply not counted: a lost
 * count must never cost the shopper anything. The body holds only the kind and the store (and, in the widget, its partner).
 */
export function sendEvent(kind: BeaconKind, storeId: number): void {
  if (typeof navigator.sendBeacon !== "function") return;
  try {
    navigator.sendBeacon(`${apiBase}/events`, new Blob([JSON.stringify({ kind, store_id: storeId, ...(embed?.partner && { partner: embed.partner }) })], { type: "application/json" }));
  } catch {
    // Refused (e.g. a page being torn down): not counted.
  }
}
