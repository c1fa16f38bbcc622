import { stubApi } from "../../test/fetch";
import type { BusinessStore } from "./types";

/** The signed-in owner of the dashboard's tests, mailbox proven. */
export const businessAccount = { email: "owner@example.com", store_name: "Lone Star Vapes", email_verified: true };

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
    adult_only: false,
    status: "published",
    last_verified_at: "2026-11-01T10:00:00Z",
    special_hours: [],
    temporarily_closed: null,
    pending_change_request: null,
    owners: [{ id: 1, email: "owner@example.com", since: "2026-11-01T10:00:00Z", you: true, removable: false }],
    pending_owners: [],
    services: {
      delivery: { hours: null, special_hours: [], last_order_minutes: 0, paused_until: null, note: null },
      curbside_pickup: { hours: null, special_hours: [], last_order_minutes: 0, paused_until: null, note: null },
      online_order: { hours: null, special_hours: [], last_order_minutes: 0, paused_until: null, note: null },
    },
    ...overrides,
  };
}

/**
 * Stubs the dashboard of businessAccount and makeBusinessStore(): the first
 * PATCH of the store is refused with refusal, the next ones publish the
 * patch with message. Returns the recorded calls.
 */
export function stubPatchRefusedOnce(refusal: string, message: string) {
  let fail = true;
  return stubApi({
    "GET /api/business/me": { body: { account: businessAccount } },
    "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
    "PATCH /api/business/stores/5": (call) => {
      if (fail) {
        fail = false;
        return { status: 400, body: { message: refusal } };
      }
      return { body: { message, store: makeBusinessStore({ ...(call.body as object) }), change_request: null } };
    },
  });
}
