import type { components } from "../../../api/schema";

// The shopper's product search (docs/products.md, "What shoppers see"): aliases of the schemas
// in api/openapi.yaml.

export type ProductKind = components["schemas"]["ProductKind"];

/** A product as the suggestions, the one-product call and a store's products name it. */
export type ProductSummary = components["schemas"]["ProductSummary"];

/** GET store/products/{id}: the product and its FDA marketing order (absent while a suggestion stands in). */
export type Product = ProductSummary & Partial<Pick<components["schemas"]["Product"], "fda_status">>;

/** A store's row for a product: what its stock says, and whether the law lets it sell it there. */
export type Offer = components["schemas"]["StockFields"];

export type Availability = Offer["availability"];

/** A product a store carries, with its row (the store panel's list). */
export type StoreProduct = components["schemas"]["StoreProduct"];

/** A brand's product for the widget's brand chooser, with how many stores carry it. */
export type BrandProduct = components["schemas"]["BrandProduct"];
