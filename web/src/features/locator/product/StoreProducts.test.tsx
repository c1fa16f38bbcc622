import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PlaceRules } from "../../../api/types";
import { polyfillDialog } from "../../../test/dialog";
import { stubApi } from "../../../test/fetch";
import { makeOffer, makeProduct, makeStore } from "../../../test/fixtures";
import { renderAt } from "../../../test/render";
import { StoreProducts } from "./StoreProducts";

const place = (over: Partial<PlaceRules> = {}): PlaceRules => ({
  place: { country: "US", state: "NY", city: "New York", postal_code: "10001" },
  on: "2026-12-01",
  rules: [],
  min_age: 21,
  shipping_to_consumers: true,
  shipping_ban: null,
  ...over,
});

const rule = { id: "nyc-flavour-ban", summary: "New York City bans flavoured e-cigarettes", citation: "N.Y.C. Admin. Code § 17-715", url: "https://codelibrary.amlegal.com/codes/newyorkcity", checked_on: "2026-12-02" };
const mango = { ...makeProduct(), ...makeOffer({ lawful: false, rule }) };
const tobacco = { ...makeProduct({ id: "demo-zephyrine-bar-6000-classic-tobacco", name: "Zephyrine Bar 6000 Classic Tobacco", flavour: "tobacco", handle: "zephyrine-bar-6000-classic-tobacco" }), ...makeOffer({ sale_price: 18.99 }) };
const pods = { ...makeProduct({ id: "demo-kestrel-pods-mint", kind: "pods", brand: "Kestrel", name: "Kestrel Pods Mint", handle: "kestrel-pods-mint", nicotine: "5%" }), ...makeOffer({ availability: "out_of_stock" }) };

beforeAll(polyfillDialog);

afterEach(() => {
  document.cookie = "locator_age=; Max-Age=0; Path=/";
  vi.restoreAllMocks();
});

describe("StoreProducts", () => {
  it("lists the store's products by kind, the searched one's kind open, and the law before the stock", async () => {
    stubApi({ "GET /api/rules": { body: place() }, "GET /api/store/physical-store/4/products": { body: { products: [mango, tobacco, pods] } } });
    renderAt(<StoreProducts store={makeStore({ id: 4, store_id: "st-4" })} product={mango.id} now={new Date("2026-12-01T12:00:00Z")} />);

    const section = await screen.findByRole("region", { name: "Products" });
    const kinds = await within(section).findAllByRole("group");
    expect(kinds.map((d) => d.querySelector("summary")?.textContent)).toEqual(["Disposables (2)", "Pods and cartridges (1)"]);
    expect(kinds[0]).toHaveAttribute("open");
    expect(kinds[1]).not.toHaveAttribute("open");

    const [forbidden, allowed] = within(kinds[0]!).getAllByRole("listitem");
    expect(forbidden).toHaveAttribute("aria-current", "true");
    expect(forbidden).toHaveTextContent("Not sold here by law");
    expect(forbidden).not.toHaveTextContent("In stock");
    expect(within(forbidden!).getByRole("link", { name: rule.citation })).toHaveAttribute("href", rule.url);
    expect(within(forbidden!).queryByRole("button", { name: /Buy online/ })).not.toBeInTheDocument();
    expect(allowed).toHaveTextContent("In stock$18.99 was $21.99updated 2 h ago");
    expect(within(allowed!).getByRole("button", { name: "Buy online: Zephyrine Bar 6000 Classic Tobacco" })).toBeInTheDocument();
    // Out of stock: nothing to buy.
    expect(within(kinds[1]!).queryByRole("button", { name: /Buy online/ })).not.toBeInTheDocument();
  });

  it("opens the product's page in the store's online store behind the age check", async () => {
    stubApi({ "GET /api/rules": { body: place() }, "GET /api/store/physical-store/4/products": { body: { products: [tobacco] } } });
    const opened = vi.spyOn(window, "open").mockReturnValue(null);
    const user = userEvent.setup();
    renderAt(<StoreProducts store={makeStore({ id: 4, store_id: "st-4" })} product={null} now={new Date("2026-12-01T12:00:00Z")} />);

    await user.click(await screen.findByText("Disposables (1)"));
    await user.click(await screen.findByRole("button", { name: /^Buy online/ }));
    await screen.findByRole("dialog", { name: "Confirm your age" });
    expect(opened).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText("Date of birth"), "1990-05-05");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(opened).toHaveBeenCalledWith(expect.stringMatching(/\/store\/st-4\/products\/zephyrine-bar-6000-classic-tobacco$/), "_blank", "noopener,noreferrer");
    // The verdict kept, it is a plain link now.
    expect(screen.getByRole("link", { name: /^Buy online/ })).toHaveAttribute("href", expect.stringMatching(/\/store\/st-4\/products\/zephyrine-bar-6000-classic-tobacco$/));
  });

  it("offers pickup instead where the law bans shipping to consumers, and nothing without pickup", async () => {
    const ban = { id: "ny-no-shipping", summary: "Cigarettes and vapes aren't shipped to consumers in New York", citation: "NY Public Health Law 1399-ll", url: "https://www.nysenate.gov/legislation/laws/PBH/1399-LL", checked_on: "2026-11-27" };
    stubApi({ "GET /api/rules": { body: place({ shipping_to_consumers: false, shipping_ban: ban }) }, "GET /api/store/physical-store/4/products": { body: { products: [tobacco] } } });
    const { unmount } = renderAt(<StoreProducts store={makeStore({ id: 4, is_curbside_pickup_available: true })} product={tobacco.id} now={new Date("2026-12-01T12:00:00Z")} />);
    expect(await screen.findByRole("button", { name: "Order for pickup: Zephyrine Bar 6000 Classic Tobacco" })).toBeInTheDocument();
    unmount();

    renderAt(<StoreProducts store={makeStore({ id: 4 })} product={tobacco.id} now={new Date("2026-12-01T12:00:00Z")} />);
    expect(await screen.findByText("In stock")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Order for pickup|Buy online/ })).not.toBeInTheDocument();
  });
});
