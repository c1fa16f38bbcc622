import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { makeAdminProduct } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { fieldOfMessage, ProductsPanel } from "./ProductsPanel";

const mango = makeAdminProduct({ handle: "nimbus-bar-5000-mango-ice" });

describe("ProductsPanel", () => {
  it("searches, opens a product, shows a refused field under it, then saves only the changed fields", async () => {
    let saved: Record<string, unknown> = { ...mango };
    const calls = stubApi({
      "GET /api/admin/products": (call) => ({
        body: call.query.get("q") === "nimbus" ? { products: [saved], total: 1 } : { products: [saved, { ...mango, id: "kp-1", name: "Kestrel Pods" }], total: 2 },
      }),
      "GET /api/admin/products/nx-mango-5": () => ({ body: { product: saved } }),
      "PATCH /api/admin/products/nx-mango-5": (call) => {
        const patch = call.body as Record<string, unknown>;
        if (patch.nicotine === "50") return { status: 400, body: { message: 'nicotine "50" has no unit (mg/mL, % or mg/pouch)' } };
        saved = { ...saved, ...patch, updated_at: "2026-12-02T10:00:00Z" };
        return { body: { product: saved } };
      },
    });
    const user = userEvent.setup();
    renderAt(<ProductsPanel onUnauthorized={() => {}} />);
    expect(await screen.findByText("1–2 of 2 products")).toBeInTheDocument();

    await user.type(screen.getByRole("textbox", { name: "Name, brand or GTIN" }), "nimbus");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(await screen.findByText("1–1 of 1 product")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Edit Nimbus Bar 5000, Mango Ice" }));
    const form = await screen.findByRole("form", { name: "Edit Nimbus Bar 5000, Mango Ice" });
    const nicotine = within(form).getByRole("textbox", { name: "Nicotine strength" });
    expect(nicotine).toHaveValue("50 mg/mL");

    await user.clear(nicotine);
    await user.type(nicotine, "50");
    await user.click(within(form).getByRole("button", { name: "Save the product" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent('nicotine "50" has no unit');
    expect(nicotine).toHaveAttribute("aria-invalid", "true");

    await user.clear(nicotine);
    await user.type(nicotine, "20 mg/mL");
    const name = within(form).getByRole("textbox", { name: "Name" });
    await user.clear(name);
    await user.type(name, "Nimbus Bar 6000 Mango");
    await user.selectOptions(within(form).getByRole("combobox", { name: "FDA marketing order" }), "pending");
    await user.click(within(form).getByRole("button", { name: "Save the product" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Saved Nimbus Bar 6000 Mango.");
    const patches = calls.filter((c) => c.method === "PATCH").map((c) => c.body);
    expect(patches).toEqual([{ nicotine: "50" }, { nicotine: "20 mg/mL", name: "Nimbus Bar 6000 Mango", fda_status: "pending" }]);
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveValue("Nimbus Bar 6000 Mango");
  }, 30_000);

  it("says when nothing changed and shows a refusal that names no field above the button", async () => {
    stubApi({
      "GET /api/admin/products": { body: { products: [mango], total: 1 } },
      "GET /api/admin/products/nx-mango-5": { body: { product: mango } },
      "PATCH /api/admin/products/nx-mango-5": { status: 503, body: { message: "The database is busy" } },
    });
    const user = userEvent.setup();
    renderAt(<ProductsPanel onUnauthorized={() => {}} />);
    await user.click(await screen.findByRole("button", { name: "Edit Nimbus Bar 5000, Mango Ice" }));
    const form = await screen.findByRole("form", { name: "Edit Nimbus Bar 5000, Mango Ice" });
    await user.click(within(form).getByRole("button", { name: "Save the product" }));
    expect(within(form).getByText("Nothing changed.")).toBeInTheDocument();
    await user.click(within(form).getByRole("checkbox", { name: "CBD" }));
    await user.click(within(form).getByRole("button", { name: "Save the product" }));
    await waitFor(() => expect(within(form).getByRole("alert")).toHaveTextContent("Could not save the product: The database is busy"));
  }, 30_000);

  it("reads which field a message is about", () => {
    expect(fieldOfMessage('GTIN "1" has 1 digits')).toBe("gtin");
    expect(fieldOfMessage("is_zero_nic_applicable is true but nicotine is 3%")).toBe("is_zero_nic_applicable");
    expect(fieldOfMessage('id "x" belongs to another product')).toBe("id");
    expect(fieldOfMessage("name is empty")).toBe("name");
    expect(fieldOfMessage("The request body must be a JSON object")).toBeUndefined();
  });
});
