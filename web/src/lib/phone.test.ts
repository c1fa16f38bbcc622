import { describe, expect, it } from "vitest";
import { formatPhone, normalizePhone, phoneHref, phoneInputFilter } from "./phone";

// The same cases as internal/phone's tests: sign-up, the profile and the server agree.
describe("normalizePhone", () => {
  it.each([
    ["(212) 555-0199", "+12125550199"], // the walk's number (issue 39, M7)
    ["212-555-0199", "+12125550199"],
    ["212.555.0199", "+12125550199"],
    ["2125550199", "+12125550199"],
    ["12125550199", "+12125550199"],
    ["+1 (212) 555-0199", "+12125550199"],
    ["  +12125550199 ", "+12125550199"],
    ["+44 20 7946 0958", "+442079460958"],
    ["+2125550199", "+2125550199"],
    ["020 7946 0958", "02079460958"],
    ["0201234567", "0201234567"],
    ["2120550199", "2120550199"],
    ["123456789012", "123456789012"],
  ])("stores %j as %j", (typed, stored) => {
    expect(normalizePhone(typed)).toEqual({ phone: stored });
  });

  it.each([
    ["", "required"],
    ["   ", "required"],
    ["1234567890123", "too-long"],
    ["+1 (212) 555-0199 00", "too-long"],
    ["2 1 2 5 5 5 0 1 9 9 ( ) ( ) ( ) ( )", "too-long"],
    ["call me", "invalid"],
    ["212 555 0199 x12", "invalid"],
    ["12+34", "invalid"],
    ["+", "invalid"],
    ["()-", "invalid"],
  ])("refuses %j (%s)", (typed, problem) => {
    expect(normalizePhone(typed)).toEqual({ problem });
  });
});

describe("formatPhone", () => {
  it("shows North American numbers in the national format, others as stored", () => {
    expect(formatPhone("+12125550199")).toBe("(212) 555-0199");
    expect(formatPhone("2125550199")).toBe("(212) 555-0199"); // stored before numbers were normalised
    expect(formatPhone("+442079460958")).toBe("+442079460958");
    expect(formatPhone("")).toBe("");
  });
});

describe("phoneInputFilter", () => {
  it("keeps digits, separators and a leading plus", () => {
    expect(phoneInputFilter("(212) 555-0199")).toBe("(212) 555-0199");
    expect(phoneInputFilter("+1 212.555.0199")).toBe("+1 212.555.0199");
    expect(phoneInputFilter("21a2+")).toBe("212");
  });
});

describe("the panel's phone (issue #39, m10)", () => {
  it("writes a North American number in its national format, however stored", () => {
    for (const p of ["+19175550166", "9175550166", "1-917-555-0166", "(917) 555-0166", " +1 917 555 0166 "]) {
      expect(formatPhone(p)).toBe("(917) 555-0166");
    }
  });
  it("dials the stored form", () => {
    expect(phoneHref("(917) 555-0166")).toBe("tel:+19175550166");
    expect(phoneHref("+44 20 7946 0958")).toBe("tel:+442079460958");
  });
});
