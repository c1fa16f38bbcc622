// Members' forms as a new user meets them (issue 39): a phone typed as people write it, the
// product's own messages instead of the browser's, against the real binary and Debian's Chromium.
import { expect, test as base } from "./fixtures.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const stamp = Date.now();

/** Opens the sign-up popup from the header. */
async function openSignUp(page) {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "BECOME A MEMBER" });
  await dialog.waitFor();
  return dialog;
}

/** Signs up through the popup; answers the sign-in view it moves to. */
async function signUp(page, { phone, email, password }) {
  const dialog = await openSignUp(page);
  for (const [label, value] of [["First name", "Ada"], ["Last name", "Lovelace"], ["Phone", phone], ["Email", email], ["Password", password]]) {
    await dialog.getByLabel(label, { exact: true }).pressSequentially(value);
  }
  await dialog.getByRole("button", { name: "Enter" }).click();
  const welcome = page.getByRole("dialog", { name: "Welcome back" });
  await welcome.getByRole("status").filter({ hasText: "Your account has been created. Please sign in." }).waitFor();
  return welcome;
}

test("M7: sign-up takes (212) 555-0199, and the profile shows the same number", async ({ page }) => {
  const email = `phone.${stamp}@example.com`;
  const welcome = await signUp(page, { phone: "(212) 555-0199", email, password: "tulip-lamp-7" });
  await welcome.getByLabel("Password", { exact: true }).fill("tulip-lamp-7");
  await welcome.getByRole("button", { name: "Enter" }).click();
  await welcome.waitFor({ state: "detached" });

  await page.getByRole("link", { name: "Profile" }).click();
  const phone = page.getByRole("region", { name: "Phone" });
  await expect(phone).toContainText("(212) 555-0199");
  // Editing starts from the number as shown; the same number spelled otherwise is no change.
  await page.getByRole("button", { name: "Edit phone" }).click();
  const input = page.getByRole("textbox", { name: "Phone" });
  await expect(input).toHaveValue("(212) 555-0199");
  await input.fill("");
  await input.pressSequentially("212.555.0199");
  await expect(input, "the profile keeps the separators as typed, as sign-up does").toHaveValue("212.555.0199");
  const calls = [];
  page.on("request", (r) => r.url().endsWith("/api/store/customers/me") && r.method() === "POST" && calls.push(r.postDataJSON()));
  await page.getByRole("button", { name: "Save changes" }).click();
  await input.waitFor({ state: "detached" });
  expect(calls, "the same number: no call").toEqual([]);
  // After a reload the server's copy reads the same.
  await page.reload();
  await expect(page.getByRole("region", { name: "Phone" })).toContainText("(212) 555-0199");
});

test("M7: more than 12 digits is refused with the product's message, whatever the separators", async ({ page }) => {
  const dialog = await openSignUp(page);
  await dialog.getByLabel("Phone", { exact: true }).pressSequentially("+1 (212) 555-0199 00");
  await dialog.getByRole("button", { name: "Enter" }).click();
  await expect(dialog.getByText("Phone should be less thant 12 symbols")).toBeVisible();
});

test("m21: an empty sign-up shows the product's messages, not the browser's", async ({ page }) => {
  const dialog = await openSignUp(page);
  await dialog.getByRole("button", { name: "Enter" }).click();
  for (const message of ["First name is required", "Last name is required", "Phone is required", "Email is required", "Password is required"]) {
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  }
});

test("m24: /profile signed out keeps its address, asks to sign in there, and shows the profile after it", async ({ page, server }) => {
  // The server's first frame already says it, before any script (internal/httpapi/frames/profile.html).
  const html = await (await fetch(`${server.url}/profile`)).text();
  expect(html).toContain("Sign in to see your profile</h1>");
  expect(html).not.toContain("Stores in New York</h1>");

  const email = `profile.${stamp}@example.com`;
  await signUp(page, { phone: "2125550142", email, password: "tulip-lamp-7" });
  await page.goto("/profile");
  const popup = page.getByRole("dialog", { name: "Welcome back" });
  await popup.waitFor();
  expect(new URL(page.url()).pathname).toBe("/profile");
  await expect(page).toHaveTitle(/^Your profile · Store Locator$/);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to see your profile" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Store Locator" })).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "Sign in" }).click();
  await popup.getByLabel("Email", { exact: true }).fill(email);
  await popup.getByLabel("Password", { exact: true }).fill("tulip-lamp-7");
  await popup.getByRole("button", { name: "Enter" }).click();
  await page.getByRole("heading", { level: 1, name: "My account" }).waitFor();
  await expect(page.getByRole("region", { name: "Phone" })).toContainText("(212) 555-0142");
  expect(new URL(page.url()).pathname).toBe("/profile");
});

test("m17: an unknown address, with or without an extension, shows the not-found page with the app's header", async ({ page }) => {
  for (const path of ["/no/such/page", "/old-page.html"]) {
    const answer = await page.goto(path);
    expect(answer.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Store Locator" }), `${path}: the app's header`).toBeVisible();
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("m25: the thank-you page breaks the email only where it must", async ({ page }) => {
    const email = `owner.${stamp % 100000}@harbor.test`; // fits a line of its own on a phone
    await page.goto("/claim");
    for (const [label, value] of [["Business name", "Harbor Lights"], ["Email", email], ["Phone", "+1 303 555 0100"]]) {
      await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole("button", { name: "Continue" }).click();
    }
    for (const [label, value] of [["Country", "United States"], ["State (optional)", "CO"], ["City", "Boulder"], ["Postal code", "80302"], ["Address", "1942 Broadway"]]) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
    await page.getByRole("button", { name: "Add business" }).click();
    await page.getByLabel("Password", { exact: true }).fill("harbor-tulip-7");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank You!" }).waitFor();
    const shown = page.locator("strong").filter({ hasText: "@harbor.test" });
    // Each line of the email as laid out: it may wrap where it is too long for a line of its own,
    // but never while the line before it still had room for the whole of it.
    const layout = await shown.evaluate((el) => {
      const width = el.closest("p").getBoundingClientRect().width;
      const probe = document.createElement("span");
      probe.style.whiteSpace = "nowrap";
      probe.textContent = el.textContent;
      el.after(probe);
      const natural = probe.getBoundingClientRect().width;
      probe.remove();
      return { lines: el.getClientRects().length, natural, width };
    });
    if (layout.natural <= layout.width) expect(layout.lines, `an email that fits a line (${JSON.stringify(layout)}) is not broken`).toBe(1);
    else expect(layout.lines).toBeGreaterThan(1);
  });
});
