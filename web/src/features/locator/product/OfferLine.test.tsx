import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeOffer } from "../../../test/fixtures";
import { OfferLine } from "./OfferLine";

const now = new Date("2026-12-01T12:00:00Z");
const rule = {
  id: "ny-flavour-ban",
  summary: "New York bans the sale of flavoured vapour products other than tobacco",
  citation: "N.Y. Pub. Health Law § 1399-mm-1",
  url: "https://www.nysenate.gov/legislation/laws/PBH/1399-MM-1",
  checked_on: "2026-12-02",
};

describe("OfferLine", () => {
  it("reads availability, price with the old one struck, and when it was reported", () => {
    const { container } = render(<OfferLine offer={makeOffer({ sale_price: 18.99 })} now={now} />);
    expect(container).toHaveTextContent("In stock$18.99 was $21.99updated 2 h ago");
    expect(container.querySelector("s")).toHaveTextContent("was $21.99");
  });

  it("says each availability in words, and a stale row as last reported", () => {
    const line = (over: Parameters<typeof makeOffer>[0]) => {
      const { container, unmount } = render(<OfferLine offer={makeOffer(over)} now={now} />);
      const text = container.textContent;
      unmount();
      return text;
    };
    expect(line({ availability: "limited_availability", price: null })).toBe("Limitedupdated 2 h ago");
    expect(line({ availability: "on_display_to_order", price: null })).toBe("On display to orderupdated 2 h ago");
    expect(line({ availability: "out_of_stock", price: null })).toBe("Out of stockupdated 2 h ago");
    expect(line({ price: null, stale: true, updated_at: "2026-11-20T12:00:00Z" })).toBe("In stocklast reported 11 days ago");
  });

  it("reads Not sold here by law with the rule's citation, never In stock, whatever the feed says", () => {
    render(<OfferLine offer={makeOffer({ lawful: false, rule })} now={now} />);
    expect(screen.getByText("Not sold here by law")).toBeInTheDocument();
    const link = screen.getByRole("link", { name: rule.citation });
    expect(link).toHaveAttribute("href", rule.url);
    expect(link).toHaveAttribute("target", "_blank");
    expect(screen.queryByText("In stock")).not.toBeInTheDocument();
    expect(screen.queryByText("$21.99")).not.toBeInTheDocument();
  });
});
