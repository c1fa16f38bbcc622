import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Route, Routes } from "react-router";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ResetPasswordPage } from "./ResetPasswordPage";
import { tokenFromSearch } from "../../lib/linkToken";

function renderPage(search = "?token=tok-123") {
  renderAt(
    <Routes>
      <Route path="/" element={<h1>Locator home</h1>} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
    </Routes>,
    `/reset-password${search}`,
  );
}

async function fill(user: ReturnType<typeof userEvent.setup>, password: string, confirmation: string) {
  await user.type(screen.getByLabelText("New password"), password);
  await user.type(screen.getByLabelText("Confirm new password"), confirmation);
  await user.click(screen.getByRole("button", { name: "Reset password" }));
}

describe("tokenFromSearch", () => {
  it.each([
    ["?token=abc", "abc"],
    ["?token=abc=def&x=1", "abc=def&x=1"],
    ["?t=xyz", "xyz"],
    ["", ""],
    ["?token", ""],
  ])("reads %j after the first equals sign as %j", (search, token) => {
    expect(tokenFromSearch(search)).toBe(token);
  });
});

describe("ResetPasswordPage", { timeout: 20_000 }, () => {
  it("asks only for the new password and its confirmation: the link's token names the account", () => {
    stubApi({});
    renderPage();
    expect(screen.queryByLabelText("Email")).not.toBeInTheDocument();
    const inputs = screen.getByRole("form", { name: "Choose a new password" }).querySelectorAll("input");
    expect([...inputs].map((e) => e.labels?.[0]?.textContent)).toEqual(["New password", "Confirm new password"]);
  });

  it("says under the confirmation that the passwords differ, makes no call, and the message goes once they agree", async () => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderPage();
    await user.type(screen.getByLabelText("New password"), "new-secret-1");
    await user.type(screen.getByLabelText("Confirm new password"), "new-secret-2");
    expect(screen.queryByText("New password do not match.")).not.toBeInTheDocument(); // not while typing
    await user.tab(); // leaving the confirmation
    const confirmation = screen.getByLabelText("Confirm new password");
    expect(confirmation).toHaveAccessibleDescription("New password do not match.");
    expect(confirmation).toHaveAttribute("aria-invalid", "true");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(calls).toEqual([]);
    expect(document.querySelector("[data-toaster]")).toHaveTextContent("");
    await user.clear(confirmation);
    await user.type(confirmation, "new-secret-1");
    expect(screen.queryByText("New password do not match.")).not.toBeInTheDocument();
  });

  it("sends the password and the token only, toasts the spec's text and goes to / on success", async () => {
    const calls = stubApi({ "POST /api/store/customers/password-reset": { body: { message: "done" } } });
    const user = userEvent.setup();
    renderPage("?token=tok=123");
    await fill(user, "new-secret-1", "new-secret-1");
    expect(await screen.findByRole("heading", { name: "Locator home" })).toBeInTheDocument();
    const toast = screen.getByText("Password has been reset.  Now you can login", { normalizer: (t) => t });
    expect(toast.closest("[aria-live=polite]")).not.toBeNull();
    expect(calls[0]?.body).toEqual({ password: "new-secret-1", token: "tok=123" });
  });

  it("shows the spec's failure text as an alert toast and stays on a failure the server does not explain", async () => {
    stubApi({ "POST /api/store/customers/password-reset": { status: 500, body: {} } });
    const user = userEvent.setup();
    renderPage();
    await fill(user, "new-secret-1", "new-secret-1");
    expect(await screen.findByRole("alert")).toHaveTextContent("Reset password has been failed. Make sure you use existing user email.");
    expect(screen.getByRole("heading", { name: "Set a new password" })).toBeInTheDocument();
  });

  it("says a used or expired link is one, instead of blaming the email (issue 39, m23)", async () => {
    const reason = "This password reset link has already been used or has expired. Please request a new one.";
    stubApi({ "POST /api/store/customers/password-reset": { status: 400, body: { message: reason } } });
    const user = userEvent.setup();
    renderPage();
    await fill(user, "new-secret-1", "new-secret-1");
    expect(await screen.findByRole("alert")).toHaveTextContent(reason);
    expect(screen.queryByText(/existing user email/)).not.toBeInTheDocument();
  });

  it("says the link is incomplete when it has no token", () => {
    stubApi({});
    renderPage("");
    expect(screen.getByRole("alert")).toHaveTextContent("This reset link is incomplete. Open the link from the email again.");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
  });
});
