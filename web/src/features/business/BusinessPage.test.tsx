import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage, BusinessResetPasswordPage } from "./BusinessPage";
import { businessAccount, makeBusinessStore, stubPatchRefusedOnce } from "./testing";

const account = businessAccount;
const now = new Date("2026-11-23T12:00:00Z");

// Generous, as AdminPage.test.tsx: user-event typing is slow on a loaded 2-core machine.
describe("BusinessPage", { timeout: 20_000 }, () => {
  it("signs in with the server's messages", async () => {
    let signedIn = false;
    const calls = stubApi({
      "GET /api/business/me": () => (signedIn ? { body: { account } } : { status: 401, body: { message: "Business accounts only: sign in" } }),
      "POST /api/business/auth": (call) => {
        const { password } = call.body as { password: string };
        if (password !== "tulip-lamp-7") return { status: 401, body: { message: "Invalid email or password" } };
        signedIn = true;
        return { body: { account } };
      },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    await user.click(await screen.findByRole("button", { name: "Sign in" }));
    expect(screen.getByText("Enter your email")).toBeInTheDocument();
    expect(screen.getByText("Enter your password")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "owner@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong-pass-1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("Could not sign in: Invalid email or password")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Password"));
    await user.type(screen.getByLabelText("Password"), "tulip-lamp-7");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Lone Star Vapes" })).toBeInTheDocument();
    expect(screen.getByText("Verified Nov 1, 2026")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "/api/business/auth").every((c) => c.credentials === "include")).toBe(true);
  });

  it("asks for a reset link and always gives the same answer", async () => {
    const calls = stubApi({
      "GET /api/business/me": { status: 401, body: { message: "Business accounts only: sign in" } },
      "POST /api/business/password-token": { body: { message: "If an account exists for this email, a link to reset the password is on its way." } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    await user.click(await screen.findByRole("button", { name: "Forgot password?" }));
    // The product's header: back to the locator, and the claim wizard for an owner with no account.
    expect(screen.getByRole("banner")).toContainElement(screen.getByRole("link", { name: "Store Locator" }));
    expect(screen.getByRole("link", { name: "Claim your store" })).toHaveAttribute("href", "/claim");
    await user.type(screen.getByLabelText("Email"), "owner@example.com");
    await user.click(screen.getByRole("button", { name: "Send the link" }));
    expect(await screen.findByText("If an account exists for this email, a link to reset the password is on its way.")).toBeInTheDocument();
    expect(sent(calls).find((c) => c.method === "POST")?.body).toEqual({ email: "owner@example.com" });
  });

  it("checks the details in the browser, sends only the changes, and shows the server's answer", async () => {
    const calls = stubPatchRefusedOnce("Website must be a web address, e.g. https://example.com", "ok");
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    const form = await screen.findByRole("form", { name: "Hours and contact" });
    const phone = within(form).getByLabelText("Phone number");
    await user.clear(phone);
    await user.type(phone, "call me");
    await user.click(within(form).getByRole("checkbox", { name: "Sunday" }));
    await user.click(within(form).getByRole("button", { name: "Save and publish" }));
    expect(within(form).getByText("Phone number may contain only digits, spaces, + - ( ) and .")).toBeInTheDocument();
    expect(within(form).getByText("Working hours: give Sunday both an opening and a closing time, or neither")).toBeInTheDocument();
    expect(calls.some((c) => c.method === "PATCH")).toBe(false);

    await user.clear(phone);
    await user.type(phone, "+15125550100");
    await user.click(within(form).getByRole("checkbox", { name: "Sunday" }));
    await user.click(within(form).getByRole("checkbox", { name: "Delivery" }));
    await user.click(within(form).getByRole("button", { name: "Save and publish" }));
    expect(await screen.findByText("Website must be a web address, e.g. https://example.com")).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Save and publish" }));
    expect(await screen.findByText("Changes saved and published.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ is_delivery_available: true }, { is_delivery_available: true }]);
  });

  it("sends name changes to a moderator and confirms the details", async () => {
    const calls = stubApi({
      "GET /api/business/me": { body: { account } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore({ last_verified_at: "2025-01-01T00:00:00Z" })] } },
      "PATCH /api/business/stores/5": {
        body: {
          message: "ok",
          store: makeBusinessStore({ last_verified_at: "2025-01-01T00:00:00Z" }),
          change_request: {
            id: 1, store_id: 5, store_name: "Lone Star Vapes", business_email: "owner@example.com", proposed: { name: "Lone Star Tea" },
            previous: { name: "Lone Star Vapes" }, status: "pending", reject_reason: "", created_at: "2026-11-23T10:00:00Z", decided_at: null, decided_by: "",
          },
        },
      },
      "POST /api/business/stores/5/verify": { body: { store: makeBusinessStore({ last_verified_at: "2026-11-23T11:00:00Z" }) } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage now={now} />, "/business");
    expect(await screen.findByText("Not verified recently")).toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Name, address and position" });
    const name = within(form).getByLabelText("Store name");
    await user.clear(name);
    await user.click(within(form).getByRole("button", { name: "Send to a moderator" }));
    expect(within(form).getByText("Name is required")).toBeInTheDocument();
    await user.type(name, "Lone Star Tea");
    await user.click(within(form).getByRole("button", { name: "Send to a moderator" }));
    expect(await screen.findByText("Sent to a moderator. The new details are published once approved.")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ name: "Lone Star Tea" });

    await user.click(screen.getByRole("button", { name: "Confirm these details are correct" }));
    expect(await screen.findByText("Thank you: the details are marked as verified today.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("Verified Nov 23, 2026")).toBeInTheDocument());
  });
});

describe("BusinessResetPasswordPage", () => {
  it("sends the token of the link with the new password (no email asked)", async () => {
    const calls = stubApi({ "POST /api/business/password-reset": { body: { message: "Password has been reset." } } });
    const user = userEvent.setup();
    renderAt(<BusinessResetPasswordPage />, "/business/reset-password?token=abc_DEF-1");
    expect(screen.queryByLabelText("Email")).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("New password"), "maple-river-31");
    await user.type(screen.getByLabelText("Confirm new password"), "maple-river-32");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription("The passwords do not match");
    await user.clear(screen.getByLabelText("Confirm new password"));
    await user.type(screen.getByLabelText("Confirm new password"), "maple-river-31");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("Your password has been reset. Sign in with the new one.")).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ password: "maple-river-31", token: "abc_DEF-1" });
  });
});
