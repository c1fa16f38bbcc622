import { describe, expect, it } from "vitest";
import {
  detailsOf,
  detailsPatch,
  locationOf,
  locationPatch,
  normalizeWebsite,
  validateDetails,
  validateLocation,
} from "./storeForm";
import { makeBusinessStore } from "./testing";

describe("the details form", () => {
  const store = makeBusinessStore();

  it("starts from the store: one interval a day, days without hours closed", () => {
    const v = detailsOf(store);
    expect(v.week.Monday).toEqual({ open: true, start: "10:00", end: "20:00" });
    expect(v.week.Sunday).toEqual({ open: false, start: "", end: "" });
    expect(detailsPatch(store, v)).toEqual({});
  });

  it("sends only what changed, the week as seven entries", () => {
    const v = detailsOf(store);
    v.is_delivery_available = true;
    v.website = "lonestar.example";
    v.week.Sunday = { open: true, start: "12:00", end: "17:00" };
    const patch = detailsPatch(store, v);
    expect(patch).toMatchObject({ is_delivery_available: true, website: "https://lonestar.example" });
    expect(patch.phone_number).toBeUndefined();
    expect(patch.workingHours).toHaveLength(7);
    expect(patch.workingHours?.[6]).toEqual({ weekDay: "Sunday", startTime: "12:00", endTime: "17:00" });
    expect(patch.workingHours?.[1]).toEqual({ weekDay: "Tuesday", startTime: null, endTime: null });
  });

  it("sends the store's kind when the owner changes it", () => {
    const v = detailsOf(store);
    expect(v.adult_only).toBe(false);
    v.adult_only = true;
    expect(detailsPatch(store, v)).toEqual({ adult_only: true });
  });

  it("checks every field with the server's messages", () => {
    const v = detailsOf(store);
    v.phone_number = "1".repeat(33);
    v.website = "https://localhost";
    v.hours = "x".repeat(1001);
    v.week.Monday = { open: true, start: "10:00", end: "" };
    v.week.Friday = { open: true, start: "25:00", end: "20:00" };
    expect(validateDetails(v)).toEqual({
      phone_number: "Phone number must be less than 32 symbols",
      website: "Website must be a web address, e.g. https://example.com",
      hours: "Hours must be less than 1000 symbols",
      "week.Monday": "Working hours: give Monday both an opening and a closing time, or neither",
      "week.Friday": "Working hours: Friday times must be HH:MM, e.g. 09:00",
    });
    v.phone_number = "call me";
    expect(validateDetails(v).phone_number).toBe("Phone number may contain only digits, spaces, + - ( ) and .");
    expect(validateDetails(detailsOf(store))).toEqual({});
  });

  it("takes a bare host as https", () => {
    expect(normalizeWebsite(" example.com ")).toBe("https://example.com");
    expect(normalizeWebsite("http://example.com")).toBe("http://example.com");
    expect(normalizeWebsite("")).toBe("");
  });
});

describe("the change-request form", () => {
  const store = makeBusinessStore();

  it("sends the changed fields, the position as a pair", () => {
    const v = locationOf(store);
    expect(locationPatch(store, v)).toEqual({});
    v.name = " Lone Star Tea ";
    v.latitude = "30.3";
    expect(locationPatch(store, v)).toEqual({ name: "Lone Star Tea", latitude: 30.3, longitude: -97.7437 });
  });

  it("checks the fields with the server's messages", () => {
    const v = locationOf(store);
    v.name = " ";
    v.address = "";
    v.city = "";
    v.postal_code = "";
    v.latitude = "";
    expect(validateLocation(v)).toEqual({
      name: "Name is required",
      address: "Address is required",
      city: "City is required",
      postal_code: "Postal code is required",
      latitude: "Give both latitude and longitude, or neither",
    });
    const w = locationOf(store);
    w.latitude = "91";
    w.longitude = "abc";
    expect(validateLocation(w)).toEqual({ latitude: "Latitude must be between -90 and 90", longitude: "Longitude must be between -180 and 180" });
  });
});
