import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { BusinessPage, BusinessVerifyPage } from "./BusinessPage";
import { makeBusinessStore } from "./testing";

const unconfirmed = { email: "owner@example.com", store_name: "Lone Star Vapes", email_verified: false };

describe("an account whose email is not confirmed", { timeout: 20_000 }, () => {
  it("sees only the confirm state, and the resend button shows the server's answer, 429 included", async () => {
    let sends = 0;
    const calls = stubApi({
      "GET /api/business/me": { body: { account: unconfirmed } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
      "POST /api/business/email-proof": () =>
        ++sends === 1
          ? { status: 202, body: { message: "We sent a new link to owner@example.com. Open it to confirm your email." } }
          : { status: 429, body: { message: "Too many attempts. Please try again in 60 minute(s)." } },
    });
    const user = userEvent.setup();
    renderAt(<BusinessPage />, "/business");
    expect(await screen.findByRole("heading", { name: "Confirm your email" })).toBeInTheDocument();
    expect(screen.getByText(/We sent a link to owner@example.com\. Open it and enter your password/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send the link again" }));
    expect(await screen.findByText("We sent a new link to owner@example.com. Open it to confirm your email.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send the link again" }));
    expect(await screen.findByText("Too many attempts. Please try again in 60 minute(s).")).toBeInTheDocument();
    // Nothing of the dashboard: no store list asked for, no store shown.
    expect(screen.queryByRole("heading", { name: "Your stores" })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === "/api/business/stores")).toBe(false);
    expect(calls.filter((c) => c.path === "/api/business/email-proof").every((c) => c.credentials === "include")).toBe(true);
  });

  it("follows the mailed link with the password and lands in the dashboard", async () => {
    const calls = stubApi({
      "POST /api/business/email-proof/confirm": (call) =>
        (call.body as { password: string }).password === "tulip-lamp-7"
          ? { body: { account: { ...unconfirmed, email_verified: true } } }
          : { status: 400, body: { message: "This is not the password chosen for this account. Enter the password you chose when you signed up." } },
      "GET /api/business/stores": { body: { stores: [makeBusinessStore()] } },
    });
    const user = userEvent.setup();
    renderAt(
      <Routes>
        <Route path="/business/verify" element={<BusinessVerifyPage />} />
        <Route path="/business" element={<BusinessPage />} />
      </Routes>,
      "/business/verify?token=abc-123",
    );
    await user.click(await screen.findByRole("button", { name: "Confirm email" }));
    expect(screen.getByText("Enter your password")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Password"), "wrong-pass-1");
    await user.click(screen.getByRole("button", { name: "Confirm email" }));
    expect(await screen.findByText(/This is not the password chosen for this account/)).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Password"));
    await user.type(screen.getByLabelText("Password"), "tulip-lamp-7");
    await user.click(screen.getByRole("button", { name: "Confirm email" }));
    expect(await screen.findByRole("heading", { name: "Lone Star Vapes" })).toBeInTheDocument();
    expect(sent(calls).filter((c) => c.method === "POST").at(-1)).toEqual({
      method: "POST",
      path: "/api/business/email-proof/confirm",
      body: { token: "abc-123", password: "tulip-lamp-7" },
      credentials: "include",
    });
  });

  it("says so when the link has no token", async () => {
    stubApi({});
    renderAt(<BusinessVerifyPage />, "/business/verify");
    expect(await screen.findByText(/This confirmation link is incomplete/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Confirm email" })).not.toBeInTheDocument();
  });
});
