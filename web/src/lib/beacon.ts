import type { paths } from "../api/schema";
import { apiBase } from "./config";

/** What the app reports of a store (docs/insights.md); impressions and page views the server counts itself. */
export type BeaconKind = paths["/events"]["post"]["requestBody"]["content"]["application/json"]["kind"];

/**
 * Counts one shopper action on a store: POST /api/events with navigator.sendBeacon, which the
 * browser delivers even when the action leaves the page (a call, the directions tab). Nothing is
 * awaited and a failure is ignored: a lost count must never cost the shopper anything. The
 * body holds only the kind and the store; no identifier of the shopper is sent or stored.
 */
export function sendEvent(kind: BeaconKind, storeId: number): void {
  const url = `${apiBase}/events`;
  const body = JSON.stringify({ kind, store_id: storeId });
  try {
    if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(url, new Blob([body], { type: "application/json" }))) return;
    void globalThis
      .fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true, credentials: "omit" })
      .catch(() => undefined);
  } catch {
    // A browser that refuses the beacon: not counted.
  }
}
