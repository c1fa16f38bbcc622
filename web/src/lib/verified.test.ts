import { describe, expect, it } from "vitest";
import { verifiedLabel } from "./verified";

describe("verifiedLabel", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("shows the UTC date of a recent confirmation", () => {
    expect(verifiedLabel("2026-11-03T23:30:00Z", now)).toBe("Verified Nov 3, 2026");
    expect(verifiedLabel("2026-05-28T12:00:00Z", now)).toBe("Verified May 28, 2026"); // 179 days
  });

  it("shows the store's own date, not the UTC one (issue #39, m27)", () => {
    // 7 PM on Dec 1 in New York is 00:00 on Dec 2 in UTC.
    const evening = new Date("2026-12-02T01:00:00Z");
    expect(verifiedLabel("2026-12-02T00:00:00Z", evening, "America/New_York")).toBe("Verified Dec 1, 2026");
    expect(verifiedLabel("2026-12-02T00:00:00Z", evening, "Europe/Berlin")).toBe("Verified Dec 2, 2026");
  });

  it("says not verified recently past 180 days, when never confirmed or unreadable", () => {
    expect(verifiedLabel("2026-05-26T11:00:00Z", now)).toBe("Not verified recently");
    expect(verifiedLabel(null, now)).toBe("Not verified recently");
    expect(verifiedLabel(undefined, now)).toBe("Not verified recently");
    expect(verifiedLabel("yesterday", now)).toBe("Not verified recently");
  });
});
