import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { StoreList } from "../../api/types";
import { stubApi, type Call } from "../../test/fetch";
import { makeListItem, makeOffer, makeProduct } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { LocatorPage } from "./LocatorPage";
import { parseLocatorUrl } from "./urlState";

// The real map needs WebGL; the end-to-end suite covers it.
vi.mock("./map/StoreMap", () => ({ default: () => null }));
vi.mock("./geolocation", () => ({ locateVisitor: () => Promise.resolve(null) }));

const mango = makeProduct();
const rule = { id: "nyc-flavour-ban", summary: "New York City bans flavoured e-cigarettes", citation: "N.Y.C. Admin. Code § 17-715", url: "https://codelibrary.amlegal.com/codes/newyorkcity", checked_on: "2026-12-02" };
const twoHoursAgo = () => new Date(Date.now() - 2 * 3600_000 - 60_000).toISOString();

/** The list answer: with `product`, the stores that carry it, each with its row; without, plain stores. */
function listAnswer(call: Call): { body: StoreList } {
  const plain = [makeListItem({ id: 1, name: "Cloud Nine", distance: 0.4 }), makeListItem({ id: 2, name: "Vapor Den", distance: 1.2 }), makeListItem({ id: 3, name: "Smoke Shop", distance: 2 })];
  if (call.query.get("product") === null) return { body: { physical_stores: plain, has_more: false, rules: [], licence_registry: true } };
  const rows = [
    { ...plain[1]!, product: { id: mango.id, ...makeOffer({ sale_price: 18.99, updated_at: twoHoursAgo() }) } },
    { ...plain[0]!, product: { id: mango.id, ...makeOffer({ availability: "limited_availability", price: 22.5, updated_at: twoHoursAgo() }) } },
    { ...plain[2]!, product: { id: mango.id, ...makeOffer({ lawful: false, rule }) } },
  ];
  const inStock = call.query.get("in_stock") === "true";
  return { body: { physical_stores: inStock ? rows.slice(0, 2) : rows, has_more: false, rules: [], licence_registry: true } };
}

const lists = (calls: Call[]) => calls.filter((c) => c.path.endsWith("/list-physical-store/"));

describe("LocatorPage with a product", () => {
  it("keeps the product in the address: ?product= and &in_stock=1, refusing what the API could not take", () => {
    const url = (q: string) => parseLocatorUrl(new URLSearchParams(q));
    expect(url(`product=${mango.id}&in_stock=1`)).toMatchObject({ product: mango.id, inStock: true });
    expect(url("product=%20%20")).toMatchObject({ product: null });
    expect(url(`product=${"9".repeat(101)}`)).toMatchObject({ product: null });
    expect(url("product=a%00b")).toMatchObject({ product: null });
  });

  it("lists the stores that carry it with availability, price and age, and the law where it forbids it", async () => {
    const calls = stubApi({
      "GET /api/store/physical-store/list-physical-store/": listAnswer,
      [`GET /api/store/products/${mango.id}`]: { body: { product: { ...mango, fda_status: "pending" } } },
    });
    const user = userEvent.setup();
    renderAt(<LocatorPage />, `/?lat=40.7128&lon=-74.006&product=${mango.id}`);

    const list = await screen.findByRole("list", { name: "Stores" });
    expect(lists(calls)[0]!.query.get("product")).toBe(mango.id);
    expect(lists(calls)[0]!.query.has("in_stock")).toBe(false);
    await waitFor(() => expect(within(list).getAllByRole("listitem")[0]).toHaveTextContent("In stock$18.99 was $21.99updated 2 h ago"));
    const [first, second, third] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent(/^1\. Vapor Den/);
    expect(second).toHaveTextContent("Limited$22.50updated 2 h ago");
    expect(third).toHaveTextContent("Not sold here by law");
    expect(third).not.toHaveTextContent("In stock");
    expect(within(third!).getByRole("link", { name: rule.citation })).toHaveAttribute("href", rule.url);
    // The box and the bar name the product (fetched by id: the address carries only that).
    expect(await screen.findByText("Stores with", { exact: false })).toHaveTextContent(`Stores with ${mango.name}`);
    await waitFor(() => expect(screen.getAllByRole("combobox", { name: "Search for a product" })[0]).toHaveValue(mango.name));

    // In stock only: asked of the server.
    const bar = screen.getByRole("group", { name: "Product" });
    await user.click(within(bar).getByRole("button", { name: "In stock only" }));
    await waitFor(() => expect(lists(calls).at(-1)!.query.get("in_stock")).toBe("true"));
    expect(within(bar).getByRole("button", { name: "In stock only" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Stores" })).getAllByRole("listitem")).toHaveLength(2));

    // Clear product: the plain locator again, without rows for a product.
    await user.click(within(bar).getByRole("button", { name: "Clear product" }));
    await waitFor(() => expect(lists(calls).at(-1)!.query.has("product")).toBe(false));
    expect(lists(calls).at(-1)!.query.has("in_stock")).toBe(false);
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Stores" })).getAllByRole("listitem")).toHaveLength(3));
    expect(screen.queryByText(/In stock|Not sold here by law/)).not.toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Product" })).not.toBeInTheDocument();
  });
});
