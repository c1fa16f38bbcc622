import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { LicencesPanel } from "./LicencesPanel";

const row = {
  row_id: 11,
  source: "nyc-dcwp",
  number: "2091500",
  name: "WATER STREET GROCERY CORP",
  address: "300 WATER STREET",
  city: "NEW YORK",
  state: "NY",
  postal_code: "10038",
  kind: "NYC Tobacco Retail Dealer",
  status: "active",
  latitude: 40.7078,
  longitude: -74.0015,
};
const sources = [
  { source: "nyc-dcwp", title: "NYC", file_date: "2026-11-24", rows: 5, errors: 5, matched: 3, ambiguous: 1, unmatched: 1 },
  { source: "fda-compliance-checks", title: "FDA", file_date: "", rows: 0, errors: 0, matched: 0, ambiguous: 0, unmatched: 0 },
];

describe("LicencesPanel", () => {
  it("shows the registries, decides a doubtful match, picks another store and creates a store from a row", async () => {
    let waiting = true;
    const calls = stubApi({
      "GET /api/admin/licences": { body: { sources } },
      "GET /api/admin/licences/matches": () => ({
        body: {
          matches: waiting
            ? [{ ...row, match_id: 5, confidence: 0.7, store_id: 4, store_name: "Harbor Deli", store_address: "300 Water St", store_postal_code: "10038" }]
            : [],
        },
      }),
      "POST /api/admin/licences/matches/5": () => {
        waiting = false;
        return { body: { message: "Decision recorded" } };
      },
      "POST /api/admin/licences/rows/11/store": { body: { message: "Match recorded" } },
      "GET /api/admin/licences/unmatched": { body: { rows: [{ ...row, row_id: 12, name: "ORCHARD VAPES", number: "2091600" }] } },
      "POST /api/admin/licences/rows/12/new-store": { status: 201, body: { store_id: 99 } },
    });
    const user = userEvent.setup();
    renderAt(<LicencesPanel onUnauthorized={() => {}} />);
    expect(await screen.findByRole("rowheader", { name: "nyc-dcwp" })).toBeInTheDocument();
    expect(screen.getByText("never imported")).toBeInTheDocument();
    expect(await screen.findByText(/Store 4: Harbor Deli, 300 Water St 10038 · confidence 0.70/)).toBeInTheDocument();

    await user.type(screen.getByRole("textbox", { name: "Another store's id" }), "7");
    await user.click(screen.getByRole("button", { name: "Pick this store" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/api/admin/licences/rows/11/store")?.body).toEqual({ store_id: 7 }));

    await user.click(screen.getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/api/admin/licences/matches/5")?.body).toEqual({ decision: "accept" }));
    expect(await screen.findByText("No match waits for a decision.")).toBeInTheDocument();

    await user.type(screen.getByRole("textbox", { name: "Latitude" }), "40.7167");
    await user.type(screen.getByRole("textbox", { name: "Longitude" }), "-73.99");
    await user.click(screen.getByRole("button", { name: "Find within 10 miles" }));
    await user.click(await screen.findByRole("button", { name: "Create unpublished store" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Unpublished store 99 created");
    const find = calls.find((c) => c.path === "/api/admin/licences/unmatched");
    expect(find?.query.get("latitude")).toBe("40.7167");
  }, 30_000);
});
