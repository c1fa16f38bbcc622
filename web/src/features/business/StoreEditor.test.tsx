import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { StoreEditor } from "./StoreEditor";
import { makeBusinessStore } from "./testing";

// The real map needs WebGL (e2e/business.spec.mjs drags the real pin); this stand-in "drags" it.
vi.mock("../../components/location/LocationPicker", () => ({
  default: ({ position, onChange }: { position: { latitude: number; longitude: number } | null; onChange: (at: { latitude: number; longitude: number }) => void }) => (
    <button type="button" onClick={() => onChange({ latitude: 30.2501234, longitude: -97.7509876 })}>
      Pin at {position ? `${position.latitude}, ${position.longitude}` : "nowhere"}
    </button>
  ),
}));

describe("StoreEditor: the store's pin", { timeout: 20_000 }, () => {
  it("starts at the store's position, moves with the map and sends the new position to a moderator", async () => {
    const store = makeBusinessStore();
    const proposed = { latitude: 30.250123, longitude: -97.750988 };
    const calls = stubApi({
      "PATCH /api/business/stores/5": {
        body: {
          message: "ok",
          store,
          change_request: {
            id: 1, store_id: 5, store_name: store.name, business_email: "owner@example.com", proposed,
            previous: { latitude: store.latitude, longitude: store.longitude }, status: "pending", reject_reason: "",
            created_at: "2026-11-23T10:00:00Z", decided_at: null, decided_by: "",
          },
        },
      },
    });
    const user = userEvent.setup();
    renderAt(<StoreEditor store={store} onSaved={() => {}} now={new Date("2026-11-23T12:00:00Z")} />, "/business");
    const form = screen.getByRole("form", { name: "Name, address and position" });
    const pin = await within(form).findByRole("button", { name: `Pin at ${store.latitude}, ${store.longitude}` });
    await user.click(pin);
    expect(within(form).getByLabelText("Latitude")).toHaveValue("30.250123");
    expect(within(form).getByLabelText("Longitude")).toHaveValue("-97.750988");
    await user.click(within(form).getByRole("button", { name: "Send to a moderator" }));
    const notice = await screen.findByText("Sent to a moderator. The new details are published once approved.");
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual(proposed);
    // Said right under the form that was sent, where the owner is, not at the top of the store (issue 39, m26).
    expect(notice.parentElement?.previousElementSibling).toBe(form);
    expect(screen.getAllByRole("status").filter((s) => s.textContent !== "")).toEqual([notice]);
  });

  it("follows typed coordinates, and says what is wrong with them", async () => {
    const store = makeBusinessStore();
    const calls = stubApi({});
    const user = userEvent.setup();
    renderAt(<StoreEditor store={store} onSaved={() => {}} now={new Date("2026-11-23T12:00:00Z")} />, "/business");
    const form = screen.getByRole("form", { name: "Name, address and position" });
    const latitude = within(form).getByLabelText("Latitude");
    await user.clear(latitude);
    await user.type(latitude, "30.5");
    expect(await within(form).findByRole("button", { name: `Pin at 30.5, ${store.longitude}` })).toBeInTheDocument();
    await user.clear(latitude);
    await user.type(latitude, "95");
    await user.click(within(form).getByRole("button", { name: "Send to a moderator" }));
    expect(within(form).getByRole("alert")).toHaveTextContent("Latitude must be between -90 and 90");
    expect(calls).toEqual([]);
  });
});
