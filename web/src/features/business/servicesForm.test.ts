import { describe, expect, it } from "vitest";
import { LAST_ORDER_RANGE, pauseUntil, servicePatch, serviceValuesOf, validateService } from "./servicesForm";
import { makeBusinessStore } from "./testing";

describe("service settings form", () => {
  const store = makeBusinessStore();

  it("starts from the store's week when the service has none, and sends only what changed", () => {
    const v = serviceValuesOf(store, "delivery");
    expect(v.own).toBe(false);
    expect(v.week.Monday).toEqual({ open: true, start: "10:00", end: "20:00" });
    expect(servicePatch(store, "delivery", v)).toBeNull();
    expect(servicePatch(store, "delivery", { ...v, lastOrder: "30" })).toEqual({ last_order_minutes: 30 });
    const own = { ...v, own: true, week: { ...v.week, Monday: { open: true, start: "11:00", end: "19:00" } } };
    expect(servicePatch(store, "delivery", own)?.hours).toContainEqual({ weekDay: "Monday", startTime: "11:00", endTime: "19:00" });
    // Back to the store's hours: an empty week.
    const withOwn = makeBusinessStore({
      services: { ...store.services, delivery: { ...store.services.delivery, hours: [{ weekDay: "Monday", startTime: "11:00", endTime: "19:00" }] } },
    });
    expect(servicePatch(withOwn, "delivery", { ...serviceValuesOf(withOwn, "delivery"), own: false })).toEqual({ hours: [] });
  });

  it("sends the service's special dates when they change, as the store's list", () => {
    const closed = { date: "2026-11-27", closed: true, startTime: null, endTime: null, note: "Van in the garage" };
    const v = serviceValuesOf(store, "delivery");
    expect(v.special).toEqual([]);
    expect(servicePatch(store, "delivery", { ...v, special: [closed] })).toEqual({ special_hours: [closed] });
    const withDates = makeBusinessStore({ services: { ...store.services, delivery: { ...store.services.delivery, special_hours: [closed] } } });
    const w = serviceValuesOf(withDates, "delivery");
    expect(w.special).toEqual([closed]);
    // The same dates (a copy): nothing to send; none left: an empty list; other services untouched.
    expect(servicePatch(withDates, "delivery", { ...w, special: [{ ...closed }] })).toBeNull();
    expect(servicePatch(withDates, "delivery", { ...w, special: [] })).toEqual({ special_hours: [] });
    expect(serviceValuesOf(withDates, "curbside_pickup").special).toEqual([]);
    // Dates over the store's week: the service keeps following the store's hours.
    expect(servicePatch(store, "delivery", { ...v, special: [closed] })).not.toHaveProperty("hours");
  });

  it("checks the last order and the service's week", () => {
    const v = serviceValuesOf(store, "online_order");
    expect(validateService({ ...v, lastOrder: "300" })).toEqual({ lastOrder: LAST_ORDER_RANGE });
    expect(validateService({ ...v, own: true, week: { ...v.week, Tuesday: { open: true, start: "", end: "" } } })).toHaveProperty(["week.Tuesday"]);
  });

  it("sends a one-click pause as the API takes it", () => {
    const now = new Date("2026-11-27T17:00:00Z");
    expect(pauseUntil("hour", now)).toBe("2026-11-27T18:00:00.000Z");
    expect(pauseUntil("closing", now)).toBe("closing");
    expect(pauseUntil("date", now, "2026-11-30")).toBe("2026-11-30");
  });
});
