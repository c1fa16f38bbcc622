import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { makeAdminProduct } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { businessAccount, makeBusinessStore } from "./testing";

const mango = makeAdminProduct();
const rule = { id: "ny-flavoured-vapes", summary: "Flavoured vapes may not be sold", citation: "NY Public Health Law 1399-mm-1", url: "https://example.com", checked_on: "2026-11-01" };
const row = (over: object) => ({ product: mango, availability: "in_stock", quantity: 6, price: "21.99 USD", sale_price: null, pickup_method: "", pickup_sla: "", reported_at: "2026-12-03T10:00:00Z", lawful: true, rule: null, ...over });

describe("Stock in the store dashboard", { timeout: 20_000 }, () => {
  it("finds a product by barcode, marks it carried, sets it out of stock and removes it", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    let items: object[] = [];
    const calls = stubApi({
      "GET /api/business/me": { body: { account: businessAccount } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
      "GET /api/business/stores/5/stock": () => ({ body: { items } }),
      "GET /api/business/products": { body: { products: [mango], total: 1 } },
      "PUT /api/business/stores/5/stock/nx-mango-5": (call) => {
        const body = call.body as { availability: string; quantity: number | null; price: string | null };
        items = [row(body)];
        return { body: { item: items[0] } };
      },
      "DELETE /api/business/stores/5/stock/nx-mango-5": () => {
        items = [];
        return { body: { message: "The store no longer carries this product." } };
      },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={new Date("2026-12-03T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Stock" });
    expect(await within(section).findByText(/No product listed yet/)).toBeInTheDocument();
    await user.type(within(section).getByLabelText("Find a product"), "840000100016");
    await user.click(within(section).getByRole("button", { name: "Find" }));
    await user.click(await within(section).findByRole("button", { name: /Nimbus Bar 5000, Mango Ice/ }));
    const form = within(section).getByRole("form", { name: "Carry Nimbus Bar 5000, Mango Ice" });
    await user.type(within(form).getByLabelText("Quantity (optional)"), "6");
    await user.type(within(form).getByLabelText("Price in USD (optional)"), "21.99");
    await user.click(within(form).getByRole("button", { name: "Mark carried" }));
    const list = await within(section).findByRole("list", { name: "Products this store carries" });
    expect(list).toHaveTextContent("Nimbus · 6 in store · 21.99 USD");
    await user.selectOptions(within(list).getByLabelText("Availability of Nimbus Bar 5000, Mango Ice"), "out_of_stock");
    expect(await within(section).findByText("Nimbus Bar 5000, Mango Ice: out of stock.")).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Remove Nimbus Bar 5000, Mango Ice" }));
    expect(await within(section).findByText(/No product listed yet/)).toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method === "PUT" || c.method === "DELETE")).toEqual([
      { method: "PUT", path: "/api/business/stores/5/stock/nx-mango-5", body: { availability: "in_stock", quantity: 6, price: "21.99 USD" }, credentials: "include" },
      { method: "PUT", path: "/api/business/stores/5/stock/nx-mango-5", body: { availability: "out_of_stock", quantity: 0, price: "21.99 USD" }, credentials: "include" },
      { method: "DELETE", path: "/api/business/stores/5/stock/nx-mango-5", body: undefined, credentials: "include" },
    ]);
    expect(calls.find((c) => c.path === "/api/business/products")?.query.get("q")).toBe("840000100016");
  });

  it("shows a row the law forbids as not sold here, with the citation", async () => {
    stubApi({
      "GET /api/business/me": { body: { account: businessAccount } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
      "GET /api/business/stores/5/stock": { body: { items: [row({ lawful: false, rule })] } },
    });
    renderAt(<BusinessPage now={new Date("2026-12-03T12:00:00Z")} />, "/business");
    const item = await screen.findByRole("listitem", { name: "Nimbus Bar 5000, Mango Ice" });
    expect(item).toHaveTextContent("Not sold here by law: Flavoured vapes may not be sold (NY Public Health Law 1399-mm-1).");
  });
});
