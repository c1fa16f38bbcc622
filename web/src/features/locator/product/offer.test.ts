import { describe, expect, it } from "vitest";
import { offerPrice, productFacts, reportedLabel } from "./offer";

const now = new Date("2026-12-03T12:00:00Z");

describe("offer", () => {
  it("says how long ago a row was reported, and a stale one as last reported", () => {
    expect(reportedLabel("2026-12-03T11:59:40Z", false, now)).toBe("updated just now");
    expect(reportedLabel("2026-12-03T11:35:00Z", false, now)).toBe("updated 25 min ago");
    expect(reportedLabel("2026-12-03T10:00:00Z", false, now)).toBe("updated 2 h ago");
    expect(reportedLabel("2026-12-02T00:00:00Z", false, now)).toBe("updated 36 h ago");
    expect(reportedLabel("2026-11-28T12:00:00Z", false, now)).toBe("updated 5 days ago");
    expect(reportedLabel("2026-11-24T11:00:00Z", true, now)).toBe("last reported 9 days ago");
    // A clock a little ahead of the server's is not "in the future".
    expect(reportedLabel("2026-12-03T12:00:30Z", false, now)).toBe("updated just now");
  });

  it("shows a sale price with the price before it, in the row's currency", () => {
    expect(offerPrice({ price: 21.99, sale_price: 18.99, currency_code: "usd" })).toEqual({ now: "$18.99", was: "$21.99" });
    expect(offerPrice({ price: 21.99, sale_price: null, currency_code: "usd" })).toEqual({ now: "$21.99", was: null });
    expect(offerPrice({ price: null, sale_price: 9.5, currency_code: "usd" })).toEqual({ now: "$9.50", was: null });
    expect(offerPrice({ price: 12, sale_price: 12, currency_code: "eur" })).toEqual({ now: "€12.00", was: null });
    expect(offerPrice({ price: null, sale_price: null, currency_code: null })).toBeNull();
  });

  it("names a product's brand, kind and strength", () => {
    expect(productFacts({ brand: "Zephyrine", kind: "disposable", nicotine: "50 mg/mL" })).toBe("Zephyrine · Disposable · 50 mg/mL");
    expect(productFacts({ brand: "Kestrel", kind: "accessory", nicotine: null })).toBe("Kestrel · Accessory");
  });
});
