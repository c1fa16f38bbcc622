import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { makeReview, makeReviewSummary } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { StoreReviews } from "./StoreReviews";

const summary = makeReviewSummary({ 2: 1 });
const review = makeReview();

describe("StoreReviews (the dashboard)", () => {
  it("writes, shows and deletes the owner's public reply, and switches the new-review mail", async () => {
    let reply: typeof review.reply = null;
    const calls = stubApi({
      "GET /api/store/physical-store/3/reviews": () => ({ body: { store_id: 3, summary, reviews: [{ ...review, reply }], page: 1, limit: 10, has_more: false } }),
      "PUT /api/business/stores/3/reviews/31/reply": (c) => {
        reply = { text: (c.body as { text: string }).text, created_at: "2026-11-03T10:00:00Z", edited_at: null };
        return { body: { ...review, reply } };
      },
      "DELETE /api/business/stores/3/reviews/31/reply": () => {
        reply = null;
        return { body: { message: "Reply deleted" } };
      },
      "GET /api/business/review-mail": { body: { enabled: true } },
      "PUT /api/business/review-mail": (c) => ({ body: c.body }),
    });
    const user = userEvent.setup();
    renderAt(<StoreReviews storeId={3} />);
    const item = (await screen.findByText("Out of my usual pods again.")).closest("li")!;
    expect(item).toHaveTextContent("Rita M");
    // Nothing here hides or edits the review itself.
    expect(within(item).getAllByRole("button").map((b) => b.textContent)).toEqual(["Reply"]);
    await user.click(within(item).getByRole("button", { name: "Reply" }));
    await user.type(within(item).getByRole("textbox", { name: "Public reply" }), "Sorry! New stock on Mondays.");
    await user.click(within(item).getByRole("button", { name: "Publish reply" }));
    expect(await within(item).findByText("Sorry! New stock on Mondays.")).toBeInTheDocument();
    await user.click(within(item).getByRole("button", { name: "Delete reply" }));
    expect(await within(item).findByRole("button", { name: "Reply" })).toBeInTheDocument();
    expect(within(item).queryByText("Sorry! New stock on Mondays.")).not.toBeInTheDocument();

    const mail = screen.getByRole("checkbox", { name: "Mail me each new review" });
    expect(mail).toBeChecked();
    await user.click(mail);
    expect(await screen.findByRole("checkbox", { name: "Mail me each new review" })).not.toBeChecked();
    expect(sent(calls).filter((c) => c.method !== "GET")).toEqual([
      { method: "PUT", path: "/api/business/stores/3/reviews/31/reply", body: { text: "Sorry! New stock on Mondays." }, credentials: "include" },
      { method: "DELETE", path: "/api/business/stores/3/reviews/31/reply", body: undefined, credentials: "include" },
      { method: "PUT", path: "/api/business/review-mail", body: { enabled: false }, credentials: "include" },
    ]);
  });
});
