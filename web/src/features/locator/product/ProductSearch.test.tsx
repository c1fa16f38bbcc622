import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { stubApi } from "../../../test/fetch";
import { makeProduct } from "../../../test/fixtures";
import { renderAt } from "../../../test/render";
import { ProductSearch } from "./ProductSearch";
import type { ProductSummary } from "./types";

const mango = makeProduct();
const grape = makeProduct({ id: "demo-zephyrine-bar-6000-grape", gtin: "00840000100023", name: "Zephyrine Bar 6000 Grape", handle: null });

/** The box as the locator holds it: the chosen product's id in the address. */
function Box({ initial = null, onChoose = vi.fn() }: { initial?: string | null; onChoose?: (p: ProductSummary) => void }) {
  const [id, setId] = useState<string | null>(initial);
  return (
    <>
      <ProductSearch
        productId={id}
        onChoose={(p) => {
          onChoose(p);
          setId(p.id);
        }}
        onClear={() => setId(null)}
      />
      <output aria-label="chosen">{id ?? "none"}</output>
    </>
  );
}

describe("ProductSearch", () => {
  it("suggests products for what is typed, once typing pauses, and is chosen from the keyboard", async () => {
    const calls = stubApi({ "GET /api/store/products/suggest": { body: { products: [mango, grape] } } });
    const onChoose = vi.fn();
    const user = userEvent.setup();
    renderAt(<Box onChoose={onChoose} />);

    const box = screen.getByRole("combobox", { name: "Search for a product" });
    expect(box).toHaveAttribute("placeholder", "Search product, brand or GTIN");
    await user.type(box, "zephy");
    expect(await screen.findByRole("option", { name: /Zephyrine Bar 6000 Grape/ })).toBeInTheDocument();
    // Asked for the text as it stood when typing paused (never for a single letter).
    const suggests = calls.filter((c) => c.path === "/api/store/products/suggest");
    expect(Object.fromEntries(suggests.at(-1)!.query)).toEqual({ q: "zephy", limit: "8" });
    expect(suggests.every((c) => c.query.get("q")!.length >= 2)).toBe(true);
    expect(screen.getByRole("option", { name: /Zephyrine Bar 6000 Mango Ice/ })).toHaveTextContent("Zephyrine · Disposable · 50 mg/mL");

    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(box).toHaveAttribute("aria-activedescendant", screen.getByRole("option", { name: /Grape/ }).id);
    await user.keyboard("{Enter}");
    expect(onChoose).toHaveBeenCalledWith(grape);
    expect(screen.getByRole("status", { name: "chosen" })).toHaveTextContent(grape.id);
    expect(box).toHaveValue(grape.name);
    expect(box).toHaveAttribute("aria-expanded", "false");
  });

  it("takes the best suggestion on Enter without waiting, and says when nothing matches", async () => {
    stubApi({
      "GET /api/store/products/suggest": (call) => ({ body: { products: call.query.get("q") === "840000100016" ? [mango] : [] } }),
    });
    const user = userEvent.setup();
    renderAt(<Box />);
    const box = screen.getByRole("combobox", { name: "Search for a product" });
    await user.type(box, "840000100016{Enter}");
    await waitFor(() => expect(screen.getByRole("status", { name: "chosen" })).toHaveTextContent(mango.id));

    await user.click(screen.getByRole("button", { name: "Clear the product" }));
    expect(screen.getByRole("status", { name: "chosen" })).toHaveTextContent("none");
    expect(box).toHaveValue("");
    await user.type(box, "qwxz{Enter}");
    expect(await screen.findByText("No products found")).toBeInTheDocument();
  });

  it("shows the product of a shared link by its name, fetched by id", async () => {
    const calls = stubApi({ [`GET /api/store/products/${mango.id}`]: { body: { product: { ...mango, fda_status: "pending" } } } });
    renderAt(<Box initial={mango.id} />);
    const box = screen.getByRole("combobox", { name: "Search for a product" });
    await waitFor(() => expect(box).toHaveValue(mango.name));
    expect(calls.map((c) => c.path)).toEqual([`/api/store/products/${mango.id}`]);
  });
});
