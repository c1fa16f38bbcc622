import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ReviewsPanel } from "./ReviewsPanel";

const base = {
  created_at: "2026-11-02T15:00:00Z",
  updated_at: "2026-11-02T15:00:00Z",
  product_id: "",
  customer_id: "",
  product: {},
  sample: false,
  edited_at: null,
  reply: null,
  store_id: 4,
  store_name: "Cloud Nine",
};
const held = {
  ...base,
  id: 11,
  status: "Held",
  rating: 5,
  content: "Helped me quit smoking!",
  customer: { first_name: "Bob", last_name: "R.", has_account: true },
  held_reason: "It seems to make a health or quit-smoking claim.",
  flags: {},
  flag_count: 0,
};
const flagged = {
  ...base,
  id: 12,
  status: "Approved",
  rating: 1,
  content: "The owner is a crook",
  customer: { first_name: "Ann", last_name: "L.", has_account: true },
  held_reason: "",
  flags: { hateful: 2, "off-topic": 1 },
  flag_count: 3,
};
const reasons = {
  removal_reasons: [
    { code: "off-topic", label: "Not about this store" },
    { code: "hateful", label: "Hateful, harassing or threatening" },
  ],
  keep_reasons: [
    { code: "within-policy", label: "Nothing in the review breaks the policy" },
    { code: "screen-mistake", label: "The screening held it by mistake" },
  ],
};

describe("ReviewsPanel", () => {
  it("shows held and flagged reviews with their reasons and counts, and decides with a published reason", async () => {
    let left = [held, flagged];
    const calls = stubApi({
      "GET /api/admin/reviews": () => ({ body: { reviews: left, ...reasons } }),
      "POST /api/admin/reviews/12/remove": () => {
        left = [held];
        return { body: { ...flagged, status: "Removed" } };
      },
      "POST /api/admin/reviews/11/keep": () => {
        left = [];
        return { body: { ...held, status: "Approved" } };
      },
    });
    const user = userEvent.setup();
    renderAt(<ReviewsPanel onUnauthorized={() => {}} />);
    const one = await screen.findByRole("article", { name: /5 of 5 stars by Bob R\./ });
    expect(one).toHaveTextContent("(held)");
    expect(one).toHaveTextContent("Held: It seems to make a health or quit-smoking claim.");
    const two = screen.getByRole("article", { name: /1 of 5 stars by Ann L\./ });
    expect(two).toHaveTextContent("(3 flags)");
    expect(within(within(two).getByRole("list", { name: "Flags" })).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Hateful: 2",
      "Off-topic: 1",
    ]);

    await user.selectOptions(within(two).getByRole("combobox", { name: "Removal reason" }), "hateful");
    await user.click(within(two).getByRole("button", { name: "Remove" }));
    expect(await screen.findByText("Review #12 of Cloud Nine: removed.")).toBeInTheDocument();
    await user.selectOptions(within(one).getByRole("combobox", { name: "Reason to keep" }), "screen-mistake");
    await user.click(within(one).getByRole("button", { name: "Publish" }));
    expect(await screen.findByText("No held or flagged reviews.")).toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method === "POST")).toEqual([
      { method: "POST", path: "/api/admin/reviews/12/remove", body: { reason: "hateful" }, credentials: "include" },
      { method: "POST", path: "/api/admin/reviews/11/keep", body: { reason: "screen-mistake" }, credentials: "include" },
    ]);
  });
});
