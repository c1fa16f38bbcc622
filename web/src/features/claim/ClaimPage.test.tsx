import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stubApi } from "../../test/fetch";
import { renderAt } from "../../test/render";
import { ClaimPage } from "./ClaimPage";

type User = ReturnType<typeof userEvent.setup>;

const continueButton = () => screen.getByRole("button", { name: "Continue" });

function renderWizard() {
  renderAt(<ClaimPage />, "/claim");
  return userEvent.setup();
}

/** Types a value at once (paste), which is much quicker than key by key. */
async function fill(user: User, label: string, value: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(value);
}

async function stepOne(user: User) {
  await fill(user, "Business name", "Cloud Nine Vapes");
  await user.click(continueButton());
}
async function stepTwo(user: User) {
  await fill(user, "Email", "owner@cloudnine.test");
  await user.click(continueButton());
}
async function stepThree(user: User) {
  await fill(user, "Phone", "+12125550100");
  await user.click(continueButton());
}
async function stepFour(user: User) {
  await fill(user, "Country", "United States");
  await user.type(screen.getByLabelText("State (optional)"), "NY");
  await fill(user, "City", "New York");
  await fill(user, "Postal code", "10001");
  await fill(user, "Address", "350 5th Ave");
  await user.click(screen.getByRole("button", { name: "Add business" }));
}
/** The four steps before the password, as a shop owner fills them. */
async function toPasswordStep(user: User) {
  await stepOne(user);
  await stepTwo(user);
  await stepThree(user);
  await stepFour(user);
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => window.sessionStorage.clear());

describe("ClaimPage", { timeout: 20_000 }, () => {
  it("titles the document with each step", async () => {
    stubApi({});
    const user = renderWizard();
    expect(document.title).toBe("Claim your store, step 1 of 5: Business name · Store Locator");
    await stepOne(user);
    expect(document.title).toBe("Claim your store, step 2 of 5: Email · Store Locator");
    await stepTwo(user);
    await stepThree(user);
    expect(document.title).toBe("Claim your store, step 4 of 5: Business information · Store Locator");
  });

  it("step 1 needs a business name that is not blank", async () => {
    stubApi({});
    const user = renderWizard();
    expect(screen.getByRole("heading", { name: "What is the name of your business?" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Step 1 of 5" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /return to the locator/ })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("button", { name: "Back" })).not.toBeInTheDocument();
    expect(continueButton()).toBeDisabled();
    await user.type(screen.getByLabelText("Business name"), "   ");
    expect(continueButton()).toBeDisabled();
    await fill(user, "Business name", "Cloud Nine");
    expect(continueButton()).toBeEnabled();
  });

  it("step 2 needs an email with @; Back returns to step 1 with the name kept", async () => {
    stubApi({});
    const user = renderWizard();
    await stepOne(user);
    expect(screen.getByRole("img", { name: "Step 2 of 5" })).toBeInTheDocument();
    expect(continueButton()).toBeDisabled();
    await fill(user, "Email", "owner.example.com");
    expect(continueButton()).toBeDisabled();
    await user.type(screen.getByLabelText("Email"), "@");
    expect(continueButton()).toBeEnabled();
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByLabelText("Business name")).toHaveValue("Cloud Nine Vapes");
  });

  it("step 3 needs a phone", async () => {
    stubApi({});
    const user = renderWizard();
    await stepOne(user);
    await stepTwo(user);
    expect(continueButton()).toBeDisabled();
    await user.type(screen.getByLabelText("Phone"), " ");
    expect(continueButton()).toBeDisabled();
    await user.type(screen.getByLabelText("Phone"), "5");
    expect(continueButton()).toBeEnabled();
  });

  it.each(["Country", "City", "Postal code", "Address"])("step 4 needs %s; the rest is optional", async (missing) => {
    stubApi({});
    const user = renderWizard();
    await stepOne(user);
    await stepTwo(user);
    await stepThree(user);
    expect(screen.getByRole("heading", { name: "Business information" })).toBeInTheDocument();
    expect(screen.getByText(/Terms of Service/)).toBeInTheDocument();
    for (const label of ["Country", "City", "Postal code", "Address"]) {
      if (label !== missing) await user.type(screen.getByLabelText(label), "x");
    }
    const add = screen.getByRole("button", { name: "Add business" });
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText(missing), "y");
    expect(add).toBeEnabled();
  });

  it("step 5 needs a password; Submit sends the claim, then the account, and thanks", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const calls = stubApi({
      "POST /api/store/claim": { status: 201, body: { message: "Claim received", claim: { id: 12, status: "pending" } } },
      "POST /api/store/create-user": { status: 201, body: { message: "Account created" } },
    });
    const fetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      await gate;
      return fetch(...args);
    };
    const user = renderWizard();
    await toPasswordStep(user);
    const submit = screen.getByRole("button", { name: "Submit" });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText("Password"), "   ");
    expect(submit).toBeDisabled();
    await user.clear(screen.getByLabelText("Password"));
    await fill(user, "Password", "dash-secret");
    await user.click(submit);
    expect(await screen.findByRole("button", { name: "Submitting..." })).toBeDisabled();
    release();
    expect(await screen.findByRole("heading", { name: "Thank You!" })).toBeInTheDocument();
    expect(await screen.findByText("Store claim submitted!")).toBeInTheDocument();
    expect(screen.getByText("We will review your claim and get back to you soon.")).toBeInTheDocument();
    expect(screen.getByText(/will be reviewed/)).toBeInTheDocument();
    expect(screen.getByText("owner@cloudnine.test")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the store dashboard" })).toHaveAttribute("href", "/business");
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      [
        "/api/store/claim",
        {
          business_name: "Cloud Nine Vapes",
          email: "owner@cloudnine.test",
          phone: "+12125550100",
          country: "United States",
          state: "NY",
          address1: "350 5th Ave",
          city: "New York",
          postal_code: "10001",
          website: "",
          working_hours: "",
          category: "",
          licence_number: "",
          delivery_hours: "",
          curbside_pickup_hours: "",
          online_order_hours: "",
          adult_only: false,
        },
      ],
      [
        "/api/store/create-user",
        {
          store_name: "Cloud Nine Vapes",
          email: "owner@cloudnine.test",
          password: "dash-secret",
          phone_number: "+12125550100",
          referred_by: "locator-claim-form",
        },
      ],
    ]);
    expect(window.sessionStorage.length).toBe(0);
  });

  it("shows the destructive toast with the error, and a retry only re-creates the account", async () => {
    let down = true;
    const calls = stubApi({
      "POST /api/store/claim": { status: 201, body: { message: "ok", claim: { id: 1, status: "pending" } } },
      "POST /api/store/create-user": () =>
        down ? { status: 503, body: { message: "The server is busy" } } : { status: 201, body: { message: "ok" } },
    });
    const user = renderWizard();
    await toPasswordStep(user);
    await fill(user, "Password", "dash-secret");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    const toast = await screen.findByRole("alert");
    expect(toast).toHaveTextContent("Something went wrong");
    expect(toast).toHaveTextContent("Failed to submit your store claim. Please try again. The server is busy");
    expect(screen.getByRole("button", { name: "Submit" })).toBeEnabled();
    down = false;
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("heading", { name: "Thank You!" })).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(["/api/store/claim", "/api/store/create-user", "/api/store/create-user"]);
  });

  it("a second store with an existing business account's email: thanks, and points to the dashboard's sign-in", async () => {
    const calls = stubApi({
      "POST /api/store/claim": { status: 201, body: { message: "ok", claim: { id: 2, status: "pending" } } },
      "POST /api/store/create-user": {
        status: 409,
        body: { message: "A business account with this email already exists. Sign in to the store dashboard with it." },
      },
    });
    const user = renderWizard();
    await toPasswordStep(user);
    await fill(user, "Password", "dash-secret");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("heading", { name: "Thank You!" })).toBeInTheDocument();
    expect(screen.getByText("Store claim submitted!")).toBeInTheDocument();
    expect(screen.queryByText("Something went wrong")).not.toBeInTheDocument();
    expect(
      screen.getByText(
        "You already have a business account with owner@cloudnine.test. Once the claim is approved, the store appears in your store dashboard: sign in there with that account's password.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in to the store dashboard" })).toHaveAttribute("href", "/business");
    expect(screen.queryByText(/We sent a link/)).not.toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(["/api/store/claim", "/api/store/create-user"]);
    expect(window.sessionStorage.length).toBe(0);
  });

  it("step 4 takes an optional licence number and hours per service, sent with the claim", async () => {
    const calls = stubApi({
      "POST /api/store/claim": { status: 201, body: { message: "ok", claim: { id: 3, status: "pending" } } },
      "POST /api/store/create-user": { status: 201, body: { message: "ok" } },
    });
    const user = renderWizard();
    await stepOne(user);
    await stepTwo(user);
    await stepThree(user);
    await fill(user, "Licence number (optional)", " 2091234 ");
    await user.click(screen.getByText("Delivery, curbside pickup and online ordering hours (optional)"));
    await fill(user, "Delivery hours (optional)", "Mon-Fri 11am-8pm");
    await fill(user, "Online ordering hours (optional)", "Daily 8am-10pm");
    expect(screen.getByLabelText("Curbside pickup hours (optional)")).toHaveValue("");
    await user.selectOptions(screen.getByLabelText("Who may enter"), "yes");
    await stepFour(user);
    await fill(user, "Password", "dash-secret");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("heading", { name: "Thank You!" })).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({
      licence_number: "2091234",
      delivery_hours: "Mon-Fri 11am-8pm",
      curbside_pickup_hours: "",
      online_order_hours: "Daily 8am-10pm",
      adult_only: true,
    });
  });

  it("keeps what was typed across a reload, never the password", async () => {
    stubApi({});
    const user = renderWizard();
    await toPasswordStep(user);
    await fill(user, "Password", "dash-secret");
    expect(window.sessionStorage.getItem("locator:claim-wizard")).not.toContain("dash-secret");
    document.body.innerHTML = "";
    renderWizard();
    expect(screen.getByRole("img", { name: "Step 5 of 5" })).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveValue("");
    await userEvent.setup().click(screen.getByRole("button", { name: "Back" }));
    await waitFor(() => expect(screen.getByLabelText("Address")).toHaveValue("350 5th Ave"));
    expect(screen.getByLabelText("Country")).toHaveValue("United States");
  });
});
