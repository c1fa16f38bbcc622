import type { paths } from "./schema";

/** The query of a store search, as sent (its key holds exactly what the answer depends on). */
export type StoreListQuery = NonNullable<paths["/store/physical-store/list-physical-store/"]["get"]["parameters"]["query"]>;

// TanStack Query keys: every cached answer's key comes from a factory here, one per resource, so
// two definitions of one endpoint cannot share a key by accident and a whole resource can be
// invalidated by its prefix (e.g. storeKeys.all).

/** Stores: searches, one store, its reviews. */
export const storeKeys = {
  all: ["stores"] as const,
  list: (query: StoreListQuery) => [...storeKeys.all, "list", query] as const,
  detail: (id: number) => [...storeKeys.all, "detail", id] as const,
  /** The first review and the summary (the store panel's chart). */
  reviewSummary: (id: number) => [...storeKeys.detail(id), "reviews", "summary"] as const,
  /** Every page loaded so far (the reviews page). */
  reviewPages: (id: number) => [...storeKeys.detail(id), "reviews", "pages"] as const,
  /** The products the store carries, with their stock (the store panel). */
  products: (id: number) => [...storeKeys.detail(id), "products"] as const,
};

/** The shopper's product search: suggestions and the chosen product (docs/products.md). */
export const productKeys = {
  all: ["products"] as const,
  suggest: (q: string) => [...productKeys.all, "suggest", q] as const,
  detail: (id: string) => [...productKeys.all, "detail", id] as const,
  brand: (brand: string, partner: string | null) => [...productKeys.all, "brand", brand, partner] as const,
};

/** The place search box's suggestions. */
export const placeKeys = {
  search: (q: string, near: string) => ["places", "search", q, near] as const,
};

/** The server's data sources (map credits). */
export const attributionKeys = {
  all: ["attribution"] as const,
};

/** The signed-in customer (null when signed out), with the favourites. */
export const customerKeys = {
  me: ["customer", "me"] as const,
};

/** The moderation page: the signed-in moderator and the claims. */
export const adminKeys = {
  me: ["admin", "me"] as const,
  claims: ["admin", "claims"] as const,
  list: (status: string) => [...adminKeys.claims, "list", status] as const,
  claim: (id: number) => [...adminKeys.claims, "one", id] as const,
  reports: ["admin", "reports"] as const,
  /** Owners' name, address and position changes waiting for a moderator. */
  changes: ["admin", "change-requests"] as const,
  /** Registry licences: sources' status, doubtful matches, rows without a store (docs/licences.md). */
  licences: ["admin", "licences"] as const,
  /** Searches and zero-result searches by place over a period (docs/insights.md). */
  demand: (days: number) => ["admin", "demand", days] as const,
  /** The catalogue editor: product searches and single products (docs/products.md). */
  products: ["admin", "products"] as const,
  /** The marketplace's Medusa stock locations and the stores they are mapped to (docs/products.md). */
  medusa: ["admin", "medusa"] as const,
  /** A partner's monthly widget report (docs/embed.md). */
  partnerReport: (id: string) => ["admin", "partners", id, "report"] as const,
  /** Partners: brands, point-of-sale vendors and chains (docs/partners.md). */
  partners: ["admin", "partners"] as const,
};

/** The store dashboard: the signed-in business account (null when signed out) and its stores. */
export const businessKeys = {
  me: ["business", "me"] as const,
  stores: ["business", "stores"] as const,
  /** A store's stock as its owner sees it. */
  stock: (id: number) => ["business", "stock", id] as const,
  /** The catalogue search of the owner's stock form. */
  products: (q: string) => ["business", "products", q] as const,
  /** The account's point-of-sale API keys. */
  apiKeys: ["business", "api-keys"] as const,
  /** A store's insights over 7, 30 or 90 days (docs/insights.md). */
  insights: (id: number, days: number) => ["business", "insights", id, days] as const,
  /** Whether the account gets the monthly summary mail. */
  insightsMail: ["business", "insights-mail"] as const,
  /** The stores the account waits to change until their owners consent (docs/claims.md). */
  waiting: ["business", "waiting"] as const,
  /** What a mailed consent link asks. */
  consent: (token: string) => ["business", "consent", token] as const,
};

/** The rulebook's rules at a place (GET /rules), by position rounded to 0.01 degree. */
export const ruleKeys = {
  place: (latitude: number, longitude: number) => ["rules", latitude, longitude] as const,
};

/** The map style the app's maps draw (/map/style.json): where the offline basemap has streets. */
export const mapStyleKeys = {
  all: ["map-style"] as const,
};
