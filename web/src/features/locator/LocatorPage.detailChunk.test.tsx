import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeStore } from "../../test/fixtures";
import { renderAt } from "../../test/render";
import { stubStoreApi } from "../../test/storeApi";
import { LocatorPage } from "./LocatorPage";

vi.mock("./map/StoreMap", () => ({ default: () => null }));
vi.mock("./geolocation", () => ({ locateVisitor: () => Promise.resolve(null) }));
// The detail panel's chunk cannot be loaded (offline, a deploy replaced it).
vi.mock("./StoreDetail", () => {
  throw new Error("Failed to fetch dynamically imported module");
});

describe("LocatorPage when the detail panel's chunk fails", () => {
  it("says so instead of the panel and still goes back to the results", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined); // React reports the caught error
    const stores = Array.from({ length: 2 }, (_, i) => makeStore({ id: i + 1, distance: i }));
    stubStoreApi(stores);
    const user = userEvent.setup();

    renderAt(<LocatorPage />);

    await user.click(within(await screen.findByRole("list", { name: "Stores" })).getByRole("button", { name: /Store 1/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load the store's details");
    await user.click(screen.getByRole("button", { name: "Back to results" }));
    expect(within(await screen.findByRole("list", { name: "Stores" })).getAllByRole("listitem")).toHaveLength(2);
  });
});
