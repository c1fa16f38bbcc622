import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { useCustomer, useFavorites, usePopup, type PopupView } from "../../lib/session";
import { makeCustomer } from "../../test/fixtures";
import { sent, stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";

const CUSTOMER = makeCustomer();

/** Opens the popup on a view, and shows the login state and favourites count. */
function Harness({ view = "sign-in" }: { view?: PopupView }) {
  const { openPopup } = usePopup();
  const { loginState } = useCustomer();
  const { favorites } = useFavorites();
  return (
    <div>
      <button type="button" onClick={() => openPopup(view)}>
        Open popup
      </button>
      <p>state: {loginState}</p>
      <p>favourites: {favorites.length}</p>
    </div>
  );
}

async function openOn(view: PopupView = "sign-in") {
  const user = userEvent.setup();
  renderAt(<Harness view={view} />);
  await user.click(screen.getByRole("button", { name: "Open popup" }));
  const dialog = await screen.findByRole("dialog", undefined, { timeout: 10_000 });
  return { user, dialog };
}

describe("sign-in view", { timeout: 20_000 }, () => {
  beforeEach(() => {
    stubApi({});
  });

  it("shows its texts and links", async () => {
    const { dialog } = await openOn();
    expect(within(dialog).getByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
    expect(within(dialog).getByText("Sign in to access an enhanced shopping experience.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Enter" })).toBeInTheDocument();
    expect(within(dialog).getByText(/Not a member\?/)).toHaveTextContent("Not a member? Join us");
    expect(within(dialog).getByText(/Forgot password\?/)).toHaveTextContent("Forgot password? Reset");
    expect(within(dialog).getByLabelText("Email")).toHaveFocus();
    expect(within(dialog).queryByRole("status")).not.toBeInTheDocument();
  });

  it("requires the email and the password, without a call", async () => {
    const calls = stubApi({});
    const { user, dialog } = await openOn();
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByText("Email is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Password is required")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(calls).toEqual([]);
  });

  it.each([
    ["a 401", { status: 401, body: { message: "Invalid email or password" } }],
    ["a 429", { status: 429, body: { message: "Too many attempts" } }],
    ["a network error", new Error("offline")],
  ])("answers %s with the one credentials message", async (_, answer) => {
    stubApi({ "POST /api/store/auth": answer });
    const { user, dialog } = await openOn();
    await user.type(within(dialog).getByLabelText("Email"), "ada@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "wrong-password");
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByText("These credentials do not match our records")).toBeInTheDocument();
    expect(screen.getByText("state: logged-out")).toBeInTheDocument();
  });

  it("stores the customer, loads the favourites and closes on success", async () => {
    const calls = stubApi({ "POST /api/store/auth": { body: { customer: CUSTOMER } } });
    const { user, dialog } = await openOn();
    await user.type(within(dialog).getByLabelText("Email"), "ada@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "secret-pass");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByText("state: logged-in")).toBeInTheDocument();
    expect(screen.getByText("favourites: 1")).toBeInTheDocument();
    expect(sent(calls)).toEqual([
      { method: "POST", path: "/api/store/auth", body: { email: "ada@example.com", password: "secret-pass" }, credentials: "include" },
    ]);
  });

  it("moves to sign up and to reset, and back", async () => {
    const { user, dialog } = await openOn();
    await user.click(within(dialog).getByRole("button", { name: "Join us" }));
    expect(within(dialog).getByRole("heading", { name: "BECOME A MEMBER" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Sign in" }));
    expect(within(dialog).getByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Reset" }));
    expect(within(dialog).getByRole("heading", { name: "Reset your password" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Back to login page" }));
    expect(within(dialog).getByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
  });
});

describe("sign-up view", { timeout: 20_000 }, () => {
  const fill = async (user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) => {
    await user.type(within(dialog).getByLabelText("First name"), "Ada");
    await user.type(within(dialog).getByLabelText("Last name"), "Lovelace");
    await user.type(within(dialog).getByLabelText("Phone"), "+15550100");
    await user.type(within(dialog).getByLabelText("Email"), "ada@example.com");
    await user.type(within(dialog).getByLabelText("Password"), "secret-pass");
  };

  it("shows its texts; every input carries the native required attribute", async () => {
    stubApi({});
    const { dialog } = await openOn("sign-up");
    expect(within(dialog).getByText("Create your Member profile, and get access to an enhanced shopping experience.")).toBeInTheDocument();
    expect(within(dialog).getByText(/Already a member\?/)).toHaveTextContent("Already a member? Sign in");
    for (const label of ["First name", "Last name", "Phone", "Email", "Password"]) {
      expect(within(dialog).getByLabelText(label)).toBeRequired();
    }
  });

  it("shows each required message (blank counts as empty), without a call", async () => {
    const calls = stubApi({});
    const { user, dialog } = await openOn("sign-up");
    // The form's own messages show, not the browser's "Please fill out this field" (issue 39, m21).
    expect(within(dialog).getByRole("button", { name: "Enter" }).closest("form")).toHaveAttribute("novalidate");
    await user.type(within(dialog).getByLabelText("First name"), "   ");
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    for (const message of ["First name is required", "Last name is required", "Phone is required", "Email is required", "Password is required"]) {
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
    }
    expect(calls).toEqual([]);
  });

  it("sends the five fields and goes to sign in on success, which confirms it and starts on the password", async () => {
    const calls = stubApi({ "POST /api/store/customers": { status: 201, body: { customer: { ...CUSTOMER, favorites_phstores: [] } } } });
    const { user, dialog } = await openOn("sign-up");
    await fill(user, dialog);
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
    expect(within(dialog).getByRole("status")).toHaveTextContent("Your account has been created. Please sign in.");
    expect(within(dialog).getByLabelText("Email")).toHaveValue("ada@example.com");
    expect(within(dialog).getByLabelText("Password")).toHaveFocus();
    expect(calls[0]?.body).toEqual({ first_name: "Ada", last_name: "Lovelace", phone: "+15550100", email: "ada@example.com", password: "secret-pass" });
    expect(screen.getByText("state: logged-out")).toBeInTheDocument();
  });

  it("takes a phone as people write it and sends its stored form, as the profile does (issue 39, M7)", async () => {
    const calls = stubApi({ "POST /api/store/customers": { status: 201, body: { customer: { ...CUSTOMER, favorites_phstores: [] } } } });
    const { user, dialog } = await openOn("sign-up");
    await fill(user, dialog);
    const phone = within(dialog).getByLabelText("Phone");
    await user.clear(phone);
    await user.type(phone, "(212) 555-0199");
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ phone: "+12125550199" });
  });

  it("counts a phone's digits, not its separators, against the limit of 12", async () => {
    const calls = stubApi({});
    const { user, dialog } = await openOn("sign-up");
    await fill(user, dialog);
    const phone = within(dialog).getByLabelText("Phone");
    await user.clear(phone);
    await user.type(phone, "+1 (212) 555-0199-00");
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByText("Phone should be less thant 12 symbols")).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the server's message as-is on failure", async () => {
    stubApi({ "POST /api/store/customers": { status: 409, body: { message: "The email has already been taken." } } });
    const { user, dialog } = await openOn("sign-up");
    await fill(user, dialog);
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(/^The email has already been taken\.$/);
    expect(within(dialog).getByRole("heading", { name: "BECOME A MEMBER" })).toBeInTheDocument();
  });

  it("shows nothing informative when the server sends no message", async () => {
    stubApi({ "POST /api/store/customers": { status: 500, body: {} } });
    const { user, dialog } = await openOn("sign-up");
    await fill(user, dialog);
    await user.click(within(dialog).getByRole("button", { name: "Enter" }));
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Enter" })).toBeEnabled());
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("reset views", { timeout: 20_000 }, () => {
  it("requires the email", async () => {
    const calls = stubApi({});
    const { user, dialog } = await openOn("reset-password");
    expect(within(dialog).getByText("Enter your email below")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Reset password" }));
    expect(await within(dialog).findByText("Email is required")).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("sends the trimmed email with app locator, then shows the reset-link view with it", async () => {
    const calls = stubApi({ "POST /api/store/customers/password-token2": { body: { message: "sent" } } });
    const { user, dialog } = await openOn("reset-password");
    await user.type(within(dialog).getByLabelText("Email"), "  ada@example.com ");
    await user.click(within(dialog).getByRole("button", { name: "Reset password" }));
    expect(await within(dialog).findByRole("heading", { name: "Check yor email" })).toBeInTheDocument();
    expect(within(dialog).getByText("ada@example.com")).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: "ada@example.com", app: "locator" });
    await user.click(within(dialog).getByRole("button", { name: "Back to login page" }));
    expect(within(dialog).getByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
  });

  it.each([
    ["a 400", { status: 400, body: { message: "Email is invalid" } }],
    ["a 429", { status: 429, body: { message: "Too many requests" } }],
    ["a network error", new Error("offline")],
  ])("answers %s with the one not-found message", async (_, answer) => {
    stubApi({ "POST /api/store/customers/password-token2": answer });
    const { user, dialog } = await openOn("reset-password");
    await user.type(within(dialog).getByLabelText("Email"), "nobody@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Reset password" }));
    expect(await within(dialog).findByText("User with this email not found")).toBeInTheDocument();
  });
});

describe("the popup", { timeout: 20_000 }, () => {
  it("closes with the close icon and opens again on sign in", async () => {
    stubApi({});
    const user = userEvent.setup();
    renderAt(<Harness view="sign-up" />);
    await user.click(screen.getByRole("button", { name: "Open popup" }));
    await user.click(await screen.findByRole("button", { name: "Close" }, { timeout: 10_000 }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Open popup" })).toHaveFocus();
  });

  it("closes on Escape and resets to sign in", async () => {
    stubApi({});
    const { user, dialog } = await openOn();
    await user.click(within(dialog).getByRole("button", { name: "Join us" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("moves focus to the new view's first field when the view changes", async () => {
    stubApi({});
    const { user, dialog } = await openOn();
    await user.click(within(dialog).getByRole("button", { name: "Join us" }));
    expect(within(dialog).getByLabelText("First name")).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Sign in" }));
    expect(within(dialog).getByLabelText("Email")).toHaveFocus();
  });

  it("keeps Tab inside the dialog", async () => {
    stubApi({});
    const { user, dialog } = await openOn();
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});
