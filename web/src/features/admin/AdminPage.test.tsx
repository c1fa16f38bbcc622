import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render";
import { AdminPage } from "./AdminPage";
import { REASON_REQUIRED } from "./messages";
import type { Claim } from "./types";

// The real map needs WebGL (the end-to-end run covers it); this stand-in "drags" the marker.
vi.mock("../../components/location/LocationPicker", () => ({
  default: ({ onChange }: { onChange: (at: { latitude: number; longitude: number }) => void }) => (
    <button type="button" onClick={() => onChange({ latitude: 40.5, longitude: -73.9 })}>
      Drag the marker
    </button>
  ),
}));

function makeClaim(overrides: Partial<Claim> = {}): Claim {
  return {
    id: 1,
    business_name: "Corner Books",
    email: "owner@example.com",
    phone: "+1 212 555 0100",
    country: "United States",
    state: "NY",
    address1: "1 Main St",
    city: "New York",
    postal_code: "10001",
    website: "https://corner.example",
    working_hours: "Mon-Fri 9am-5pm",
    category: "Books",
    status: "pending",
    reject_reason: "",
    duplicate_of_store_id: null,
    store_id: null,
    created_at: "2025-01-02T10:00:00Z",
    decided_at: null,
    decided_by: "",
    consent: "",
    suggested_location: { latitude: 40.7506, longitude: -73.9972, precision: "address", precision_text: "street address", approximate: false },
    pin_latitude: null,
    pin_longitude: null,
    pin_source: "",
    zip_centre: null,
    pin_distance_km: null,
    working_hours_parsed: true,
    existing_store: null,
    working_hours_notes: [],
    waiting_for_email: false,
    licence_number: "",
    licence_verified: null,
    delivery_hours: "",
    curbside_pickup_hours: "",
    online_order_hours: "",
    service_hours_read: [],
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
}

/** A fake API: `routes` maps "METHOD /path" to an answer; every request is recorded. */
function stubApi(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const text = await request.text();
      const call: Call = { method: request.method, path: url.pathname, search: url.searchParams, body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      const route = routes[`${request.method} ${url.pathname}`];
      return route ? route(call) : json({ message: `no stub for ${request.method} ${url.pathname}` }, 404);
    }),
  );
  return calls;
}

const signedIn = {
  "GET /api/admin/me": () => json({ moderator: { email: "mod@example.com" } }),
  "GET /api/admin/change-requests": () => json({ change_requests: [] }),
};

// Generous: user-event typing is slow on a loaded 2-core machine.
describe("AdminPage", { timeout: 20_000 }, () => {
  it("shows the server's message when sign-in fails", async () => {
    const calls = stubApi({
      "GET /api/admin/me": () => json({ message: "Sign in as a moderator" }, 401),
      "POST /api/admin/auth": () => json({ message: "Invalid email or password" }, 401),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");

    await user.type(await screen.findByLabelText("Email"), "mod@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Could not sign in: Invalid email or password");
    expect(screen.getByRole("link", { name: "Store Locator" })).toHaveAttribute("href", "/");
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ email: "mod@example.com", password: "wrong password" });
  });

  it("signs in, lists the pending claims and filters by status", async () => {
    let me = 401;
    const calls = stubApi({
      "GET /api/admin/me": () => (me === 200 ? json({ moderator: { email: "mod@example.com" } }) : json({ message: "no" }, 401)),
      "POST /api/admin/auth": () => {
        me = 200;
        return json({ moderator: { email: "mod@example.com" } });
      },
      "GET /api/admin/claims": ({ search }) =>
        search.get("status") === "rejected"
          ? json({ claims: [makeClaim({ id: 9, business_name: "Gone Shop", status: "rejected", reject_reason: "Closed" })] })
          : json({ claims: [makeClaim(), makeClaim({ id: 2, business_name: "Twin Books", duplicate_of_store_id: 17 })] }),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");

    await user.type(await screen.findByLabelText("Email"), "mod@example.com");
    await user.type(screen.getByLabelText("Password"), "a long password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const list = await screen.findByRole("list", { name: "Claims" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Corner Books");
    expect(items[0]).toHaveTextContent("New York, NY, United States");
    expect(items[1]).toHaveTextContent("Twin Books");
    expect(items[1]).toHaveTextContent("Possible duplicate");
    expect(screen.getByText("Signed in as mod@example.com")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/admin/claims")?.search.get("status")).toBe("pending");

    await user.click(screen.getByRole("button", { name: "Rejected" }));
    expect(await screen.findByText("Gone Shop")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rejected" })).toHaveAttribute("aria-pressed", "true");
    expect(calls.at(-1)?.search.get("status")).toBe("rejected");
  });

  it("shows a claim's details with the look-alike warning and approves at the moved marker", async () => {
    const claim = makeClaim({ duplicate_of_store_id: 17, working_hours_parsed: false, working_hours: "whenever" });
    let pending = true;
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: pending ? [claim] : [] }),
      "GET /api/admin/claims/1": () => json(pending ? claim : { ...claim, status: "approved", store_id: 501 }),
      "POST /api/admin/claims/1/approve": () => {
        pending = false;
        return json({ ...claim, status: "approved", store_id: 501, decided_at: "2025-01-03T10:00:00Z", decided_by: "mod@example.com" });
      },
    });
    const user = userEvent.setup();
    const { container } = renderAt(<AdminPage />, "/admin");

    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    const heading = await screen.findByRole("heading", { level: 2, name: "Corner Books" });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(/a published store has the same name and postal code/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "store #17" })).toHaveAttribute("href", "/?store=17");
    expect(screen.getByText("No: could not be read as weekly hours")).toBeInTheDocument();
    expect(screen.getByLabelText("Latitude")).toHaveValue("40.750600");
    expect(screen.getByLabelText("Longitude")).toHaveValue("-73.997200");

    const results = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);

    await user.click(await screen.findByRole("button", { name: "Drag the marker" }));
    expect(screen.getByLabelText("Latitude")).toHaveValue("40.500000");
    expect(screen.getByLabelText("Longitude")).toHaveValue("-73.900000");
    await user.click(screen.getByRole("button", { name: "Approve" }));

    expect(await screen.findByText("Approved claim #1: Corner Books is published as store #501.")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/admin/claims/1/approve")?.body).toEqual({ latitude: 40.5, longitude: -73.9 });
    expect(await screen.findByText("No pending claims.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Store #501" })).toBeInTheDocument();
  });

  it("sends typed coordinates, and nothing when the location was left alone", async () => {
    const claim = makeClaim();
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [claim, makeClaim({ id: 2, business_name: "Other" })] }),
      "GET /api/admin/claims/1": () => json(claim),
      "GET /api/admin/claims/2": () => json(makeClaim({ id: 2, business_name: "Other" })),
      "POST /api/admin/claims/1/approve": () => json({ message: "The address could not be geocoded" }, 400),
      "POST /api/admin/claims/2/approve": () => json({ message: "The address could not be geocoded" }, 400),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");

    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    const latitude = await screen.findByLabelText("Latitude");
    await user.clear(latitude);
    await user.type(latitude, "95");
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Enter a latitude from -90 to 90");
    await user.clear(latitude);
    await user.type(latitude, "41.25");
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Could not approve: The address could not be geocoded")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/admin/claims/1/approve")?.body).toEqual({ latitude: 41.25, longitude: -73.9972 });

    await user.click(screen.getByRole("button", { name: /Other/ }));
    await screen.findByRole("heading", { level: 2, name: "Other" });
    await user.click(screen.getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/api/admin/claims/2/approve")?.body).toEqual({}));
  });

  it("requires a reason to reject", async () => {
    const claim = makeClaim();
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [claim] }),
      "GET /api/admin/claims/1": () => json(claim),
      "POST /api/admin/claims/1/reject": ({ body }) =>
        json({ ...claim, status: "rejected", reject_reason: (body as { reason: string }).reason, decided_at: "2025-01-03T10:00:00Z", decided_by: "mod@example.com" }),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");

    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    const reason = await screen.findByLabelText(/^Reason/);
    await user.type(reason, "   ");
    await user.click(screen.getByRole("button", { name: "Reject" }));
    expect(screen.getByRole("alert")).toHaveTextContent(REASON_REQUIRED);
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason).toHaveFocus();
    expect(calls.some((c) => c.path.endsWith("/reject"))).toBe(false);

    await user.type(reason, "Not the owner");
    await user.click(screen.getByRole("button", { name: "Reject" }));
    expect(await screen.findByText(/Rejected claim #1: Corner Books/)).toBeInTheDocument();
    expect(calls.find((c) => c.path.endsWith("/reject"))?.body).toEqual({ reason: "Not the owner" });
    expect(await screen.findByText("Not the owner")).toBeInTheDocument();
  });

  it("shows script-like claim text as text", async () => {
    const evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const claim = makeClaim({ business_name: evil, website: "javascript:alert(3)", working_hours: "<b>always</b>" });
    stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [claim] }),
      "GET /api/admin/claims/1": () => json(claim),
    });
    const user = userEvent.setup();
    const { container } = renderAt(<AdminPage />, "/admin");

    await user.click(await screen.findByRole("button", { name: /alert\(2\)/ }));
    expect(await screen.findByRole("heading", { level: 2, name: evil })).toHaveTextContent(evil);
    expect(screen.getByText("javascript:alert(3)").tagName).toBe("DD");
    expect(screen.getByText("<b>always</b>")).toBeInTheDocument();
    expect(container.querySelector("script, b, img[src='x']")).toBeNull();
  });

  it("signs out", async () => {
    let me = 200;
    stubApi({
      "GET /api/admin/me": () => (me === 200 ? json({ moderator: { email: "mod@example.com" } }) : json({ message: "no" }, 401)),
      "DELETE /api/admin/auth": () => {
        me = 401;
        return json({ message: "Signed out" });
      },
      "GET /api/admin/claims": () => json({ claims: [] }),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");

    expect(await screen.findByText("No pending claims.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("heading", { name: "Moderator sign-in" })).toBeInTheDocument();
  });
});

describe("AdminPage, store owners", { timeout: 20_000 }, () => {
  const change = {
    id: 4,
    store_id: 12,
    store_name: "Lone Star Vapes",
    business_email: "owner@example.com",
    proposed: { name: "Lone Star Tea" },
    previous: { name: "Lone Star Vapes" },
    status: "pending",
    reject_reason: "",
    created_at: "2026-11-23T10:00:00Z",
    decided_at: null,
    decided_by: "",
  };

  it("shows a change request beside its current values, rejects only with the server's consent and approves it", async () => {
    let pending = true;
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [] }),
      "GET /api/admin/change-requests": () => json({ change_requests: pending ? [change] : [] }),
      "POST /api/admin/change-requests/4/reject": () => json({ message: "a reason is required to reject a change request" }, 400),
      "POST /api/admin/change-requests/4/approve": () => {
        pending = false;
        return json({ ...change, status: "approved" });
      },
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    const row = await screen.findByRole("row", { name: /Name/ });
    expect(row).toHaveTextContent("Lone Star Vapes");
    expect(row).toHaveTextContent("Lone Star Tea");
    await user.click(screen.getByRole("button", { name: "Reject change" }));
    expect(await screen.findByText("Could not reject the change: a reason is required to reject a change request")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Approve change" }));
    expect(await screen.findByText("Published the change to Lone Star Vapes.")).toBeInTheDocument();
    expect(await screen.findByText("No pending change requests.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => [c.path, c.body])).toEqual([
      ["/api/admin/change-requests/4/reject", { reason: "" }],
      ["/api/admin/change-requests/4/approve", {}],
    ]);
  });

  it("links a store to a business account", async () => {
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [] }),
      "POST /api/admin/business-links": () => json({ message: "Store linked to the business account" }),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    const form = await screen.findByRole("form", { name: "Link a store" });
    await user.click(within(form).getByRole("button", { name: "Link" }));
    expect(within(form).getByText("Enter the store's id (a whole number).")).toBeInTheDocument();
    await user.type(within(form).getByLabelText("Store id"), "12");
    await user.type(within(form).getByLabelText("Business account email"), "owner@example.com");
    await user.click(within(form).getByRole("button", { name: "Link" }));
    expect(await within(form).findByText("Store linked to the business account")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ store_id: 12, email: "owner@example.com" });
  });
  it("shows the owners of a listed store and the comparison, and approves only the ticked fields", async () => {
    const existing = {
      id: 17,
      name: "Corner Books",
      latitude: 40.75123,
      longitude: -73.99111,
      geo_precision: "exact",
      last_verified_at: "2025-01-01T00:00:00Z",
      owners: [{ id: 3, email: "first@example.com", since: "2024-11-03T10:00:00Z", linked_by: "claim" }],
      owners_summary: "This store has 1 verified owner since Nov 3, 2024: first@example.com.",
      fields: [
        { field: "name" as const, label: "Name", current: "Corner Books", claimed: "Corner Books", same: true },
        { field: "phone_number" as const, label: "Phone", current: "+1 212 555 0199", claimed: "+1 212 555 0100", same: false },
        { field: "website" as const, label: "Website", current: "https://corner.example", claimed: "", same: false },
        { field: "hours" as const, label: "Hours", current: "Mon-Sat 10-6", claimed: "Mon-Fri 9am-5pm", same: false },
      ],
    };
    const claim = makeClaim({ duplicate_of_store_id: 17, existing_store: existing });
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [claim] }),
      "GET /api/admin/claims/1": () => json(claim),
      "POST /api/admin/claims/1/approve": () =>
        json({ ...claim, status: "approved", store_id: 17, decided_at: "2025-01-03T10:00:00Z", decided_by: "moderator:1:mod@example.com" }),
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    expect(await screen.findByText(/This store has 1 verified owner since Nov 3, 2024: first@example.com\./)).toBeInTheDocument();
    const table = screen.getByRole("table");
    const phone = within(table).getByRole("row", { name: /Phone/ });
    expect(phone).toHaveTextContent("+1 212 555 0199");
    expect(phone).toHaveTextContent("+1 212 555 0100");
    expect(within(table).getByRole("row", { name: /Name/ })).toHaveTextContent("Same");
    expect(within(table).getByRole("row", { name: /Website/ })).toHaveTextContent("Not in the claim");
    // The marker starts at the store's own position, not the geocoded one.
    expect(screen.getByLabelText("Latitude")).toHaveValue("40.751230");
    expect(screen.getByText(/Changes no detail of the store; keeps its position/)).toBeInTheDocument();

    await user.click(screen.getByRole("checkbox", { name: "Use the claimed phone" }));
    await user.click(screen.getByRole("checkbox", { name: "Use the claimed hours" }));
    await user.click(screen.getByRole("checkbox", { name: "Use the claimed hours" }));
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("Approved claim #1: 1 field of store #17 changed.")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/admin/claims/1/approve")?.body).toEqual({ fields: ["phone_number"] });
  });

  it("lists a store's owners and removes one", async () => {
    vi.spyOn(window, "confirm").mockReturnValue(true);
    let owners = [
      { id: 3, email: "first@example.com", since: "2024-11-03T10:00:00Z", linked_by: "claim" },
      { id: 9, email: "mallory@example.com", since: "2025-01-03T10:00:00Z", linked_by: "moderator:1:mod@example.com" },
    ];
    const calls = stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [] }),
      "GET /api/admin/stores/17/owners": () => json({ owners }),
      "DELETE /api/admin/stores/17/owners/9": () => {
        owners = owners.slice(0, 1);
        return json({ message: "mallory@example.com can no longer change store 17" });
      },
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    const form = await screen.findByRole("form", { name: "Owners of a store" });
    await user.type(within(form).getByLabelText("Store id"), "17");
    await user.click(within(form).getByRole("button", { name: "Show owners" }));
    const list = await within(form).findByRole("list", { name: "Owners of store 17" });
    expect(list).toHaveTextContent("first@example.com · since Nov 3, 2024 · linked by claim");
    await user.click(within(form).getByRole("button", { name: "Remove mallory@example.com" }));
    expect(await within(form).findByText("mallory@example.com can no longer change store 17")).toBeInTheDocument();
    await waitFor(() => expect(within(form).queryByText(/mallory@example.com ·/)).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual(["/api/admin/stores/17/owners/9"]);
  });

  it("lists the hours a moderator should check", async () => {
    const note = '"6-10" read as 06:00-10:00; it may mean 06:00-22:00';
    const claim = makeClaim({ working_hours: "Daily 6-10", working_hours_notes: [note] });
    stubApi({ ...signedIn, "GET /api/admin/claims": () => json({ claims: [claim] }), "GET /api/admin/claims/1": () => json(claim) });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    expect(await screen.findByText(note)).toBeInTheDocument();
    expect(screen.getByText("Hours to check")).toBeInTheDocument();
  });

  it("shows the licence number and each service's hours with their notes", async () => {
    const note = '"6-10" read as 06:00-10:00; it may mean 06:00-22:00';
    const claim = makeClaim({
      licence_number: "2091234",
      delivery_hours: "Mon-Fri 11am-8pm",
      curbside_pickup_hours: "Daily 6-10",
      online_order_hours: "Fri 8pm-2",
      service_hours_read: [
        { service: "delivery", parsed: true, notes: [] },
        { service: "curbside_pickup", parsed: true, notes: [note] },
        { service: "online_order", parsed: false, notes: [] },
      ],
    });
    const approved = makeClaim({ ...claim, status: "approved", store_id: 5, licence_verified: true });
    let current = claim;
    stubApi({
      ...signedIn,
      "GET /api/admin/claims": () => json({ claims: [current] }),
      "GET /api/admin/claims/1": () => json(current),
      "POST /api/admin/claims/1/approve": () => {
        current = approved;
        return json(approved);
      },
    });
    const user = userEvent.setup();
    renderAt(<AdminPage />, "/admin");
    await user.click(await screen.findByRole("button", { name: /Corner Books/ }));
    expect(await screen.findByText("2091234 (checked with the registries on approval)")).toBeInTheDocument();
    expect(screen.getByText("Mon-Fri 11am-8pm")).toBeInTheDocument();
    expect(screen.getByText("Curbside pickup hours to check")).toBeInTheDocument();
    expect(screen.getByText(note)).toBeInTheDocument();
    expect(screen.getByText("Fri 8pm-2")).toBeInTheDocument();
    expect(screen.getByText("No: not published (the service follows the store's hours)")).toBeInTheDocument();
    expect(screen.getAllByText("Yes: published as its own weekly hours")).toHaveLength(2);
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("2091234: verified, the registry lists it at the store's address")).toBeInTheDocument();
  });
});
