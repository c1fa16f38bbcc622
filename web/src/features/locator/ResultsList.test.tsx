import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { WEEKDAYS } from "../../lib/constants";
import { makeListItem } from "../../test/fixtures";
import { highlighted, setHighlighted } from "./highlight";
import { ResultsList } from "./ResultsList";

const daily = WEEKDAYS.map((weekDay) => ({ weekDay, startTime: "09:00", endTime: "21:00" }));

describe("ResultsList", () => {
  it("shows Opened or Closed by the real rule, with what comes next, at the time it is given", () => {
    const stores = [
      makeListItem({ id: 1, name: "Late Night", workingHours: daily }),
      makeListItem({ id: 2, name: "Thanksgiving Shop", workingHours: daily, special_hours: [{ date: "2026-11-26", closed: true, startTime: null, endTime: null, note: "Thanksgiving" }] }),
      makeListItem({ id: 3, name: "Shut For Works", workingHours: daily, temporarily_closed: { from: "2026-11-20", until: "2026-12-05", note: null } }),
    ];
    const rows = (now: string) => {
      const { unmount } = render(<ResultsList stores={stores} onSelect={vi.fn()} now={new Date(now)} />);
      const out = within(screen.getByRole("list", { name: "Stores" }))
        .getAllByRole("listitem")
        // Without the row number in front and the distance (tested below).
        .map((li) => li.textContent?.replace(/^\d+\. /, "").replace(/[\d.]+ mi/, "").replace(/\(\d+ reviews\)/, "").replace(/Rated [\d.]+ out of 5/, ""));
      unmount();
      return out;
    };
    // 02:53 on Thanksgiving morning in New York: the spec's literal rule said "Opened".
    expect(rows("2026-11-26T02:53:00-05:00")).toEqual(["Late NightClosedOpens 9:00 AM", "Thanksgiving ShopClosedClosed today · Thanksgiving", "Shut For WorksClosedTemporarily closed until Dec 5"]);
    expect(rows("2026-11-27T20:30:00-05:00")).toEqual(["Late NightOpenedCloses soon · 9:00 PM", "Thanksgiving ShopOpenedCloses soon · 9:00 PM", "Shut For WorksClosedTemporarily closed until Dec 5"]);
  });

  it("numbers the rows from the page's first, says how far each store is, and lights the row pointed at", async () => {
    const stores = [makeListItem({ id: 7, name: "Near", distance: 0.44 }), makeListItem({ id: 9, name: "Far", distance: 12.6 })];
    const prefetch = vi.fn();
    render(<ResultsList stores={stores} first={21} onSelect={vi.fn()} onPrefetch={prefetch} now={new Date("2026-11-27T12:00:00-05:00")} />);
    const [near, far] = screen.getAllByRole("button");
    expect(near).toHaveTextContent(/^21\. Near0.4 mi/);
    expect(far).toHaveTextContent(/^22\. Far13 mi/);
    expect(highlighted()).toBeNull();
    await userEvent.hover(far!);
    expect(highlighted()).toBe(9);
    // Pointing at a row fetches its whole store ahead of the click.
    expect(prefetch).toHaveBeenLastCalledWith(9);
    expect(far).toHaveClass("bg-amber-50");
    expect(near).not.toHaveClass("bg-amber-50");
    await userEvent.unhover(far!);
    expect(highlighted()).toBeNull();
    // A pin pointed at on the map lights its row the same way.
    act(() => setHighlighted(7));
    expect(near).toHaveClass("bg-amber-50");
    act(() => setHighlighted(null));
  });

  it("gives screen readers each row's number, the one on its pin", () => {
    render(<ResultsList stores={[makeListItem({ id: 7, name: "Near" }), makeListItem({ id: 9, name: "Far" })]} first={21} onSelect={vi.fn()} now={new Date("2026-11-27T12:00:00-05:00")} />);
    // The accessible name starts with the number, as the row's pin shows it.
    expect(screen.getByRole("button", { name: /^21\.\s*Near/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^22\.\s*Far/ })).toBeInTheDocument();
  });

  it("says No reviews yet instead of five empty stars and (0)", () => {
    render(
      <ResultsList
        stores={[makeListItem({ id: 1, name: "New Shop", review_count: 0, average_rating: 0 }), makeListItem({ id: 2, name: "Known Shop", review_count: 3, average_rating: 4 })]}
        onSelect={vi.fn()}
        now={new Date("2026-11-27T12:00:00-05:00")}
      />,
    );
    const [fresh, known] = screen.getAllByRole("listitem");
    expect(fresh).toHaveTextContent("No reviews yet");
    expect(within(fresh!).queryByRole("img", { name: /Rated/ })).toBeNull();
    expect(fresh).not.toHaveTextContent("(0");
    expect(within(known!).getByRole("img", { name: "Rated 4.0 out of 5" })).toBeInTheDocument();
    expect(known).toHaveTextContent("(3 reviews)");
  });
});
