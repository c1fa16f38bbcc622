import type { components } from "../api/schema";
import type { Customer, PhysicalStore, ReviewList, ServicesNow, ServiceState, StoreListItem, StoreWithDistance, WorkingHour } from "../api/types";
import { WEEKDAYS } from "../lib/constants";
import type { StoreLicence } from "../lib/licence";
import type { Offer, ProductSummary } from "../features/locator/product/types";

/** Every day 09:00-17:00. */
export const NINE_TO_FIVE: WorkingHour[] = WEEKDAYS.map((weekDay) => ({ weekDay, startTime: "09:00", endTime: "17:00" }));

/** An active New York City licence as the API answers it; override what a test cares about. */
export function makeLicence(overrides: Partial<StoreLicence> = {}): StoreLicence {
  return {
    status: "active",
    jurisdiction: "New York City",
    kind: "NYC Electronic Cigarette Retail Dealer",
    number: "2091234",
    expires_on: "2026-12-31",
    checked_at: "2026-11-24",
    record_url: null,
    ...overrides,
  };
}

/** A complete store as the API answers it; override what a test cares about. */
export function makeStore(overrides: Partial<StoreWithDistance> = {}): StoreWithDistance {
  const id = overrides.id ?? 1;
  return {
    id,
    store_id: `st_${id}`,
    name: `Store ${id}`,
    image: null,
    phone_number: "+12125550100",
    hours: "Daily 9:00 AM - 5:00 PM",
    country_id: 1,
    country: { id: 1, code: "US", display_name: "United States" },
    state: "NY",
    city: "New York City",
    postal_code: "10001",
    address: "1 Main St",
    latitude: 40.71,
    longitude: -74.0,
    workingHours: NINE_TO_FIVE,
    is_delivery_available: false,
    is_order_online_available: false,
    is_curbside_pickup_available: false,
    average_rating: 4.2,
    review_count: 10,
    time_zone: "America/New_York",
    open_now: false,
    next_change_at: null,
    special_hours: [],
    temporarily_closed: null,
    permanently_closed: false,
    services: { delivery: makeService(), curbside_pickup: makeService(), online_order: makeService() },
    distance: 0.5,
    ...overrides,
  };
}

/**
 * The list's entry of a whole store, as the server lists it (StoreListItem): the list part of
 * its document, its rules by id, the offered services without their own week.
 */
export function listItemOf(store: StoreWithDistance): StoreListItem {
  /* eslint-disable @typescript-eslint/no-unused-vars -- the detail only the panel shows */
  const { rules, services, licence, enforcement, website, last_verified_at, adult_only, permanently_closed, ...rest } = store;
  /* eslint-enable @typescript-eslint/no-unused-vars */
  const offered: ServicesNow = {};
  for (const [name, s] of Object.entries(services) as [keyof ServicesNow, ServiceState][]) {
    if (!s.offered) continue;
    const { hours, last_order_minutes, ...now } = s; // eslint-disable-line @typescript-eslint/no-unused-vars
    offered[name] = now;
  }
  return { ...rest, rule_ids: (rules ?? []).map((r) => r.id), services: offered };
}

/** A store as the search lists it; override what a test cares about (as makeStore). */
export function makeListItem(overrides: Partial<StoreWithDistance> = {}): StoreListItem {
  return listItemOf(makeStore(overrides));
}

/** StoreDetail's props for a whole store (its one-store answer has arrived). */
export function whole(store: StoreWithDistance) {
  return { store, whole: store, rules: store.rules ?? [] };
}

/** A service's state (not offered unless overridden). */
export function makeService(overrides: Partial<ServiceState> = {}): ServiceState {
  return {
    offered: false,
    available_now: false,
    ...overrides,
  };
}

/** A signed-in customer, Ada Lovelace, with one favourite ("Cloud Nine"); override what a test cares about. */
export function makeCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: 7,
    first_name: "Ada",
    last_name: "Lovelace",
    email: "ada@example.com",
    phone: "+15550100",
    favorites_phstores: [makeStore({ id: 3, name: "Cloud Nine" })],
    email_verified: false,
    ...overrides,
  };
}

/** Zephyrine's mango disposable as the product calls name it; override what a test cares about. */
export function makeProduct(overrides: Partial<ProductSummary> = {}): ProductSummary {
  return {
    id: "demo-zephyrine-bar-6000-mango-ice",
    gtin: "00840000100016",
    brand: "Zephyrine",
    name: "Zephyrine Bar 6000 Mango Ice",
    kind: "disposable",
    flavour: "fruit",
    nicotine: "50 mg/mL",
    handle: "zephyrine-bar-6000-mango-ice",
    thumbnail: null,
    is_zero_nic_applicable: false,
    is_cbd_applicable: false,
    ...overrides,
  };
}

/** A store's row for a product: in stock, lawful, $21.99, reported at `updated_at`; override what a test cares about. */
export function makeOffer(overrides: Partial<Offer> = {}): Offer {
  return {
    availability: "in_stock",
    quantity: 12,
    price: 21.99,
    sale_price: null,
    currency_code: "usd",
    updated_at: "2026-12-01T10:00:00Z",
    stale: false,
    lawful: true,
    rule: null,
    ...overrides,
  };
}

export type { PhysicalStore };

type Review = ReviewList["reviews"][number];

/** A member's published review (Rita M., 2 stars) as the API answers it; override what a test cares about. */
export function makeReview(overrides: Partial<Review> = {}): Review {
  return {
    id: 31,
    created_at: "2026-11-02T15:00:00Z",
    updated_at: "2026-11-02T15:00:00Z",
    product_id: "",
    customer_id: "",
    status: "Approved",
    rating: 2,
    content: "Out of my usual pods again.",
    product: {},
    customer: { first_name: "Rita", last_name: "M.", has_account: true },
    sample: false,
    edited_at: null,
    reply: null,
    ...overrides,
  };
}

/** A store's review summary from how many reviews give each rating (none by default). */
export function makeReviewSummary(byRating: Partial<Record<number, number>> = {}): ReviewList["summary"] {
  const counts = [5, 4, 3, 2, 1].map((rating) => ({ rating, count: byRating[rating] ?? 0 }));
  const count = counts.reduce((n, c) => n + c.count, 0);
  const average = count === 0 ? 0 : counts.reduce((sum, c) => sum + c.rating * c.count, 0) / count;
  return { average, count, counts, recommended_percentage: 0 };
}

/** A catalogue product as the editor and owners' stock calls answer it (AdminProduct); override what a test cares about. */
export function makeAdminProduct(overrides: Partial<components["schemas"]["AdminProduct"]> = {}): components["schemas"]["AdminProduct"] {
  return {
    id: "nx-mango-5",
    gtin: "00840000100016",
    brand: "Nimbus",
    name: "Nimbus Bar 5000, Mango Ice",
    kind: "disposable",
    flavour: "fruit",
    nicotine: "50 mg/mL",
    is_zero_nic_applicable: false,
    is_cbd_applicable: false,
    image: null,
    handle: null,
    fda_status: "none",
    updated_at: "2026-12-01T10:00:00Z",
    ...overrides,
  };
}

/** A brand partner as /admin lists it (Acme Vapes, one allowed site); override what a test cares about. */
export function makePartner(overrides: Partial<components["schemas"]["Partner"]> = {}): components["schemas"]["Partner"] {
  return {
    id: "pt_0123456789abcdef",
    name: "Acme Vapes",
    slug: "acme-vapes",
    kind: "brand",
    allowed_origins: ["https://shop.example"],
    brands: ["Acme"],
    product_ids: [],
    disabled: false,
    created_at: "2026-12-03T09:00:00Z",
    ...overrides,
  };
}
