import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RatingsBreakdown } from "./RatingsBreakdown";

/** The bars' widths, 5 stars down to 1, as the style says them. */
function widths() {
  return within(screen.getByRole("list", { name: "Ratings" }))
    .getAllByRole("listitem")
    .map((li) => (li.querySelector("[aria-hidden] > span") as HTMLElement).style.width);
}

describe("RatingsBreakdown", () => {
  it("draws each bar as its share of all reviews, not of the largest count", () => {
    const counts = [
      { rating: 5, count: 2 },
      { rating: 4, count: 1 },
      { rating: 3, count: 1 },
      { rating: 2, count: 0 },
      { rating: 1, count: 0 },
    ];
    render(<RatingsBreakdown summary={{ average: 4.3, count: 4, recommended_percentage: 75, counts }} size="compact" />);
    // Two of four reviews: half a bar (scaled to the largest count it was a full one).
    expect(widths()).toEqual(["50%", "25%", "25%", "0%", "0%"]);
  });

  it("fills one bar for a single review", () => {
    const counts = [5, 4, 3, 2, 1].map((rating) => ({ rating, count: rating === 3 ? 1 : 0 }));
    render(<RatingsBreakdown summary={{ average: 3, count: 1, recommended_percentage: 0, counts }} size="full" />);
    expect(widths()).toEqual(["0%", "0%", "100%", "0%", "0%"]);
  });
});
