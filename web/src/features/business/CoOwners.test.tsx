import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { makeBusinessStore } from "./testing";

const account = { email: "owner@example.com", store_name: "Lone Star Vapes", email_verified: true };
const me = { id: 1, email: "owner@example.com", since: "2026-11-01T10:00:00Z", you: true, removable: false };
const newcomer = { id: 7, email: "mallory@example.com", since: "2026-11-20T10:00:00Z", you: false, removable: true };

describe("Co-owners in the store dashboard", { timeout: 20_000 }, () => {
  it("lists every account that can change the store and removes one added later", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    const calls = stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore({ owners: [me, newcomer] })] } },
      "DELETE /api/business/stores/5/owners/7": { body: { store: makeBusinessStore({ owners: [me] }) } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={new Date("2026-11-23T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Who can change this store" });
    expect(section).toHaveTextContent("owner@example.com (you) · since Nov 1, 2026");
    expect(section).toHaveTextContent("mallory@example.com · since Nov 20, 2026");
    expect(within(section).queryByRole("button", { name: "Remove owner@example.com" })).not.toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Remove mallory@example.com" }));
    expect(await within(section).findByText("mallory@example.com can no longer change this store.")).toBeInTheDocument();
    expect(within(section).queryByText(/mallory@example.com ·/)).not.toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/api/business/stores/5/owners/7"]);
  });

  it("shows no remove button for an owner linked before this account", async () => {
    stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": {
        body: { stores: [makeBusinessStore({ owners: [{ ...newcomer, email: "first@example.com", removable: false }, { ...me, since: "2026-11-21T10:00:00Z" }] })] },
      },
    });
    renderAt(<BusinessPage now={new Date("2026-11-23T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Who can change this store" });
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
    expect(section).toHaveTextContent("If an account you do not know was added before yours, ask a moderator.");
  });
});
