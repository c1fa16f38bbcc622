import { describe, expect, it } from "vitest";
import { makeLicence } from "../test/fixtures";
import { enforcementHistory, licenceLine, licenceStatusOn, saleOrderWarning } from "./licence";

const licence = makeLicence();
const day = new Date("2026-11-24T12:00:00Z");

describe("licenceLine", () => {
  it("says what the registry records", () => {
    expect(licenceLine(licence, day)).toBe(
      "Licence verified · NYC Electronic Cigarette Retail Dealer #2091234 · expires Dec 31, 2026 · source checked Nov 24, 2026",
    );
    expect(licenceLine({ ...licence, status: "expired", expires_on: "2025-06-30" }, day)).toBe(
      "Licence expired on Jun 30, 2025 · NYC Electronic Cigarette Retail Dealer #2091234 · source checked Nov 24, 2026",
    );
    expect(licenceLine({ ...licence, status: "revoked" }, day)).toBe(
      "Licence revoked · NYC Electronic Cigarette Retail Dealer #2091234 · source checked Nov 24, 2026",
    );
    expect(licenceLine({ ...licence, expires_on: null }, day)).toBe(
      "Licence verified · NYC Electronic Cigarette Retail Dealer #2091234 · source checked Nov 24, 2026",
    );
  });

  it("judges an active licence's expiry on the day it is shown", () => {
    expect(licenceLine(licence, new Date("2026-12-31T23:59:00Z"))).toMatch(/^Licence verified · .* · expires Dec 31, 2026 · /);
    expect(licenceLine(licence, new Date("2027-01-01T00:00:00Z"))).toBe(
      "Licence expired on Dec 31, 2026 · NYC Electronic Cigarette Retail Dealer #2091234 · source checked Nov 24, 2026",
    );
    expect(licenceStatusOn({ ...licence, expires_on: null }, new Date("2030-01-01T00:00:00Z"))).toBe("active");
    expect(licenceStatusOn({ ...licence, status: "revoked" }, new Date("2020-01-01T00:00:00Z"))).toBe("revoked");
  });

  it("shows nothing where no registry lists the store", () => {
    expect(licenceLine(null, day)).toBeNull();
    expect(licenceLine(undefined, day)).toBeNull();
  });
});

describe("saleOrderWarning", () => {
  const order = { kind: "no_tobacco_sale_order" as const, decided_on: "2026-11-01", until: "2026-11-30" };
  it("warns while a No-Tobacco-Sale Order runs, with its dates", () => {
    expect(saleOrderWarning([order], new Date("2026-11-24T12:00:00Z"))).toBe(
      "FDA No-Tobacco-Sale Order from Nov 1, 2026 until Nov 30, 2026: this store may not sell tobacco products",
    );
    expect(enforcementHistory([order], new Date("2026-11-24T12:00:00Z"))).toEqual([]);
  });
  it("keeps an order that ended as history only", () => {
    expect(saleOrderWarning([order], new Date("2026-12-01T12:00:00Z"))).toBeNull();
    expect(enforcementHistory([order, { kind: "warning_letter", decided_on: "2025-03-02", until: null }], new Date("2026-12-01T12:00:00Z"))).toEqual([
      "No-Tobacco-Sale Order, Nov 1, 2026",
      "Warning letter, Mar 2, 2025",
    ]);
    expect(saleOrderWarning(undefined, new Date())).toBeNull();
  });
});
