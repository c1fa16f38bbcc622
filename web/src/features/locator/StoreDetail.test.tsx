import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { customerKeys } from "../../api/keys";
import type { PhysicalStore } from "../../api/types";
import type { Customer } from "../../lib/session";
import { listItemOf, makeLicence, makeListItem, makeService, makeStore, NINE_TO_FIVE, whole } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { slugify } from "../../lib/storePage";
import { StoreDetail } from "./StoreDetail";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const summary = {
  store_id: 7,
  summary: {
    average: 4.25,
    count: 4,
    counts: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: rating === 5 ? 2 : rating === 4 ? 1 : rating === 1 ? 1 : 0 })),
    recommended_percentage: 75,
  },
  reviews: [],
  page: 1,
  limit: 1,
  has_more: false,
};

const customer: Customer = { id: 1, first_name: "Ann", last_name: "Lee", email: "ann@example.com", phone: "+1", favorites_phstores: [], email_verified: false };

/** fetch stub: reviews answer the summary; favourite calls answer `favoriteStatus`. */
function stubFetch(favoriteStatus = 200) {
  const fetch = vi.fn((request: Request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/reviews")) return Promise.resolve(json(summary));
    if (path.includes("favorite-phstore")) return Promise.resolve(json(favoriteStatus === 200 ? { customer } : { message: "no" }, favoriteStatus));
    return Promise.resolve(json({ message: "not found" }, 404));
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const favoriteCalls = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls.map(([r]) => new URL(r.url).pathname).filter((p) => p.includes("favorite-phstore"));

describe("StoreDetail", () => {
  const store = makeStore({ id: 7, name: "Cloud Nine", store_id: "st_7" });

  it("shows the store, its actions, hours, links and the reviews summary", async () => {
    stubFetch();
    renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />);
    expect(screen.getByRole("heading", { name: "Cloud Nine" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Call" })).toHaveAttribute("href", "tel:+12125550100");
    // The place's rules answer first (here a 404: the federal minimum age, shipping allowed).
    // Before the age check it is a button that asks first (OnlineStoreButton.test.tsx).
    expect(await screen.findByRole("button", { name: "Go to online store" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to reviews" })).toHaveAttribute("href", "/reviews?store=7");
    // The store's own page, from the panel (issue #39, m11).
    expect(screen.getByRole("link", { name: "View store page" })).toHaveAttribute("href", `/stores/${store.state.toLowerCase()}/${slugify(store.city)}/cloud-nine-7`);
    expect(await screen.findByText("4.3")).toBeInTheDocument();
    expect(screen.getByText("75% of reviewers recommend this store")).toBeInTheDocument();
  });

  it("says when the details were last verified, and links the website", () => {
    stubFetch();
    const now = new Date("2026-11-23T12:00:00Z");
    const { unmount } = renderAt(
      <StoreDetail {...whole(makeStore({ last_verified_at: "2026-11-03T10:00:00Z", website: "https://cloud9.example/shop" }))} onBack={() => {}} now={now} />,
    );
    expect(screen.getByText("Verified Nov 3, 2026")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "cloud9.example/shop" })).toHaveAttribute("href", "https://cloud9.example/shop");
    unmount();
    renderAt(<StoreDetail {...whole(makeStore({ last_verified_at: "2026-01-03T10:00:00Z" }))} onBack={() => {}} now={now} />);
    expect(screen.getByText("Not verified recently")).toBeInTheDocument();
  });

  it("says how far the store is (from the list's entry), completes the address with town and postal code, and says No reviews yet instead of 0.0 and 0%", async () => {
    const empty = { ...summary, summary: { average: 0, count: 0, counts: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: 0 })), recommended_percentage: 0 } };
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(json(empty))));
    renderAt(
      <StoreDetail
        store={makeListItem({ distance: 2.34, city: "Brooklyn", state: "NY", postal_code: "11211", average_rating: 0, review_count: 0 })}
        whole={undefined}
        rules={[]}
        onBack={() => {}}
        now={new Date()}
      />,
    );
    expect(screen.getByText("2.3 mi")).toBeInTheDocument();
    expect(screen.getByText("Brooklyn, NY 11211")).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText("No reviews yet")).toHaveLength(2));
    expect(screen.queryByText("0.0")).not.toBeInTheDocument();
    expect(screen.queryByText(/0% of reviewers/)).not.toBeInTheDocument();
  });

  it("writes the phone in its national format and dials the international number (issue #39, m10)", () => {
    stubFetch();
    renderAt(<StoreDetail {...whole(makeStore({ phone_number: "+19175550166" }))} onBack={() => {}} now={new Date()} />);
    const link = screen.getByRole("link", { name: "(917) 555-0166" });
    expect(link).toHaveAttribute("href", "tel:+19175550166");
    expect(screen.queryByText("+19175550166")).not.toBeInTheDocument();
  });

  it("tells of a closure starting tomorrow with its note, as the store page (issue #39, M3)", () => {
    stubFetch();
    const evening = new Date("2026-12-02T20:00:00-05:00");
    const closing = makeStore({ time_zone: "America/New_York", temporarily_closed: { from: "2026-12-03", until: null, note: "Renovation" } });
    renderAt(<StoreDetail {...whole(closing)} onBack={() => {}} now={evening} />);
    expect(screen.getByRole("note")).toHaveTextContent("Temporarily closed from Dec 3 until further notice · Renovation");
  });

  it("has no Call button without a phone number", () => {
    stubFetch();
    renderAt(<StoreDetail {...whole(makeStore({ phone_number: null }))} onBack={() => {}} now={new Date()} />);
    expect(screen.queryByRole("link", { name: "Call" })).not.toBeInTheDocument();
  });

  it("titles and describes the document while it shows, and puts the previous ones back", () => {
    stubFetch();
    document.title = "Store Locator";
    const { unmount } = renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />);
    expect(document.title).toBe("Cloud Nine, New York City, NY · Store Locator");
    const description = document.head.querySelector('meta[name="description"]');
    expect(description).toHaveAttribute("content", "Cloud Nine in New York City, NY: address, phone, opening hours and directions.");
    unmount();
    expect(document.title).toBe("Store Locator");
  });

  it("Share copies the store page's URL when the browser cannot share", async () => {
    stubFetch();
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal("navigator", { ...navigator, share: undefined, clipboard: { writeText } });
    renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />);
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/stores/ny/new-york-city/cloud-nine-7`);
    expect(await screen.findByText("Link copied")).toBeInTheDocument();
  });

  it("Back to results clears the selection", async () => {
    stubFetch();
    const onBack = vi.fn();
    renderAt(<StoreDetail {...whole(store)} onBack={onBack} now={new Date()} />);
    await userEvent.click(screen.getByRole("button", { name: "Back to results" }));
    expect(onBack).toHaveBeenCalledOnce();
  });
});

describe("StoreDetail from the list's entry, then the whole store", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  const rule = { id: "ny-flavoured-vapes", summary: "Flavoured vapes aren't sold in stores in New York", citation: "NY PHL 1399-mm-1", url: "https://law.example/ny", checked_on: "2026-11-27" };
  const full = makeStore({
    id: 7,
    name: "Cloud Nine",
    licence: makeLicence(),
    last_verified_at: "2026-11-03T10:00:00Z",
    website: "https://cloud9.example/shop",
    rules: [rule],
    services: { delivery: makeService({ offered: true, available_now: true, hours: NINE_TO_FIVE }), curbside_pickup: makeService(), online_order: makeService() },
  });

  it("opens at once with what the list carries, and adds the lines of the whole store when it arrives", () => {
    stubFetch();
    const entry = listItemOf(full);
    // As the locator page gives it: the list's entry and the answer's rules until the whole store arrives.
    let arrive: (store: PhysicalStore) => void = () => {};
    function Panel() {
      const [w, setW] = useState<PhysicalStore>();
      arrive = setW;
      return <StoreDetail store={w ?? entry} whole={w} rules={w?.rules ?? [rule]} onBack={() => {}} now={now} />;
    }
    renderAt(<Panel />);
    const panel = screen.getByRole("article", { name: "Cloud Nine" });
    expect(panel).toHaveAttribute("aria-busy", "true");
    // What the list's entry has: the name, the actions, the address, the hours, a service's line, the rules (from the answer).
    expect(screen.getByRole("link", { name: "Call" })).toBeInTheDocument();
    expect(screen.getByText("United States, NY, 1 Main St")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Working Hours" })).toBeInTheDocument();
    expect(screen.getByText(/^Delivery /)).toBeInTheDocument();
    expect(within(screen.getByTestId("rules")).getByText(/NY PHL 1399-mm-1/)).toBeInTheDocument();
    // What only the whole store has is not shown yet (nor guessed).
    expect(screen.queryByTestId("licence")).not.toBeInTheDocument();
    expect(screen.queryByText(/Verified|Not verified recently/)).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "cloud9.example/shop" })).not.toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Delivery hours" })).not.toBeInTheDocument();

    act(() => arrive(full));
    expect(panel).toHaveAttribute("aria-busy", "false");
    expect(screen.getByTestId("licence")).toHaveTextContent("Licence verified");
    expect(screen.getByText("Verified Nov 3, 2026")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "cloud9.example/shop" })).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Delivery hours" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Cloud Nine" })).toBeInTheDocument();
  });
});

describe("the Favorite toggle", () => {
  const store = makeStore({ id: 7, name: "Cloud Nine" });

  it("logged out: clears the selected store and opens the sign-in popup", async () => {
    const fetch = stubFetch();
    const onBack = vi.fn();
    renderAt(<StoreDetail {...whole(store)} onBack={onBack} now={new Date()} />);
    await userEvent.click(screen.getByRole("button", { name: "Favorite" }));
    expect(onBack).toHaveBeenCalledOnce();
    expect(await screen.findByRole("dialog", { name: "Welcome back" })).toBeInTheDocument();
    expect(favoriteCalls(fetch)).toEqual([]);
  });

  it("logged out: the store is favourited once the sign-in succeeds (issue #39, m14)", async () => {
    const favourited = { ...customer, favorites_phstores: [store] };
    const fetch = vi.fn((request: Request) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith("/store/auth")) return Promise.resolve(json({ customer }));
      if (path.includes("add-favorite-phstore")) return Promise.resolve(json({ customer: favourited }));
      if (path.endsWith("/customers/me")) return Promise.resolve(json(favourited));
      if (path.endsWith("/reviews")) return Promise.resolve(json(summary));
      return Promise.resolve(json({ message: "not found" }, 404));
    });
    vi.stubGlobal("fetch", fetch);
    const user = userEvent.setup();
    const { queryClient } = renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />);
    await user.click(screen.getByRole("button", { name: "Favorite" }));
    const dialog = await screen.findByRole("dialog", { name: "Welcome back" });
    await user.type(within(dialog).getByLabelText("Email"), "ann@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "secret-pass");
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    await waitFor(() => expect(favoriteCalls(fetch)).toEqual(["/api/customers/add-favorite-phstore"]));
    await waitFor(() => expect(queryClient.getQueryData<Customer>(customerKeys.me)?.favorites_phstores?.map((s) => s.id)).toEqual([7]));
  }, 20_000);

  it("logged out, before the whole store arrives (or when it cannot): opens the sign-in popup at once", async () => {
    const fetch = stubFetch(); // the one-store answer is a 404 here
    const onBack = vi.fn();
    renderAt(<StoreDetail store={listItemOf(store)} whole={undefined} rules={[]} onBack={onBack} now={new Date()} />);
    await userEvent.click(screen.getByRole("button", { name: "Favorite" }));
    expect(onBack).toHaveBeenCalledOnce();
    expect(await screen.findByRole("dialog", { name: "Welcome back" })).toBeInTheDocument();
    expect(favoriteCalls(fetch)).toEqual([]);
  });

  it("logged in: adds, then removes, calling the server each time", async () => {
    const fetch = stubFetch();
    renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />, "/", { customer });
    const button = screen.getByRole("button", { name: "Favorite" });
    expect(button).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "false");
    await waitFor(() => expect(favoriteCalls(fetch)).toEqual(["/api/customers/add-favorite-phstore", "/api/customers/remove-favorite-phstore"]));
    const body = (await fetch.mock.calls.find(([r]) => r.url.includes("add-favorite"))![0].clone().json()) as unknown;
    expect(body).toEqual({ phstore_id: 7 });
  });

  it("keeps the local list after the server answers (its answer is not read back)", async () => {
    // The stub answers every favourite call with the customer's empty list.
    const fetch = stubFetch();
    const { queryClient } = renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />, "/", { customer });
    const button = screen.getByRole("button", { name: "Favorite" });
    await userEvent.click(button);
    await waitFor(() => expect(favoriteCalls(fetch)).toEqual(["/api/customers/add-favorite-phstore"]));
    await waitFor(() => expect(queryClient.isMutating()).toBe(0));
    expect(button).toHaveAttribute("aria-pressed", "true");
  });

  it("changes the local list even when the server call fails, and logs the error", async () => {
    stubFetch(500);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    renderAt(<StoreDetail {...whole(store)} onBack={() => {}} now={new Date()} />, "/", { customer });
    const button = screen.getByRole("button", { name: "Favorite" });
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(log).toHaveBeenCalledWith("There is some error adding store to favorites"));
    await userEvent.click(button);
    expect(button).toHaveAttribute("aria-pressed", "false");
    await waitFor(() => expect(log).toHaveBeenCalledWith("There is some error removing store from favorites"));
  });
});
