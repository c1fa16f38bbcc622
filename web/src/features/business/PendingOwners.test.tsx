import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage, BusinessConsentPage } from "./BusinessPage";
import { makeBusinessStore } from "./testing";

const account = { email: "owner@example.com", store_name: "Lone Star Vapes", email_verified: true };
const pending = { claim_id: 12, email: "mallory@example.com", since: "2026-11-20T10:00:00Z" };

describe("Consent before co-ownership", { timeout: 20_000 }, () => {
  it("lists a pending co-owner to the owner, who accepts it", async () => {
    const calls = stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore({ pending_owners: [pending] })] } },
      "POST /api/business/stores/5/pending-owners/12": {
        body: {
          store: makeBusinessStore({
            owners: [...makeBusinessStore().owners, { id: 7, email: "mallory@example.com", since: "2026-11-23T10:00:00Z", you: false, removable: true }],
          }),
        },
      },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={new Date("2026-11-23T12:00:00Z")} />, "/business");
    const section = await screen.findByRole("region", { name: "Waiting for your consent" });
    expect(section).toHaveTextContent("mallory@example.com · claim #12, approved Nov 20, 2026");
    await user.click(within(section).getByRole("button", { name: "Accept mallory@example.com" }));
    expect(await within(section).findByText("mallory@example.com can now change this store with you.")).toBeInTheDocument();
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Who can change this store" })).toHaveTextContent("mallory@example.com");
    const posts = sent(calls).filter((c) => c.method === "POST");
    expect(posts.map((c) => [c.path, c.body])).toEqual([["/api/business/stores/5/pending-owners/12", { decision: "accept" }]]);
  });

  it("tells the claimant its store waits for the owner's consent", async () => {
    stubApi({
      "GET /api/business/me": { body: { account: { ...account, email: "mallory@example.com" } } },
      "GET /api/business/stores": { body: { stores: [] } },
      "GET /api/business/waiting": {
        body: { waiting: [{ claim_id: 12, store_id: 5, name: "Lone Star Vapes", address: "100 Congress Ave", city: "Austin", postal_code: "78701", since: pending.since }] },
      },
    });
    renderAt(<BusinessPage />, "/business");
    const section = await screen.findByRole("region", { name: "Waiting for the owner's consent" });
    expect(section).toHaveTextContent("Lone Star Vapes");
    expect(section).toHaveTextContent("Your claim #12 was approved, but the store has an owner");
    expect(screen.queryByText(/No store yet/)).not.toBeInTheDocument();
  });

  it("shows the mailed link's request and decides only on a click", async () => {
    const request = {
      claim_id: 12, store_id: 5, store_name: "Lone Star Vapes", address: "100 Congress Ave", city: "Austin", postal_code: "78701",
      email: "mallory@example.com", since: pending.since, expires_at: "2026-11-27T10:00:00Z",
    };
    const calls = stubApi({
      "POST /api/business/consent/request": { body: { request } },
      "POST /api/business/consent": { body: { message: "mallory@example.com will not be able to change the store.", request } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessConsentPage />, "/business/consent?token=tok-123");
    expect(await screen.findByText(/A moderator approved claim #12 on your store/)).toHaveTextContent("Lone Star Vapes (100 Congress Ave, Austin 78701)");
    expect(sent(calls).map((c) => c.path)).toEqual(["/api/business/consent/request"]);
    await user.click(screen.getByRole("button", { name: "Decline" }));
    expect(await screen.findByRole("status")).toHaveTextContent("mallory@example.com will not be able to change the store.");
    expect(screen.queryByRole("button", { name: "Decline" })).not.toBeInTheDocument();
    expect(sent(calls).at(-1)).toMatchObject({ path: "/api/business/consent", body: { token: "tok-123", decision: "decline" } });
  });
});
