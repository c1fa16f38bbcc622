import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { MedusaPanel } from "./MedusaPanel";

const midtown = {
  id: "sloc_01NYC",
  name: "Empire Vapes Midtown",
  address: "350 5th Ave",
  city: "New York",
  province: "NY",
  postal_code: "10118",
  country_code: "US",
  store: null,
  mapped_by: "",
  seen_at: "2026-12-03T10:00:00Z",
  stock_at: null,
  gone_at: null,
};
const store = { id: 42, name: "Empire Vapes", address: "350 Fifth Avenue", city: "New York", postal_code: "10118" };
const sync = {
  source: "http://medusa.example",
  cursor: "2026-12-03T09:00:00.000Z",
  next_at: null,
  failures: 2,
  last_error: "medusa answered 503",
  last_ok_at: null,
  last_run_at: "2026-12-03T10:00:00Z",
  last_withdrawn: 1,
  last_products_removed: 1,
  last_stock_removed: 3,
  last_locations_gone: 0,
};

describe("MedusaPanel", () => {
  it("shows the sync's failures, proposes the store at the same address, maps the location to it and unmaps it", async () => {
    let mapped: typeof store | null = null;
    const calls = stubApi({
      "GET /api/admin/medusa/locations": () => ({ body: { locations: [{ ...midtown, store: mapped }], sync } }),
      "GET /api/admin/medusa/locations/sloc_01NYC/proposals": {
        body: {
          proposals: [
            { store, same_address: true, name_match: 1, distance_km: 0.1 },
            { store: { ...store, id: 7, name: "Midtown Smoke", address: "1 W 34th St" }, same_address: false, name_match: 0, distance_km: 0.4 },
          ],
        },
      },
      "PUT /api/admin/medusa/locations/sloc_01NYC/store": (call) => {
        const id = (call.body as { store_id: number | null }).store_id;
        mapped = id === 42 ? store : null;
        return { body: { location: { ...midtown, store: mapped } } };
      },
    });
    const user = userEvent.setup();
    renderAt(<MedusaPanel onUnauthorized={() => {}} />);
    expect(await screen.findByText("2 failures in a row: medusa answered 503")).toBeInTheDocument();
    expect(screen.getByText("Not mapped to a store")).toBeInTheDocument();
    expect(screen.getByText(/Deletions the last run applied/)).toHaveTextContent(
      "Deletions the last run applied: 1 variant withdrawn (1 product removed from the catalogue), 0 stock locations gone, 3 stock rows removed.",
    );
    expect(screen.queryByText("Deleted in Medusa")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Choose a store" }));
    const proposed = await screen.findByRole("list", { name: "Stores proposed for Empire Vapes Midtown" });
    expect(within(proposed).getAllByRole("listitem")[0]).toHaveTextContent("same address");
    await user.click(within(proposed).getByRole("button", { name: "Map to Empire Vapes (store #42)" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Empire Vapes Midtown is mapped to Empire Vapes (store #42).");
    expect(await screen.findByText(/Mapped to/)).toHaveTextContent("Mapped to Empire Vapes (store #42, 350 Fifth Avenue)");

    await user.click(screen.getByRole("button", { name: "Unmap" }));
    expect(await screen.findByText("Not mapped to a store")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.body)).toEqual([{ store_id: 42 }, { store_id: null }]);
  }, 30_000);

  it("maps by a typed store number and shows a refusal", async () => {
    stubApi({
      "GET /api/admin/medusa/locations": { body: { locations: [midtown], sync: null } },
      "GET /api/admin/medusa/locations/sloc_01NYC/proposals": { body: { proposals: [] } },
      "PUT /api/admin/medusa/locations/sloc_01NYC/store": { status: 409, body: { message: "store 9 is already mapped to location sloc_01BOS" } },
    });
    const user = userEvent.setup();
    renderAt(<MedusaPanel onUnauthorized={() => {}} />);
    expect(await screen.findByText(/No Medusa server is set here/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Choose a store" }));
    expect(await screen.findByText(/No store near this address/)).toBeInTheDocument();
    await user.type(screen.getByRole("textbox", { name: "Or a store's number" }), "9");
    await user.click(screen.getByRole("button", { name: "Map to store #9" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("store 9 is already mapped to location sloc_01BOS");
  }, 30_000);

  it("flags a location deleted in Medusa", async () => {
    stubApi({
      "GET /api/admin/medusa/locations": {
        body: { locations: [{ ...midtown, store, gone_at: "2026-12-03T11:00:00Z" }], sync: { ...sync, failures: 0, last_locations_gone: 1 } },
      },
    });
    renderAt(<MedusaPanel onUnauthorized={() => {}} />);
    expect(await screen.findByText("Deleted in Medusa")).toBeInTheDocument();
    expect(screen.getByText(/the stock it gave its store was removed/)).toBeInTheDocument();
    expect(screen.getByText(/1 stock location gone/)).toBeInTheDocument();
  }, 30_000);
});
