import type { components } from "../../../api/schema";

// The shopper's product search (issue #42's API contract; docs/products.md). Written from the
// contract until its schemas are in api/openapi.yaml.

export type ProductKind = components["schemas"]["ProductKind"];

/** A product as the suggestions, the one-product call and a store's products name it. */
export interface ProductSummary {
  id: string;
  /** GTIN-14, or null. */
  gtin: string | null;
  brand: string;
  name: string;
  kind: ProductKind;
  flavour: components["schemas"]["FlavourFamily"];
  /** "50 mg/mL", or null when not known. */
  nicotine: string | null;
  /** The marketplace's storefront page, /products/{handle}. */
  handle: string | null;
  thumbnail: string | null;
  is_zero_nic_applicable: boolean;
  is_cbd_applicable: boolean;
}

/** GET store/products/{id}: the product and its FDA marketing order (absent when a suggestion stands in). */
export type Product = ProductSummary & { fda_status?: components["schemas"]["FDAStatus"] };

export type Availability = "in_stock" | "limited_availability" | "on_display_to_order" | "out_of_stock";

/** The law that forbids the product where the store stands. */
export interface ProductRule {
  id: string;
  summary: string;
  citation: string;
  url: string;
  checked_on: string;
}

/** A store's row for a product: what its stock says, and whether the law lets it sell it there. */
export interface Offer {
  availability: Availability;
  quantity: number | null;
  /** In major units (21.99), as the marketplace writes amounts. */
  price: number | null;
  sale_price: number | null;
  /** Lowercase ISO 4217 ("usd"). */
  currency_code: string | null;
  /** When the row was reported. */
  updated_at: string;
  /** Reported more than 7 days ago. */
  stale: boolean;
  lawful: boolean;
  rule: ProductRule | null;
}

/** A store in a product search: the list's entry and its row for the product. */
export type StoreOffer = Offer & { id: string };

/** A product a store carries, with its row (the store panel's list). */
export type StoreProduct = ProductSummary & Offer;
