import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Rule } from "../../api/types";
import { commonRules, RulesNote, rulesByIds } from "./RulesNote";

const rule = (id: string): Rule => ({ id, summary: `Summary ${id}`, citation: `Law ${id}`, url: `https://law.example/${id}`, checked_on: "2026-11-27" });
const store = (...ids: string[]) => ({ rule_ids: ids });
// The answer carries each rule once.
const answer = ["a", "b"].map(rule);

describe("RulesNote", () => {
  it("keeps the rules every store is under", () => {
    expect(commonRules([store("a", "b"), store("b", "a"), store("b")], answer).map((r) => r.id)).toEqual(["b"]);
    expect(commonRules([store("a"), store()], answer)).toEqual([]);
    expect(commonRules([], answer)).toEqual([]);
    expect(rulesByIds(["b", "gone", "a"], answer).map((r) => r.id)).toEqual(["b", "a"]);
  });

  it("shows them once with their source, and nothing when none binds all", () => {
    const { container, rerender } = render(<RulesNote stores={[store("a"), store("a")]} rules={answer} />);
    expect(screen.getByRole("link", { name: "Law a" })).toHaveAttribute("href", "https://law.example/a");
    expect(screen.getByText(/Summary a/)).toBeInTheDocument();
    rerender(<RulesNote stores={[store("a"), store("b")]} rules={answer} />);
    expect(container).toBeEmptyDOMElement();
  });
});
