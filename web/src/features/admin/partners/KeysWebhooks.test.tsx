import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { stubApi } from "../../../test/fetch";
import { makePartner } from "../../../test/fixtures";
import { renderAt } from "../../../test/render";
import type { APIKey, Webhook } from "./api";
import { KeysSection } from "./KeysSection";
import { WebhooksSection } from "./WebhooksSection";

const acme = makePartner();
const SECRET = "lpar_Zq3v8Jc1mN7tR2xW5yB9kL4hD6fG0sA1pE8uI3oQ2wT";
const HOOK_SECRET = "whsec_0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978";
const base = `/api/admin/partners/${acme.id}`;

describe("KeysSection", () => {
  it("makes a key and shows it this once, lists it by prefix, and revokes it", async () => {
    let keys: APIKey[] = [];
    const calls = stubApi({
      [`GET ${base}/keys`]: () => ({ body: { keys, max_active: 10, per_minute: 60 } }),
      [`POST ${base}/keys`]: (call) => {
        const made: APIKey = { id: 7, name: (call.body as { name: string }).name, prefix: "lpar_Zq3v", created_at: "2026-12-03T10:00:00Z", last_used_at: null, revoked_at: null };
        keys = [made];
        return { status: 201, body: { key: made, secret: SECRET } };
      },
      [`DELETE ${base}/keys/7`]: () => {
        keys = [{ ...keys[0]!, revoked_at: "2026-12-03T11:00:00Z" }];
        return { body: { key: keys[0] } };
      },
    });
    const user = userEvent.setup();
    renderAt(<KeysSection partner={acme} />, "/admin");
    const section = screen.getByRole("region", { name: "API keys of Acme Vapes" });
    expect(await within(section).findByText("No keys.")).toBeInTheDocument();

    await user.type(within(section).getByLabelText("Key name"), "Store finder");
    await user.click(within(section).getByRole("button", { name: "Make a key" }));
    expect(await within(section).findByRole("status")).toHaveTextContent(`The new key, shown this once: ${SECRET}`);
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Store finder" });
    const row = await within(section).findByRole("listitem");
    expect(row).toHaveTextContent("lpar_Zq3v… Store finder");
    expect(row).not.toHaveTextContent(SECRET);
    expect(within(section).getByLabelText("Key name")).toHaveValue("");

    await user.click(within(row).getByRole("button", { name: "Revoke Store finder" }));
    expect(await within(section).findByText("revoked")).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: /Revoke/ })).toBeNull();
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual([`${base}/keys/7`]);
  });

  it("says why a key could not be made, and shows no key", async () => {
    stubApi({
      [`GET ${base}/keys`]: { body: { keys: [], max_active: 10, per_minute: 60 } },
      [`POST ${base}/keys`]: { status: 409, body: { message: "Acme Vapes is disabled: its keys would open nothing." } },
    });
    const user = userEvent.setup();
    renderAt(<KeysSection partner={acme} />, "/admin");
    await user.type(screen.getByLabelText("Key name"), "Till");
    await user.click(screen.getByRole("button", { name: "Make a key" }));
    expect(await screen.findByText("Could not make the key: Acme Vapes is disabled: its keys would open nothing.")).toBeInTheDocument();
    expect(screen.queryByRole("status")).toBeNull();
  });
});

describe("WebhooksSection", () => {
  const hook: Webhook = {
    id: 3,
    url: "https://hooks.acme.example/locator",
    events: ["review.published", "stock.changed"],
    created_at: "2026-12-03T10:00:00Z",
    disabled: false,
    last_status: "",
    last_at: null,
    deliveries: [],
  };

  it("shows the receiver's refusal of a URL under the form, then registers a good one with its secret shown once, and removes it", async () => {
    let webhooks: Webhook[] = [];
    const sent: unknown[] = [];
    stubApi({
      [`GET ${base}/webhooks`]: () => ({ body: { webhooks } }),
      [`POST ${base}/webhooks`]: (call) => {
        const body = call.body as { url: string; events: string[] };
        sent.push(body);
        if (!body.url.startsWith("https://")) return { status: 400, body: { message: "url: a receiver's URL must start with https://." } };
        webhooks = [{ ...hook, url: body.url, events: body.events as Webhook["events"] }];
        return { status: 201, body: { webhook: webhooks[0], secret: HOOK_SECRET } };
      },
      [`DELETE ${base}/webhooks/3`]: () => {
        webhooks = [{ ...webhooks[0]!, disabled: true }];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderAt(<WebhooksSection partner={acme} />, "/admin");
    const section = screen.getByRole("region", { name: "Webhooks of Acme Vapes" });
    expect(await within(section).findByText("No webhooks.")).toBeInTheDocument();
    const url = within(section).getByLabelText(/Receiver URL/);
    expect(url).toHaveAccessibleDescription("https only, on a public address");

    await user.type(url, "http://hooks.acme.example/locator");
    await user.click(within(section).getByRole("checkbox", { name: "stock.changed" }));
    await user.click(within(section).getByRole("checkbox", { name: "review.published" }));
    await user.click(within(section).getByRole("button", { name: "Register the webhook" }));
    expect(await within(section).findByText("Could not register the webhook: url: a receiver's URL must start with https://.")).toBeInTheDocument();
    expect(within(section).queryByRole("status")).toBeNull();
    // What was typed and chosen stays, to be corrected.
    expect(url).toHaveValue("http://hooks.acme.example/locator");
    expect(within(section).getByRole("checkbox", { name: "stock.changed" })).toBeChecked();

    await user.clear(url);
    await user.type(url, "https://hooks.acme.example/locator");
    await user.click(within(section).getByRole("button", { name: "Register the webhook" }));
    expect(await within(section).findByRole("status")).toHaveTextContent(`The signing secret, shown this once: ${HOOK_SECRET}`);
    expect(sent.at(-1)).toEqual({ url: "https://hooks.acme.example/locator", events: ["stock.changed", "review.published"] });
    expect(within(section).queryByText(/Could not register/)).toBeNull();
    const item = await within(section).findByText("https://hooks.acme.example/locator", { selector: "p" });
    const row = item.closest("li")!;
    expect(row).toHaveTextContent("stock.changed, review.published · last: nothing sent yet");
    expect(row).not.toHaveTextContent(HOOK_SECRET);
    expect(url).toHaveValue("");
    expect(within(section).getByRole("checkbox", { name: "stock.changed" })).not.toBeChecked();

    await user.click(within(row).getByRole("button", { name: "Remove https://hooks.acme.example/locator" }));
    expect(await within(section).findByText(/ · removed$/)).toBeInTheDocument();
    expect(within(section).queryByRole("button", { name: /^Remove/ })).toBeNull();
  });

  it("shows each webhook's last status and recent deliveries", async () => {
    stubApi({
      [`GET ${base}/webhooks`]: {
        body: {
          webhooks: [
            {
              ...hook,
              last_status: "failed: 500",
              last_at: "2026-12-03T12:00:00Z",
              deliveries: [
                { id: 41, type: "stock.changed", created_at: "2026-12-02T12:00:00Z", attempts: 30, next_attempt_at: null, delivered_at: null, failed_at: "2026-12-03T12:00:00Z", last_status: "500" },
                { id: 40, type: "review.published", created_at: "2026-12-02T11:00:00Z", attempts: 1, next_attempt_at: null, delivered_at: "2026-12-02T11:00:01Z", failed_at: null, last_status: "200" },
              ],
            },
          ],
        },
      },
    });
    renderAt(<WebhooksSection partner={acme} />, "/admin");
    expect(await screen.findByText("review.published, stock.changed · last: failed: 500")).toBeInTheDocument();
    const deliveries = within(screen.getByRole("list", { name: "Recent deliveries" })).getAllByRole("listitem");
    expect(deliveries.map((d) => d.textContent)).toEqual([
      "whd_41 stock.changed: failed after 30 attempts (500)",
      "whd_40 review.published: delivered after 1 attempt (200)",
    ]);
  });
});
