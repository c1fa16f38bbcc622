import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeService } from "../test/fixtures";
import { serviceAvailable, serviceLine, serviceLines } from "./services";

const NY = "America/New_York";

/** The clock fixed at an instant given with its offset. */
function clock(instant: string): Date {
  vi.setSystemTime(new Date(instant));
  return new Date(Date.now());
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("serviceLine: the panel's service texts at a fixed clock", () => {
  const delivery = makeService({
    offered: true,
    available_now: true,
    until: "2026-11-27T20:00:00-05:00",
    last_order_at: "2026-11-27T19:30:00-05:00",
    last_order_minutes: 30,
  });

  it("says until when and the last order (the issue's example)", () => {
    const now = clock("2026-11-27T12:00:00-05:00");
    expect(serviceLine("delivery", delivery, NY, now)).toBe("Delivery until 8:00 PM · order by 7:30 PM");
    expect(serviceAvailable(delivery, now)).toBe(true);
  });

  it("moves on past the last order without asking the server", () => {
    const now = clock("2026-11-27T19:31:00-05:00");
    expect(serviceAvailable(delivery, now)).toBe(false);
    expect(serviceLine("delivery", delivery, NY, now)).toBe("Delivery · last orders taken 7:30 PM");
    expect(serviceLine("delivery", { ...delivery, available_now: false, next_start: "2026-11-28T11:00:00-05:00" }, NY, now)).toBe(
      "Delivery · last orders taken 7:30 PM · next Sat 11:00 AM",
    );
  });

  it("says a pause and when the service is back (the issue's example)", () => {
    const paused = makeService({ offered: true, paused_until: "2026-11-27T14:00:00-05:00", next_start: "2026-11-27T14:00:00-05:00" });
    const now = clock("2026-11-27T11:00:00-05:00");
    expect(serviceLine("curbside_pickup", paused, NY, now)).toBe("Curbside pickup paused today · back at 2:00 PM");
    expect(serviceLine("curbside_pickup", { ...paused, note: "Short of staff" }, NY, now)).toBe(
      "Curbside pickup paused today · back at 2:00 PM · Short of staff",
    );
    expect(serviceAvailable(paused, now)).toBe(false);
    // Once the pause is over the service is available again, by the clock.
    expect(serviceAvailable(paused, clock("2026-11-27T14:00:00-05:00"))).toBe(true);
  });

  it("names the day when a pause runs past today", () => {
    const paused = makeService({ offered: true, paused_until: "2026-11-29T00:00:00-05:00", next_start: "2026-11-29T09:00:00-05:00" });
    expect(serviceLine("delivery", paused, NY, clock("2026-11-27T11:00:00-05:00"))).toBe("Delivery paused · back Sun 9:00 AM");
  });

  it("says when a service starts, and reads the store's zone", () => {
    const later = makeService({ offered: true, next_start: "2026-11-27T11:00:00-05:00" });
    expect(serviceLine("online_order", later, NY, clock("2026-11-27T09:00:00-05:00"))).toBe("Online orders from 11:00 AM");
    // A store in Los Angeles: 11:00 in New York reads as its own 8:00 AM.
    expect(serviceLine("online_order", later, "America/Los_Angeles", clock("2026-11-27T07:00:00-08:00"))).toBe("Online orders from 8:00 AM");
    expect(serviceLine("online_order", makeService({ offered: true }), NY, clock("2026-11-27T09:00:00-05:00"))).toBe("Online orders unavailable");
    expect(serviceLine("online_order", makeService({ offered: true, available_now: true }), NY, clock("2026-11-27T09:00:00-05:00"))).toBe(
      "Online orders available now",
    );
  });

  it("leaves out services the store does not offer", () => {
    const now = clock("2026-11-27T12:00:00-05:00");
    const lines = serviceLines(
      { time_zone: NY, services: { delivery, curbside_pickup: makeService(), online_order: makeService({ offered: true, available_now: true, until: "2026-11-27T23:00:00-05:00" }) } },
      now,
    );
    expect(lines).toEqual([
      { name: "delivery", line: "Delivery until 8:00 PM · order by 7:30 PM" },
      { name: "online_order", line: "Online orders until 11:00 PM" },
    ]);
    expect(serviceAvailable(makeService(), now)).toBe(false);
  });
});
