import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useCallback, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { stubApi } from "../../../test/fetch";
import { makeProduct } from "../../../test/fixtures";
import { renderAt } from "../../../test/render";
import { BrandChooser, isProduct } from "./BrandChooser";

const menthol = { ...makeProduct({ id: "kp-menthol-5", gtin: "04000001000029", brand: "Kestrel", name: "Kestrel Pods Menthol" }), stores: 12 };
const classic = { ...makeProduct({ id: "kp-classic-5", gtin: "04000001000012", brand: "Kestrel", name: "Kestrel Pods Classic" }), stores: 3 };

/** The chooser as the widget holds it: the chosen product in the address, each choice recorded. */
function Widget({ initial = null, onChoose }: { initial?: string | null; onChoose: (id: string, replace: boolean) => void }) {
  const [product, setProduct] = useState<string | null>(initial);
  const choose = useCallback(
    (id: string, replace: boolean) => {
      onChoose(id, replace);
      setProduct(id);
    },
    [onChoose],
  );
  return (
    <>
      <BrandChooser brand="kestrel" partner="kestrel-co" productId={product} onChoose={choose} />
      <output aria-label="chosen">{product ?? "none"}</output>
    </>
  );
}

describe("BrandChooser", () => {
  it("offers the brand's products in the server's order, chooses the first at once, and changes the product in place", async () => {
    const calls = stubApi({ "GET /api/store/brand-products": { body: { brand: "Kestrel", products: [menthol, classic] } } });
    const onChoose = vi.fn();
    const user = userEvent.setup();
    renderAt(<Widget onChoose={onChoose} />);

    const select = await screen.findByRole("combobox", { name: "Kestrel product" });
    expect(Object.fromEntries(calls[0]!.query)).toEqual({ brand: "kestrel", partner: "kestrel-co" });
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Kestrel Pods Menthol", "Kestrel Pods Classic"]);
    // The first (the most carried) is chosen without a click, replacing the address entry.
    await waitFor(() => expect(screen.getByRole("status", { name: "chosen" })).toHaveTextContent("kp-menthol-5"));
    expect(onChoose).toHaveBeenCalledExactlyOnceWith("kp-menthol-5", true);
    expect(select).toHaveValue("kp-menthol-5");

    await user.selectOptions(select, "Kestrel Pods Classic");
    expect(onChoose).toHaveBeenLastCalledWith("kp-classic-5", false);
    expect(screen.getByRole("status", { name: "chosen" })).toHaveTextContent("kp-classic-5");
    expect(select).toHaveValue("kp-classic-5");
    expect(onChoose).toHaveBeenCalledTimes(2);
  });

  it("keeps a product of the brand given with it (by id or GTIN) and replaces one that is not the brand's", async () => {
    stubApi({ "GET /api/store/brand-products": { body: { brand: "Kestrel", products: [menthol, classic] } } });
    const kept = vi.fn();
    const { unmount } = renderAt(<Widget initial="4000001000012" onChoose={kept} />);
    expect(await screen.findByRole("combobox", { name: "Kestrel product" })).toHaveValue("kp-classic-5");
    expect(kept).not.toHaveBeenCalled();
    unmount();

    const replaced = vi.fn();
    renderAt(<Widget initial="nx-mango-5" onChoose={replaced} />);
    await waitFor(() => expect(replaced).toHaveBeenCalledExactlyOnceWith("kp-menthol-5", true));
  });

  it("says when the brand has no product, and when its products cannot be loaded", async () => {
    stubApi({ "GET /api/store/brand-products": { body: { brand: "kestrel", products: [] } } });
    const onChoose = vi.fn();
    const { unmount } = renderAt(<Widget onChoose={onChoose} />);
    expect(await screen.findByText("No product of kestrel is in the catalogue yet.")).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
    expect(screen.queryByRole("combobox")).toBeNull();
    unmount();

    stubApi({ "GET /api/store/brand-products": { status: 400, body: { message: "brand must be one of the partner's brands: Frostline" } } });
    renderAt(<Widget onChoose={onChoose} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load the products of kestrel: brand must be one of the partner's brands: Frostline");
  });

  it("matches a product by its id or any form of its GTIN", () => {
    expect(isProduct(classic, "kp-classic-5")).toBe(true);
    expect(isProduct(classic, "4000001000012")).toBe(true);
    expect(isProduct(classic, "04000001000012")).toBe(true);
    expect(isProduct(classic, "kp-menthol-5")).toBe(false);
    expect(isProduct({ ...classic, gtin: null }, "00000000")).toBe(false);
  });
});
