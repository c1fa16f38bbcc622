import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { checkedMonth, RuleLines } from "./RuleLines";

const rule = {
  id: "ny-flavoured-vapes",
  summary: "Flavoured vapes aren't sold in stores in New York",
  citation: "NY Public Health Law 1399-mm-1",
  url: "https://www.nysenate.gov/legislation/laws/PBH/1399-MM-1",
  checked_on: "2026-11-27",
};

describe("RuleLines", () => {
  it("reads a neutral line with its citation and check month; the info button tells the source", async () => {
    const user = userEvent.setup();
    render(<RuleLines rules={[rule]} />);
    expect(screen.getByText("Flavoured vapes aren't sold in stores in New York · NY Public Health Law 1399-mm-1 · checked Nov 2026")).toBeInTheDocument();
    const info = screen.getByRole("button", { name: "About this rule" });
    expect(info).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("link", { name: "Read the law" })).not.toBeInTheDocument();
    await user.click(info);
    expect(info).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("link", { name: "Read the law" })).toHaveAttribute("href", rule.url);
  });

  it("shows nothing without rules", () => {
    const { container } = render(<RuleLines rules={[]} />);
    expect(container).toBeEmptyDOMElement();
    expect(checkedMonth("2026-01-05")).toBe("Jan 2026");
    expect(checkedMonth("garbage")).toBe("garbage");
  });
});
