import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Route, Routes } from "react-router";
import type { Customer } from "../../lib/session";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ProfilePage } from "./ProfilePage";

const ADA: Customer = { id: 7, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+15550100", favorites_phstores: [], email_verified: false };

function renderProfile(customer: Customer | null = ADA) {
  renderAt(
    <Routes>
      <Route path="/" element={<h1>Locator home</h1>} />
      <Route path="/profile" element={<ProfilePage />} />
    </Routes>,
    "/profile",
    { customer },
  );
  return userEvent.setup();
}

const section = (name: string) => screen.getByRole("region", { name });
const long = (n: number) => "x".repeat(n);

async function setValue(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, value: string) {
  await user.clear(input);
  if (value !== "") {
    await user.click(input);
    await user.paste(value);
  }
}

describe("ProfilePage", { timeout: 20_000 }, () => {
  it("keeps signed-out visitors on /profile, asked to sign in, with the sign-in popup open (issue 39, m24)", async () => {
    stubApi({});
    renderProfile(null);
    expect(await screen.findByRole("dialog", { name: "Welcome back" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Sign in to see your profile" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Locator home" })).not.toBeInTheDocument();
    expect(document.title).toMatch(/^Your profile/);
  });

  it("shows the sidebar and the sections; the email is read-only", () => {
    stubApi({});
    renderProfile();
    const nav = screen.getByRole("navigation", { name: "Account" });
    expect(within(nav).getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
    expect(within(nav).getByRole("link", { name: "Locator" })).toHaveAttribute("href", "/");
    expect(within(nav).getByRole("button", { name: "Log out" })).toBeInTheDocument();
    expect(within(section("Name")).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Email" })).toHaveValue("ada@example.com");
    expect(screen.getByRole("textbox", { name: "Email" })).toHaveAttribute("readonly");
    expect(within(section("Phone")).getByText("+15550100")).toBeInTheDocument();
  });

  it("logs out: ends the session and goes to /", async () => {
    const calls = stubApi({ "DELETE /api/store/auth": { body: { message: "bye" } } });
    const user = renderProfile();
    await user.click(screen.getByRole("button", { name: "Log out" }));
    expect(await screen.findByRole("heading", { name: "Locator home" })).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["DELETE /api/store/auth"]);
  });

  describe("name", () => {
    it.each([
      ["a blank first name", "   ", "Lovelace", "First name cant be empty"],
      ["a blank last name", "Ada", " ", "First name cant be empty"],
      ["a first name over 255", long(256), "Lovelace", "Name must be less than 255 symbols"],
      ["a last name over 255", "Ada", long(256), "Last name must be less than 255 symbols"],
    ])("refuses %s", async (_, first, last, message) => {
      const calls = stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit name" }));
      await setValue(user, screen.getByLabelText("First name"), first);
      await setValue(user, screen.getByLabelText("Last name"), last);
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(calls).toEqual([]);
    });

    it("accepts exactly 255 characters", async () => {
      const calls = stubApi({ "POST /api/store/customers/me": (c) => ({ body: { customer: { ...ADA, ...(c.body as object) } } }) });
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit name" }));
      await setValue(user, screen.getByLabelText("First name"), long(255));
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(calls).toHaveLength(1));
    });

    it("makes no call when nothing changed, and closes", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit name" }));
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(screen.queryByRole("button", { name: "Save changes" })).not.toBeInTheDocument());
      expect(calls).toEqual([]);
    });

    it("Cancel closes the form without a call", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit name" }));
      await user.type(screen.getByLabelText("First name"), "x");
      await user.click(screen.getByRole("button", { name: "Cancel name" }));
      expect(screen.queryByLabelText("First name")).not.toBeInTheDocument();
      expect(calls).toEqual([]);
    });

    it("saves the trimmed names with credentials and shows them", async () => {
      const calls = stubApi({ "POST /api/store/customers/me": (c) => ({ body: { customer: { ...ADA, ...(c.body as object) } } }) });
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit name" }));
      await setValue(user, screen.getByLabelText("First name"), " Augusta ");
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await within(section("Name")).findByText("Augusta Lovelace")).toBeInTheDocument();
      expect(sent(calls)).toEqual([
        { method: "POST", path: "/api/store/customers/me", body: { first_name: "Augusta", last_name: "Lovelace" }, credentials: "include" },
      ]);
    });
  });

  describe("phone", () => {
    it("accepts digits, the separators people type and a leading plus", async () => {
      stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      const input = screen.getByRole("textbox", { name: "Phone" });
      await user.clear(input);
      await user.type(input, "a+1 2-3+4x");
      expect(input).toHaveValue("+1 2-34");
      await user.clear(input);
      await user.type(input, "(212) 555.0199");
      expect(input).toHaveValue("(212) 555.0199");
    });

    it("refuses more than 12 digits, whatever the separators", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await setValue(user, screen.getByRole("textbox", { name: "Phone" }), "+1 (234) 567-890-123");
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await screen.findByText("Phone should be less thant 12 symbols")).toBeInTheDocument();
      expect(calls).toEqual([]);
    });

    it("requires a phone", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await user.clear(screen.getByRole("textbox", { name: "Phone" }));
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await screen.findByText("Phone is required")).toBeInTheDocument();
      expect(calls).toEqual([]);
    });

    it("saves a changed phone; an unchanged one makes no call", async () => {
      const calls = stubApi({ "POST /api/store/customers/me": (c) => ({ body: { customer: { ...ADA, ...(c.body as object) } } }) });
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(screen.queryByRole("button", { name: "Save changes" })).not.toBeInTheDocument());
      expect(calls).toEqual([]);
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await setValue(user, screen.getByRole("textbox", { name: "Phone" }), "+123456789012".slice(0, 12));
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await within(section("Phone")).findByText("(234) 567-8901")).toBeInTheDocument();
      expect(calls.map((c) => c.body)).toEqual([{ phone: "+12345678901" }]);
    });

    it("takes a number as sign-up takes it, shows it in the national format, and knows it unchanged (issue 39, M7)", async () => {
      const bo = { ...ADA, phone: "+12125550100" };
      const calls = stubApi({ "POST /api/store/customers/me": (c) => ({ body: { customer: { ...bo, ...(c.body as object) } } }) });
      renderAt(
        <Routes>
          <Route path="/profile" element={<ProfilePage />} />
        </Routes>,
        "/profile",
        { customer: bo },
      );
      const user = userEvent.setup();
      expect(within(section("Phone")).getByText("(212) 555-0100")).toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      const input = screen.getByRole("textbox", { name: "Phone" });
      expect(input).toHaveValue("(212) 555-0100");
      await setValue(user, input, "212.555.0100"); // the same number, spelled otherwise
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(screen.queryByRole("button", { name: "Save changes" })).not.toBeInTheDocument());
      expect(calls).toEqual([]);
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await setValue(user, screen.getByRole("textbox", { name: "Phone" }), "(212) 555-0199");
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await within(section("Phone")).findByText("(212) 555-0199")).toBeInTheDocument();
      expect(calls.map((c) => c.body)).toEqual([{ phone: "+12125550199" }]);
    });

    it("only logs a failed save", async () => {
      stubApi({ "POST /api/store/customers/me": { status: 400, body: { message: "bad phone" } } });
      const error = vi.spyOn(console, "error").mockImplementation(() => {});
      const user = renderProfile();
      await user.click(screen.getByRole("button", { name: "Edit phone" }));
      await setValue(user, screen.getByRole("textbox", { name: "Phone" }), "+1999");
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(error).toHaveBeenCalled());
      expect(document.querySelector("[data-toaster]")).toHaveTextContent("");
    });
  });

  describe("password", () => {
    const open = async (user: ReturnType<typeof userEvent.setup>) => {
      await user.click(screen.getByRole("button", { name: "Edit password" }));
    };
    /** Types the three passwords and saves. */
    const fill = async (user: ReturnType<typeof userEvent.setup>, old: string, next: string, confirmation: string) => {
      await user.type(screen.getByLabelText("Old password"), old);
      await user.type(screen.getByLabelText("New password"), next);
      await user.type(screen.getByLabelText("Confirm new password"), confirmation);
      await user.click(screen.getByRole("button", { name: "Save changes" }));
    };

    it("requires all three", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await open(user);
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await screen.findAllByText("Password is required")).toHaveLength(3);
      expect(calls).toEqual([]);
    });

    it("blocks spaces on key press", async () => {
      stubApi({});
      const user = renderProfile();
      await open(user);
      for (const label of ["Old password", "New password", "Confirm new password"]) {
        await user.type(screen.getByLabelText(label), "a b c");
        expect(screen.getByLabelText(label)).toHaveValue("abc");
      }
    });

    it("refuses more than 255 characters", async () => {
      stubApi({});
      const user = renderProfile();
      await open(user);
      fireEvent.input(screen.getByLabelText("Old password"), { target: { value: long(256) } });
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      expect(await screen.findByText("Password is too big")).toBeInTheDocument();
    });

    it.each([
      ["a confirmation that differs", "new-secret-1", "new-secret-2", "New password do not match."],
      ["a new password under 8 characters", "short", "short", "Password must be at least 8 characters"],
    ])("refuses %s", async (_, next, confirmation, message) => {
      const calls = stubApi({});
      const user = renderProfile();
      await open(user);
      await fill(user, "old-secret", next, confirmation);
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(calls).toEqual([]);
    });

    it("sends the old password with the new one in one call, then says so in a toast", async () => {
      const calls = stubApi({ "POST /api/store/customers/me": { body: { customer: ADA } } });
      const user = renderProfile();
      await open(user);
      await fill(user, "old-secret", "new-secret-1", "new-secret-1");
      expect((await screen.findByText("Password updated")).closest("[aria-live=polite]")).not.toBeNull();
      expect(calls.map((c) => [c.path, c.body])).toEqual([["/api/store/customers/me", { password: "new-secret-1", old_password: "old-secret" }]]);
    });

    it("toasts the failure text as an alert and shows the server's reason when the change is refused", async () => {
      const calls = stubApi({ "POST /api/store/customers/me": { status: 400, body: { message: "Your current password is not correct" } } });
      vi.spyOn(console, "error").mockImplementation(() => {});
      const user = renderProfile();
      await open(user);
      await fill(user, "wrong", "new-secret-1", "new-secret-1");
      const alerts = await screen.findAllByRole("alert");
      expect(alerts.map((a) => a.textContent)).toEqual(
        expect.arrayContaining(["Your current password is not correct", expect.stringContaining("Reset password has been failed. Make sure you use existing user email.")]),
      );
      expect(calls.map((c) => c.path)).toEqual(["/api/store/customers/me"]);
    });

    it("makes no call when the new password equals the old one", async () => {
      const calls = stubApi({});
      const user = renderProfile();
      await open(user);
      for (const label of ["Old password", "New password", "Confirm new password"]) await user.type(screen.getByLabelText(label), "same-secret");
      await user.click(screen.getByRole("button", { name: "Save changes" }));
      await waitFor(() => expect(screen.queryByLabelText("Old password")).not.toBeInTheDocument());
      expect(calls).toEqual([]);
    });
  });

  it("shows whether the email is confirmed, and mails the link while not", async () => {
    const calls = stubApi({
      "POST /api/store/customers/me/email-proof": { status: 202, body: { message: "We sent a link to ada@example.com. Open it to confirm your email." } },
    });
    const user = renderProfile();
    expect(await within(section("Email")).findByText("Not confirmed yet")).toBeInTheDocument();
    await user.click(within(section("Email")).getByRole("button", { name: "Send confirmation link" }));
    expect(await screen.findByText("We sent a link to ada@example.com. Open it to confirm your email.")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/api/store/customers/me/email-proof")?.credentials).toBe("include");
  });

  it("shows a confirmed email without the button", async () => {
    stubApi({});
    renderProfile({ ...ADA, email_verified: true });
    expect(await within(section("Email")).findByText("Confirmed")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Send confirmation link" })).not.toBeInTheDocument();
  });
});
