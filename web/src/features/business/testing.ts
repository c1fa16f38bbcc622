import type { BusinessStore } from "./types";

/** A store of the dashboard for tests. */
export function makeBusinessStore(overrides: Partial<BusinessStore> = {}): BusinessStore {
  return {
    id: 5,
    store_id: "claim_000001",
    name: "Lone Star Vapes",
    address: "100 Congress Ave",
    city: "Austin",
    state: "TX",
    postal_code: "78701",
    country: "United States",
    latitude: 30.2711,
    longitude: -97.7437,
    time_zone: "America/Chicago",
    phone_number: "+15125550100",
    website: "",
    hours: "Mon-Sat 10am-8pm",
    image: "",
    workingHours: [{ weekDay: "Monday", startTime: "10:00", endTime: "20:00" }],
    is_delivery_available: false,
    is_order_online_available: false,
    is_curbside_pickup_available: false,
    status: "published",
    last_verified_at: "2026-11-01T10:00:00Z",
    special_hours: [],
    temporarily_closed: null,
    pending_change_request: null,
    owners: [{ id: 1, email: "owner@example.com", since: "2026-11-01T10:00:00Z", you: true, removable: false }],
    services: {
      delivery: { hours: null, last_order_minutes: 0, paused_until: null, note: null },
      curbside_pickup: { hours: null, last_order_minutes: 0, paused_until: null, note: null },
      online_order: { hours: null, last_order_minutes: 0, paused_until: null, note: null },
    },
    ...overrides,
  };
}
