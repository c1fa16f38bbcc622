import { describe, expect, it } from "vitest";
import { bars, changeLabel, METRICS, valueOf, type InsightCounts } from "./metrics";

const zero: InsightCounts = { impression: 0, panel: 0, page: 0, call: 0, directions: 0, website: 0, online_store: 0, share: 0, favourite: 0 };

describe("owner insights", () => {
  it("adds the kinds of a metric", () => {
    const views = METRICS.find((m) => m.key === "views")!;
    expect(valueOf({ ...zero, panel: 3, page: 4, call: 9 }, views)).toBe(7);
  });

  it("says the change against the period before", () => {
    expect(changeLabel(0, 0)).toBe("no change");
    expect(changeLabel(5, 5)).toBe("no change");
    expect(changeLabel(3, 0)).toBe("new");
    expect(changeLabel(15, 10)).toBe("+50%");
    expect(changeLabel(8, 10)).toBe("−20%");
    expect(changeLabel(0, 4)).toBe("−100%");
    expect(changeLabel(1001, 1000)).toBe("+<1%");
  });

  it("scales the bars to the busiest day", () => {
    const b = bars([0, 2, 4], 30, 100);
    expect(b.map((x) => x.h)).toEqual([0, 50, 100]);
    expect(b[2]?.y).toBe(0);
    expect(b[1]?.x).toBeCloseTo(11);
    expect(bars([0, 0], 20, 10).every((x) => x.h === 0)).toBe(true);
  });
});
