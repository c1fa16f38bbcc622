import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ReportsPanel } from "./ReportsPanel";

const store = {
  id: 7,
  name: "Cloud Nine",
  status: "published",
  phone_number: "+12125550100",
  hours: "Mon-Sat 9-9",
  address: "1 Main St",
  city: "New York",
  state: "NY",
  postal_code: "10001",
  latitude: 40.7,
  longitude: -74,
  time_zone: "America/New_York",
  workingHours: [{ weekDay: "Monday", startTime: "09:00", endTime: "21:00" }],
  updated_at: "2026-11-20T10:00:00Z",
};
const report = (id: number, reason: string, note = "", copies = 1) => ({
  id,
  store_id: 7,
  reason,
  note,
  signed_in: id === 2,
  status: "open",
  created_at: "2026-11-22T10:00:00Z",
  copies,
});
const queue = (stores: unknown[], page = 1, total = stores.length, has_more = false) => ({ stores, page, total, has_more });

describe("ReportsPanel", () => {
  it("shows each reported store with its data and reports, and sends a fix of the changed fields only", async () => {
    let open = true;
    const calls = stubApi({
      "GET /api/admin/reports": () => ({
        body: queue(open ? [{ store, reports: [report(1, "wrong_phone", "Number is dead"), report(2, "wrong_hours", "", 3)] }] : []),
      }),
      "POST /api/admin/reports/7/resolve": () => {
        open = false;
        return { body: { store_id: 7, action: "fix", reports: 2, notified: true, status: "accepted", store_status: "published" } };
      },
    });
    const user = userEvent.setup();
    renderAt(<ReportsPanel onUnauthorized={() => {}} />);
    const group = await screen.findByRole("article", { name: /Cloud Nine/ });
    expect(group).toHaveTextContent("(4 reports)");
    expect(group).toHaveTextContent("sent by 3 shoppers");
    expect(group).toHaveTextContent("Wrong phone");
    expect(group).toHaveTextContent("Number is dead");
    expect(group).toHaveTextContent("+12125550100");
    await user.click(within(group).getByRole("button", { name: "Fix the store…" }));
    await user.click(within(group).getByRole("button", { name: "Save and accept" }));
    expect(within(group).getByRole("alert")).toHaveTextContent("Change at least one field");
    const phone = within(group).getByRole("textbox", { name: "Phone" });
    await user.clear(phone);
    await user.type(phone, "+12125550199");
    await user.click(within(group).getByRole("button", { name: "Save and accept" }));
    expect(await screen.findByText("Cloud Nine: Store corrected; its reports are accepted.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("No open reports.")).toBeInTheDocument());
    const post = calls.find((c) => c.method === "POST");
    expect(post?.body).toEqual({ action: "fix", note: "", changes: { phone_number: "+12125550199" } });
  });

  it("dismisses with a note and shows the server's refusal", async () => {
    stubApi({
      "GET /api/admin/reports": { body: queue([{ store, reports: [report(1, "other")] }]) },
      "POST /api/admin/reports/7/resolve": { status: 409, body: { message: "This store has no open reports" } },
    });
    const user = userEvent.setup();
    renderAt(<ReportsPanel onUnauthorized={() => {}} />);
    const group = await screen.findByRole("article", { name: /Cloud Nine/ });
    await user.click(within(group).getByRole("button", { name: "Dismiss" }));
    expect(await within(group).findByRole("alert")).toHaveTextContent("This store has no open reports");
  });

  it("pages through the queue", async () => {
    const other = { ...store, id: 8, name: "Vape Corner" };
    const calls = stubApi({
      "GET /api/admin/reports": (req) =>
        req.query.get("page") === "2"
          ? { body: queue([{ store: other, reports: [report(3, "other")] }], 2, 21, false) }
          : { body: queue([{ store, reports: [report(1, "other")] }], 1, 21, true) },
    });
    const user = userEvent.setup();
    renderAt(<ReportsPanel onUnauthorized={() => {}} />);
    await screen.findByRole("article", { name: /Cloud Nine/ });
    const nav = screen.getByRole("navigation", { name: "Report pages" });
    expect(nav).toHaveTextContent("Page 1 of 2 · 21 stores");
    expect(within(nav).getByRole("button", { name: "Previous" })).toBeDisabled();
    await user.click(within(nav).getByRole("button", { name: "Next" }));
    expect(await screen.findByRole("article", { name: /Vape Corner/ })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Report pages" })).toHaveTextContent("Page 2 of 2 · 21 stores");
    expect(calls.some((c) => c.query.get("page") === "2")).toBe(true);
  });

  it("hands a 401 to the page", async () => {
    stubApi({ "GET /api/admin/reports": { status: 401, body: { message: "Sign in" } } });
    const onUnauthorized = vi.fn();
    renderAt(<ReportsPanel onUnauthorized={onUnauthorized} />);
    await waitFor(() => expect(onUnauthorized).toHaveBeenCalled());
  });
});
