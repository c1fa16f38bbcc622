import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PlaceRules } from "../../api/types";
import { polyfillDialog } from "../../test/dialog";
import { stubApi } from "../../test/fetch";
import { makeStore } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { OnlineStoreButton } from "./OnlineStoreButton";

const place = (over: Partial<PlaceRules> = {}): PlaceRules => ({
  place: { country: "US", state: "MA", city: "Boston", postal_code: "02108" },
  on: "2026-11-27",
  rules: [],
  min_age: 21,
  shipping_to_consumers: true,
  shipping_ban: null,
  ...over,
});

beforeAll(polyfillDialog);

afterEach(() => {
  document.cookie = "locator_age=; Max-Age=0; Path=/";
  vi.restoreAllMocks();
});

describe("OnlineStoreButton", () => {
  it("asks a date of birth before leaving, then opens the shop", async () => {
    stubApi({ "GET /api/rules": { body: place() } });
    const opened = vi.spyOn(window, "open").mockReturnValue(null);
    const user = userEvent.setup();
    renderAt(<OnlineStoreButton store={makeStore({ store_id: "st-1" })} />);
    await user.click(await screen.findByRole("button", { name: "Go to online store" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm your age" });
    expect(opened).not.toHaveBeenCalled();
    const birth = screen.getByLabelText("Date of birth");
    await user.type(birth, "1990-05-05");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(opened).toHaveBeenCalledWith(expect.stringMatching(/\/store\/st-1$/), "_blank", "noopener,noreferrer");
    expect(dialog).not.toBeInTheDocument();
    expect(document.cookie).toContain("locator_age=ok:21");
  });

  it("keeps an under-age shopper on the store with a plain message", async () => {
    stubApi({ "GET /api/rules": { body: place() } });
    const opened = vi.spyOn(window, "open").mockReturnValue(null);
    const user = userEvent.setup();
    renderAt(<OnlineStoreButton store={makeStore()} />);
    await user.click(await screen.findByRole("button", { name: "Go to online store" }));
    await user.type(await screen.findByLabelText("Date of birth"), `${new Date().getFullYear() - 19}-01-01`);
    await user.click(screen.getByRole("button", { name: "Continue" }));
    // The year is shown back first, in case it was mistyped (AgeDialog, issue 39 m16).
    await user.click(await screen.findByRole("button", { name: "Yes" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("You need to be 21 or older");
    expect(opened).not.toHaveBeenCalled();
    expect(document.cookie).toContain("locator_age=under:21");
  });

  it("offers pickup where the law allows no shipping to the shopper", async () => {
    const ban = { id: "ny-no-shipping", summary: "Cigarettes and vapes aren't shipped to consumers in New York", citation: "NY Public Health Law 1399-ll", url: "https://www.nysenate.gov/legislation/laws/PBH/1399-LL", checked_on: "2026-11-27" };
    stubApi({ "GET /api/rules": { body: place({ shipping_to_consumers: false, shipping_ban: ban }) } });
    const { unmount } = renderAt(<OnlineStoreButton store={makeStore({ is_curbside_pickup_available: true })} />);
    expect(await screen.findByTestId("shipping-ban")).toHaveTextContent("can't ship to you. You can order online and pick up at this store.");
    expect(screen.getByRole("button", { name: "Order for pickup" })).toBeInTheDocument();
    unmount();
    renderAt(<OnlineStoreButton store={makeStore({ is_curbside_pickup_available: false, is_order_online_available: false })} />);
    expect(await screen.findByTestId("shipping-ban")).toHaveTextContent("You can buy in person at this store.");
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("puts no address of the shop on the page before the check, so no way of opening a link gets round it", async () => {
    stubApi({ "GET /api/rules": { body: place() } });
    const opened = vi.spyOn(window, "open").mockReturnValue(null);
    const { container } = renderAt(<OnlineStoreButton store={makeStore({ store_id: "st-1" })} />);
    const button = await screen.findByRole("button", { name: "Go to online store" });
    // A middle click, a modified click or the context menu act on a link's address: there is none.
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
    expect(container.querySelector("[href]")).toBeNull();
    expect(container.innerHTML).not.toContain("/store/st-1");
    button.dispatchEvent(new MouseEvent("auxclick", { bubbles: true, button: 1 }));
    expect(opened).not.toHaveBeenCalled();
    // The keyboard reaches the dialog as the mouse does.
    const user = userEvent.setup();
    button.focus();
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("dialog", { name: "Confirm your age" })).toBeInTheDocument();
    expect(opened).not.toHaveBeenCalled();
  });

  it("is a plain link once an adult verdict is kept", async () => {
    document.cookie = "locator_age=ok:21; Path=/";
    stubApi({ "GET /api/rules": { body: place() } });
    renderAt(<OnlineStoreButton store={makeStore({ store_id: "st-1" })} />);
    const link = await screen.findByRole("link", { name: "Go to online store" });
    expect(link.getAttribute("href")).toMatch(/\/store\/st-1$/);
    expect(link).toHaveAttribute("target", "_blank");
  });
});
