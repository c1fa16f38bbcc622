import { describe, expect, it } from "vitest";
import { formatPhone, phoneHref } from "./phone";

describe("formatPhone", () => {
  it("writes a North American number in its national format, however stored (issue #39, m10)", () => {
    for (const p of ["+19175550166", "9175550166", "1-917-555-0166", "(917) 555-0166", " +1 917 555 0166 "]) {
      expect(formatPhone(p)).toBe("(917) 555-0166");
    }
  });
  it("keeps any other number as written", () => {
    expect(formatPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(formatPhone("555-0166")).toBe("555-0166");
    expect(formatPhone("0123456789")).toBe("0123456789");
  });
});

describe("phoneHref", () => {
  it("dials the international number", () => {
    expect(phoneHref("(917) 555-0166")).toBe("tel:+19175550166");
    expect(phoneHref("+44 20 7946 0958")).toBe("tel:+442079460958");
  });
});
