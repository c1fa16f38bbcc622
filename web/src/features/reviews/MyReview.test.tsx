import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeCustomer, makeReview, makeReviewSummary, makeStore } from "../../test/fixtures";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ReviewsPage } from "./ReviewsPage";

const summary = makeReviewSummary();

const published = makeReview({ reply: { text: "Sorry! New stock arrives on Mondays.", created_at: "2026-11-03T10:00:00Z", edited_at: null } });

const page = (reviews: unknown[]) => ({ body: { store_id: 5, summary, reviews, page: 1, limit: 10, has_more: false } });

describe("Your review on /reviews", { timeout: 20_000 }, () => {
  it("asks a signed-out shopper to sign in", async () => {
    stubApi({
      "GET /api/store/physical-store/5": { body: makeStore({ id: 5, name: "Five Vapes" }) },
      "GET /api/store/physical-store/5/reviews": page([]),
    });
    renderAt(<ReviewsPage />, "/reviews?store=5");
    expect(await screen.findByRole("button", { name: "Sign in to write a review" })).toBeInTheDocument();
  });

  it("tells a member without a proven mailbox to prove it first", async () => {
    stubApi({
      "GET /api/store/physical-store/5": { body: makeStore({ id: 5, name: "Five Vapes" }) },
      "GET /api/store/physical-store/5/reviews": page([]),
    });
    renderAt(<ReviewsPage />, "/reviews?store=5", { customer: makeCustomer({ email_verified: false }) });
    expect(await screen.findByText(/Prove your email address first/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Publish review" })).not.toBeInTheDocument();
  });

  it("checks the form, writes the review and shows why it is held", async () => {
    const calls = stubApi({
      "GET /api/store/physical-store/5": { body: makeStore({ id: 5, name: "Five Vapes" }) },
      "GET /api/store/physical-store/5/reviews": page([]),
      "POST /api/store/physical-store/5/reviews": (c) => ({
        status: 201,
        body: {
          ...published,
          ...(c.body as object),
          store_id: 5,
          status: "Held",
          reply: null,
          held_reason: "It seems to contain a phone number. Reviews may not publish anyone's personal information, so a moderator will read it first.",
        },
      }),
    });
    renderAt(<ReviewsPage />, "/reviews?store=5", { customer: makeCustomer({ id: 8, email_verified: true }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Publish review" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose a rating from 1 to 5 stars.");
    await user.click(screen.getByRole("radio", { name: "4 stars" }));
    await user.type(screen.getByRole("textbox", { name: "Your review" }), "Too short");
    await user.click(screen.getByRole("button", { name: "Publish review" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Write 10 to 2000 characters.");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    await user.type(screen.getByRole("textbox", { name: "Your review" }), "! Call 212 555 0123");
    await user.click(screen.getByRole("button", { name: "Publish review" }));
    expect(await screen.findByText(/seems to contain a phone number/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("a moderator will read it before it is published");
    expect(sent(calls).filter((c) => c.method === "POST")).toEqual([
      { method: "POST", path: "/api/store/physical-store/5/reviews", body: { rating: 4, content: "Too short! Call 212 555 0123" }, credentials: "include" },
    ]);
    expect(screen.getByRole("button", { name: "Edit your review" })).toBeInTheDocument();
  });

  it("lists the reviews with the store's reply and the sample mark, and flags one with a reason", async () => {
    const calls = stubApi({
      "GET /api/store/physical-store/5": { body: makeStore({ id: 5, name: "Five Vapes" }) },
      "GET /api/store/physical-store/5/reviews": page([published, { ...published, id: 2, sample: true, reply: null, customer: { first_name: "Ann", last_name: "Sample", has_account: true } }]),
      "POST /api/reviews/31/flags": { status: 201, body: { message: "Thank you: a moderator will read this review" } },
    });
    renderAt(<ReviewsPage />, "/reviews?store=5");
    const items = await screen.findAllByRole("listitem");
    const rita = items.find((li) => li.textContent?.includes("Rita"))!;
    expect(within(rita).getByText("Sorry! New stock arrives on Mondays.")).toBeInTheDocument();
    expect(within(rita).queryByText(/Sample review/)).not.toBeInTheDocument();
    const ann = items.find((li) => li.textContent?.includes("Ann"))!;
    expect(within(ann).getByText("Sample review (demo data)")).toBeInTheDocument();
    expect(within(ann).queryByText(/Sample\.$/)).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(rita).getByRole("button", { name: "Flag this review" }));
    await user.selectOptions(within(rita).getByRole("combobox", { name: "Why flag it?" }), "hateful");
    await user.click(within(rita).getByRole("button", { name: "Send flag" }));
    expect(await within(rita).findByText("Thank you: a moderator will read this review.")).toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method === "POST")).toEqual([{ method: "POST", path: "/api/reviews/31/flags", body: { reason: "hateful" }, credentials: "same-origin" }]);
  });

  it("shows the public policy and the removals per month without a store", async () => {
    stubApi({
      "GET /api/reviews/policy": {
        body: {
          flag_reasons: [],
          removal_reasons: [{ code: "hateful", label: "Hateful, harassing or threatening" }],
          keep_reasons: [],
          removals: [{ month: "2026-11", reason: "hateful", count: 3 }],
        },
      },
    });
    renderAt(<ReviewsPage />, "/reviews");
    const table = await screen.findByRole("table");
    expect(within(table).getAllByRole("row").map((r) => r.textContent)).toEqual(["MonthReasonReviews removed", "November 2026Hateful, harassing or threatening3"]);
    expect(screen.getByText(/16 CFR Part 465/)).toBeInTheDocument();
  });
});
