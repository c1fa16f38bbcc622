import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
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
  await user.type(screen.getByLabelText("Email"), "ada@example.com");
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
  it("does nothing when the passwords differ", async () => {
    const calls = stubApi({});
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage();
    await fill(user, "new-secret-1", "new-secret-2");
    expect(calls).toEqual([]);
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByRole("heading", { name: "Set a new password" })).toBeInTheDocument();
  });

  it("sends email, password and the token, alerts and goes to / on success", async () => {
    const calls = stubApi({ "POST /api/store/customers/password-reset": { body: { message: "done" } } });
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage("?token=tok=123");
    await fill(user, "new-secret-1", "new-secret-1");
    expect(await screen.findByRole("heading", { name: "Locator home" })).toBeInTheDocument();
    expect(alert).toHaveBeenCalledWith("Password has been reset.  Now you can login");
    expect(calls[0]?.body).toEqual({ email: "ada@example.com", password: "new-secret-1", token: "tok=123" });
  });

  it("alerts the failure text and stays on failure", async () => {
    stubApi({ "POST /api/store/customers/password-reset": { status: 400, body: { message: "Invalid or expired token" } } });
    const alert = vi.spyOn(window, "alert").mockImplementation(() => {});
    const user = userEvent.setup();
    renderPage();
    await fill(user, "new-secret-1", "new-secret-1");
    await waitFor(() => expect(alert).toHaveBeenCalledWith("Reset password has been failed. Make sure you use existing user email."));
    expect(screen.getByRole("heading", { name: "Set a new password" })).toBeInTheDocument();
  });
});
