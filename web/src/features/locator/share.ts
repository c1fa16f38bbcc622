import type { PhysicalStore } from "../../api/types";
import { formatLocatorUrl } from "./urlState";
import { NO_FILTERS } from "./api/list-physical-stores";

/** A link that reopens this store on the locator, centred on it. */
export function storeLink(store: Pick<PhysicalStore, "id" | "city" | "latitude" | "longitude">, origin = window.location.origin): string {
  const params = formatLocatorUrl({
    place: store.city || null,
    center: { latitude: store.latitude, longitude: store.longitude },
    filters: NO_FILTERS,
    store: store.id,
  });
  return `${origin}/?${params.toString()}`;
}

/** Web Share API when there is one, else copies the link; answers what happened. */
export async function shareStore(store: PhysicalStore): Promise<"shared" | "copied" | "cancelled" | "failed"> {
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
