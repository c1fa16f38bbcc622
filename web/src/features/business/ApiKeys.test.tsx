import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage } from "./BusinessPage";
import { businessAccount, makeBusinessStore } from "./testing";

const secret = "lpos_AbC123xyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxyz";
const till = { id: 3, name: "Front till", prefix: "lpos_AbC123", created_at: "2026-12-03T09:00:00Z", last_used_at: null, revoked_at: null };

function stubKeys(initial: (typeof till)[]) {
  let keys = initial;
  return stubApi({
    "GET /api/business/me": { body: { account: businessAccount } },
    "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
    "GET /api/business/api-keys": () => ({ body: { keys, max_active: 10, per_minute: 60 } }),
    "POST /api/business/api-keys": () => {
      keys = [till, ...keys];
      return { status: 201, body: { key: till, secret } };
    },
    "DELETE /api/business/api-keys/3": () => {
      const revoked = { ...till, revoked_at: "2026-12-03T10:00:00Z" } as unknown as typeof till;
      keys = [revoked];
      return { body: { key: revoked } };
    },
  });
}

describe("Point-of-sale API keys in the store dashboard", { timeout: 20_000 }, () => {
  it("creates a key shown once, lists it without the secret and revokes it", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    const calls = stubKeys([]);
    const user = userEvent.setup();
    renderAt(<BusinessPage now={new Date("2026-12-03T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Point-of-sale API keys" });
    expect(await within(section).findByText(/at most 60 calls a minute/)).toBeInTheDocument();
    const create = within(section).getByRole("button", { name: "Create key" });
    expect(create).toBeDisabled();
    await user.type(within(section).getByLabelText("Key name"), "Front till");
    await user.click(create);
    const shown = await within(section).findByLabelText("Your new key “Front till”");
    expect(shown).toHaveValue(secret);
    expect(shown).toHaveAttribute("readonly");
    const list = await within(section).findByRole("list", { name: "Your keys" });
    expect(list).toHaveTextContent("Front till lpos_AbC123…");
    expect(list).toHaveTextContent("never used");
    expect(list).not.toHaveTextContent(secret);
    await user.click(within(section).getByRole("button", { name: "Done" }));
    expect(within(section).queryByDisplayValue(secret)).not.toBeInTheDocument();
    await user.click(within(list).getByRole("button", { name: "Revoke Front till" }));
    expect(await within(section).findByText("“Front till” is revoked.")).toBeInTheDocument();
    expect(await within(section).findByText(/revoked Dec 3, 2026/)).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: "Revoke Front till" })).not.toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method !== "GET")).toEqual([
      { method: "POST", path: "/api/business/api-keys", body: { name: "Front till" }, credentials: "include" },
      { method: "DELETE", path: "/api/business/api-keys/3", body: undefined, credentials: "include" },
    ]);
  });

  it("is hidden where the server keeps no keys", async () => {
    stubApi({
      "GET /api/business/me": { body: { account: businessAccount } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
    });
    renderAt(<BusinessPage now={new Date("2026-12-03T12:00:00Z")} />, "/business");
    await screen.findByRole("region", { name: "Who can change this store" });
    await vi.waitFor(() => expect(screen.queryByRole("region", { name: "Point-of-sale API keys" })).not.toBeInTheDocument());
  });
});
