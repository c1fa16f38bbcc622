import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PhysicalStore, Rule } from "../../api/types";
import { commonRules, RulesNote } from "./RulesNote";

const rule = (id: string): Rule => ({ id, summary: `Summary ${id}`, citation: `Law ${id}`, url: `https://law.example/${id}`, checked_on: "2026-11-27" });
const store = (...ids: string[]) => ({ rules: ids.map(rule) }) as unknown as PhysicalStore;

describe("RulesNote", () => {
  it("keeps the rules every store is under", () => {
    expect(commonRules([store("a", "b"), store("b", "a"), store("b")]).map((r) => r.id)).toEqual(["b"]);
    expect(commonRules([store("a"), store()])).toEqual([]);
    expect(commonRules([])).toEqual([]);
  });

  it("shows them once with their source, and nothing when none binds all", () => {
    const { container, rerender } = render(<RulesNote stores={[store("a"), store("a")]} />);
    expect(screen.getByRole("link", { name: "Law a" })).toHaveAttribute("href", "https://law.example/a");
    expect(screen.getByText(/Summary a/)).toBeInTheDocument();
    rerender(<RulesNote stores={[store("a"), store("b")]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
