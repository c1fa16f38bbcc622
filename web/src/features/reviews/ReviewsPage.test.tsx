import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeStore } from "../../test/fixtures";
import { stubApi } from "../../test/fetch";
import { keepFirstFrame } from "../../lib/firstFrame";
import { renderAt } from "../../test/render";
import { ReviewsPage } from "./ReviewsPage";

const summary = {
  average: 4.25,
  count: 12,
  counts: [
    { rating: 5, count: 6 },
    { rating: 4, count: 3 },
    { rating: 3, count: 1 },
    { rating: 2, count: 1 },
    { rating: 1, count: 1 },
  ],
  recommended_percentage: 75,
};

const review = (id: number, day: number) => ({
  id,
  created_at: `2026-03-${String(day).padStart(2, "0")}T12:00:00Z`,
  updated_at: `2026-03-${String(day).padStart(2, "0")}T12:00:00Z`,
  product_id: "p1",
  customer_id: "c1",
  status: "Approved",
  rating: (id % 5) + 1,
  content: `Review text ${id}`,
  product: { title: "Mango Pod" },
  customer: { email: "x@example.com", first_name: `Writer${id}`, last_name: "Secret", phone: "", has_account: true },
});


describe("ReviewsPage", { timeout: 20_000 }, () => {
  it("keeps the server's first frame of this address until the store and its reviews have answered", async () => {
    stubApi({
      "GET /api/store/physical-store/9": { body: makeStore({ id: 9, name: "Frame Vapes", address: "9 Main St" }) },
      "GET /api/store/physical-store/9/reviews": { body: { store_id: 9, summary, reviews: [], page: 1, limit: 10, has_more: false } },
    });
    const root = document.createElement("div");
    root.innerHTML = '<main><h1>Frame Vapes</h1><p>75% of reviewers recommend this store (from the server)</p></main>';
    keepFirstFrame(root, "/reviews", "?store=9");
    renderAt(<ReviewsPage />, "/reviews?store=9");
    // No "Reviews" heading and spinner in between: the frame until both answers are in.
    expect(screen.getByText("75% of reviewers recommend this store (from the server)")).toBeInTheDocument();
    expect(screen.queryByRole("status")).toBeNull();
    expect(await screen.findByText("75% of reviewers recommend this store")).toBeInTheDocument();
    expect(screen.queryByText(/from the server/)).toBeNull();
    expect(screen.getByRole("heading", { level: 1, name: "Frame Vapes" })).toBeInTheDocument();
    expect(screen.getByText(/9 Main St$/)).toBeInTheDocument(); // the address line, as the frame has it
    keepFirstFrame(document.createElement("div"), "/", "");
  });

  it("shows the store's status beside its name, in its zone, at a fixed clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T12:00:00-05:00"));
    try {
      stubApi({
        "GET /api/store/physical-store/7": {
          body: makeStore({ id: 7, name: "Renovating Vapes", temporarily_closed: { from: "2026-11-20", until: "2026-12-02", note: "Renovation" } }),
        },
        "GET /api/store/physical-store/7/reviews": { body: { store_id: 7, summary, reviews: [], page: 1, limit: 10, has_more: false } },
      });
      renderAt(<ReviewsPage />, "/reviews?store=7");
      expect(await screen.findByRole("heading", { name: "Renovating Vapes" })).toBeInTheDocument();
      expect(screen.getByText("Closed")).toBeInTheDocument();
      expect(screen.getByText("Temporarily closed until Dec 2 · Renovation")).toBeInTheDocument(); // with its note (issue #39, M3)
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the store's name, the summary and the reviews newest first, page by page", async () => {
    const calls = stubApi({
      "GET /api/store/physical-store/42": { body: makeStore({ id: 42, name: "Cloud Nine Vapes" }) },
      "GET /api/store/physical-store/42/reviews": (c) => ({
        body: c.query.get("page") === "1"
          ? { store_id: 42, summary, reviews: [review(3, 20), review(2, 15)], page: 1, limit: 10, has_more: true }
          : { store_id: 42, summary, reviews: [review(1, 2)], page: 2, limit: 10, has_more: false },
      }),
    });
    renderAt(<ReviewsPage />, "/reviews?store=42");
    expect(await screen.findByRole("heading", { name: "Cloud Nine Vapes" })).toBeInTheDocument();
    const chart = screen.getByRole("list", { name: "Ratings" });
    expect(within(chart).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["5 stars6", "4 stars3", "3 stars1", "2 stars1", "1 stars1"]);
    expect(screen.getByText("4.3")).toBeInTheDocument();
    expect(screen.getByText("75% of reviewers recommend this store")).toBeInTheDocument();

    const items = () => screen.getAllByRole("listitem").filter((li) => li.textContent?.includes("Review text"));
    expect(items().map((li) => within(li).getByText(/^Review text/).textContent)).toEqual(["Review text 3", "Review text 2"]);
    expect(within(items()[0]!).getByText("Writer3")).toBeInTheDocument();
    expect(within(items()[0]!).queryByText(/Secret/)).not.toBeInTheDocument();
    expect(within(items()[0]!).getByRole("img", { name: "Rated 4.0 out of 5" })).toBeInTheDocument();
    expect(items()[0]!.querySelector("time")).toHaveAttribute("datetime", "2026-03-20T12:00:00Z");

    await userEvent.setup().click(screen.getByRole("button", { name: "Show more reviews" }));
    expect(await screen.findByText("Review text 1")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Show more reviews" })).not.toBeInTheDocument();
    const pages = calls.filter((c) => c.path.endsWith("/reviews"));
    expect(pages).toHaveLength(2);
  });

  it("asks for a store when none is given", () => {
    stubApi({});
    renderAt(<ReviewsPage />, "/reviews");
    expect(screen.getByRole("heading", { name: "Reviews" })).toBeInTheDocument();
    expect(screen.getByText(/No store was chosen/)).toBeInTheDocument();
  });
});

