import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import { usePopup, type Customer } from "../../lib/session";
import { makeStore, NINE_TO_FIVE } from "../../test/fixtures";
import { renderAt } from "../../test/render";

function OpenFavorites() {
  const { openPopup } = usePopup();
  useEffect(() => openPopup("favorites"), [openPopup]);
  return <button type="button">outside</button>;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const base: Omit<Customer, "favorites_phstores"> = { id: 1, first_name: "Ann", last_name: "Lee", email: "a@example.com", phone: "+1", email_verified: false };

describe("the favorites view", () => {
  it('shows "There is no favorite stores" when empty', async () => {
    renderAt(<OpenFavorites />, "/", { customer: { ...base, favorites_phstores: [] } });
    const dialog = await screen.findByRole("dialog", { name: "Favorites" });
    expect(within(dialog).getByText("There is no favorite stores")).toBeInTheDocument();
  });

  it("lists favourites with Open now or Closed, and the heart removes one", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(json({ customer: { ...base, favorites_phstores: [] } }))));
    const open = makeStore({ id: 1, name: "Always Open", workingHours: NINE_TO_FIVE.map((h) => ({ ...h, startTime: "00:00", endTime: "00:00" })) });
    const closed = makeStore({ id: 2, name: "Never Open", workingHours: [] });
    renderAt(<OpenFavorites />, "/", { customer: { ...base, favorites_phstores: [open, closed] } });
    const list = await screen.findByRole("list", { name: "Favorite stores" });
    const items = within(list).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Always Open");
    expect(items[0]).toHaveTextContent("Open now");
    // Each favourite says where it is (issue #39, m13).
    expect(within(items[0]!).getByText(`${open.city}, ${open.state} ${open.postal_code}`)).toBeInTheDocument();
    expect(items[1]).toHaveTextContent("Never Open");
    expect(items[1]).toHaveTextContent("Closed");

    await userEvent.click(screen.getByRole("button", { name: "Remove Always Open from favorites" }));
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(1));
  });

  it("says what comes next in the store's zone, with the clock fixed on Thanksgiving", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-26T12:00:00-05:00"));
    try {
      const holiday = makeStore({
        id: 3,
        name: "Holiday Shop",
        special_hours: [{ date: "2026-11-26", closed: true, startTime: null, endTime: null, note: "Thanksgiving" }],
      });
      const la = makeStore({ id: 4, name: "West Coast", time_zone: "America/Los_Angeles" });
      renderAt(<OpenFavorites />, "/", { customer: { ...base, favorites_phstores: [holiday, la] } });
      const items = within(await screen.findByRole("list", { name: "Favorite stores" })).getAllByRole("listitem");
      expect(items[0]).toHaveTextContent("ClosedClosed today · Thanksgiving");
      expect(items[1]).toHaveTextContent("Open nowCloses 5:00 PM");
    } finally {
      vi.useRealTimers();
    }
  });

  it("Escape and the close icon close it; focus goes back", async () => {
    renderAt(<OpenFavorites />, "/", { customer: { ...base, favorites_phstores: [] } });
    await screen.findByRole("dialog");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
