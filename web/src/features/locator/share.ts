import type { PhysicalStore } from "../../api/types";
import { storePagePath } from "../../lib/storePage";

/**
 * The link Share gives: the store's own page (server-rendered, readable by search engines and
 * link previews; its "Open in the locator" button comes back here with the store open).
 */
export function storeLink(store: Pick<PhysicalStore, "id" | "name" | "state" | "city">, origin = window.location.origin): string {
  return `${origin}${storePagePath(store)}`;
}

/** Web Share API when there is one, else copies the link; answers what happened. */
export async function shareStore(store: Pick<PhysicalStore, "id" | "name" | "state" | "city">): Promise<"shared" | "copied" | "cancelled" | "failed"> {
  const url = storeLink(store);
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: store.name, url });
      return "shared";
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "copied";
  } catch {
    return "failed";
  }
}
