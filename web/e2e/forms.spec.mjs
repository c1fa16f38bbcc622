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
