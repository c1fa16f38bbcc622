import type { PhysicalStore } from "../api/types";
import { ADDRESS_MAX_LENGTH } from "./constants";

/** Country display name, state and address, joined by ", " (empty parts left out). */
export function addressLine(store: Pick<PhysicalStore, "country" | "state" | "address">): string {
  return [store.country?.display_name, store.state, store.address]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(", ");
}

/** Text longer than 80 characters is cut to 80 plus "..."; `cut` says whether it was. */
export function truncateAddress(text: string, max = ADDRESS_MAX_LENGTH): { text: string; cut: boolean } {
  return text.length > max ? { text: `${text.slice(0, max)}...`, cut: true } : { text, cut: false };
}

/** The town line under a store's name or address: "Brooklyn, NY 11211" (the panel's second address line). */
export function townLine(store: { city?: string | null; state?: string | null; postal_code?: string | null }): string {
  return [store.city, [store.state, store.postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", ");
}
