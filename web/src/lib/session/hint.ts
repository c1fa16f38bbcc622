import { queryOptions } from "@tanstack/react-query";
import { ApiError } from "../../api/client";
import { apiBase } from "../config";
import { embedded } from "../embed";

/** The session cookies; each has a readable hint cookie named `${area}_hint` (internal/httpapi/session.go). */
export type SessionArea = "locator_session" | "locator_business" | "locator_admin";

/**
 * Whether a session of this area may exist: its hint cookie says "1" (set at sign-in, cleared at
 * sign-out and when /me answers 401). Without it the app does not ask /me, so a first visit makes
 * no request that fails. The hint is no credential: the server checks the session cookie. An API on
 * another origin sets cookies this page cannot read: then the app always asks.
 */
export function maybeSignedIn(area: SessionArea, cookies = document.cookie, base = apiBase, origin = window.location.origin): boolean {
  if (embedded) return false; // the widget signs no one in (docs/embed.md)
  if (new URL(base).origin !== origin) return true;
  return cookies.split(/;\s*/).includes(`${area}_hint=1`);
}

/**
 * The signed-in account of an area (GET .../me with credentials), null when signed out: without
 * the hint cookie, or when the server answers 401. Asked once; sign-in and sign-out write the cache.
 */
export function signedInOptions<T>(queryKey: readonly unknown[], area: SessionArea, fetchMe: (signal: AbortSignal) => Promise<T>) {
  return queryOptions({
    queryKey,
    queryFn: async ({ signal }): Promise<T | null> => {
      if (!maybeSignedIn(area)) return null;
      try {
        return await fetchMe(signal);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}
