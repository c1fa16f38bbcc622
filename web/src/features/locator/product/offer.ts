import type { Availability, Offer, ProductKind } from "./types";

/** How each availability of the local inventory feed reads to a shopper. */
export const AVAILABILITY_LABELS: Record<Availability, string> = {
  in_stock: "In stock",
  limited_availability: "Limited",
  on_display_to_order: "On display to order",
  out_of_stock: "Out of stock",
};

/** What a store reads where the law forbids the product there, whatever its stock says. */
export const NOT_SOLD_BY_LAW = "Not sold here by law";

/** Each kind's heading in the store panel's list. */
export const KIND_LABELS: Record<ProductKind, string> = {
  disposable: "Disposables",
  pod_system: "Pod systems",
  pods: "Pods and cartridges",
  open_system: "Open systems",
  e_liquid: "E-liquids",
  nicotine_pouch: "Nicotine pouches",
  heated_tobacco: "Heated tobacco",
  accessory: "Accessories",
};

/** "$21.99": an amount in major units with its currency (a bare number without one). */
export function formatPrice(amount: number, currency: string | null): string {
  if (currency) {
    try {
      return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount);
    } catch {
      // An unknown code: the number and the code as given.
      return `${amount.toFixed(2)} ${currency.toUpperCase()}`;
    }
  }
  return amount.toFixed(2);
}

/**
 * The price a shopper pays and, on sale, the price before (shown struck): a sale price above the
 * price (which the import refuses) or alone is the price.
 */
export function offerPrice(offer: Pick<Offer, "price" | "sale_price" | "currency_code">): { now: string; was: string | null } | null {
  const { price, sale_price: sale, currency_code: currency } = offer;
  if (sale !== null && price !== null && sale < price) return { now: formatPrice(sale, currency), was: formatPrice(price, currency) };
  const only = sale ?? price;
  return only === null ? null : { now: formatPrice(only, currency), was: null };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When the row was reported, relative to `now`: "updated 2 h ago"; a stale row (the server's
 * word: older than 7 days) "last reported 9 days ago", as its availability is no longer trusted.
 */
export function reportedLabel(updatedAt: string, stale: boolean, now: Date): string {
  const age = Math.max(0, now.getTime() - new Date(updatedAt).getTime());
  const days = Math.floor(age / DAY);
  if (stale) return `last reported ${days === 1 ? "1 day" : `${Math.max(days, 1)} days`} ago`;
  if (age < MINUTE) return "updated just now";
  if (age < HOUR) return `updated ${Math.floor(age / MINUTE)} min ago`;
  if (age < 2 * DAY) return `updated ${Math.floor(age / HOUR)} h ago`;
  return `updated ${days} days ago`;
}

/** One product's kind. */
const KIND_NAMES: Record<ProductKind, string> = {
  disposable: "Disposable",
  pod_system: "Pod system",
  pods: "Pods",
  open_system: "Open system",
  e_liquid: "E-liquid",
  nicotine_pouch: "Nicotine pouch",
  heated_tobacco: "Heated tobacco",
  accessory: "Accessory",
};

/** "Zephyrine · Disposable · 50 mg/mL": a product's second line. */
export function productFacts(p: { brand: string; kind: ProductKind; nicotine: string | null }): string {
  return [p.brand, KIND_NAMES[p.kind], p.nicotine].filter(Boolean).join(" · ");
}
