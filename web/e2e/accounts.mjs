// End-to-end: members, password reset by email, the claim wizard and the reviews page, against
// the real binary with a real SMTP sink (tools/smtpsink), in Debian's Chromium:
//   npm run build && node e2e/accounts.mjs [name filter]
// (also run by `npm run e2e:accounts`). Popup and wizard are driven by keyboard only; axe-core
// checks each screen for serious or critical violations.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { launch } from "./browser.mjs";
import { startServer } from "./server.mjs";

const repo = resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = join(import.meta.dirname, "screenshots");
mkdirSync(SHOTS, { recursive: true });
const LIST_PATH = "/api/store/physical-store/list-physical-store/";

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** tools/smtpsink on free ports: { smtp: "HOST:PORT", http: "http://HOST:PORT", messages(), stop() }. */
async function startSink(dir) {
  const bin = join(dir, "smtpsink");
  execFileSync("go", ["build", "-o", bin, "./tools/smtpsink"], { cwd: repo, stdio: "inherit" });
  const child = spawn(bin, [], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`smtpsink did not start: ${out}`)), 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /smtp=(\S+) http=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ smtp: m[1], http: m[2] });
      }
    });
    child.on("exit", (code) => fail(new Error(`smtpsink exited with ${code}`)));
  });
  return {
    ...line,
    async messages() {
      return (await fetch(`${line.http}/messages`)).json();
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.on("exit", done);
        child.kill("SIGTERM");
      }),
  };
}

async function openPage(ctx, path = "/") {
  const { context, close } = await launch({ viewport: { width: 1280, height: 800 }, locale: "en-US", timezoneId: "America/New_York" });
  const page = context.pages()[0] ?? (await context.newPage());
  page.errors = [];
  page.alerts = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("dialog", (d) => {
    page.alerts.push(d.message());
    void d.accept();
  });
  await page.goto(ctx.url + path);
  return { page, close };
}

async function axe(page, label) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE); // the CSP allows no inline <script>
  const result = await page.evaluate(async () => {
    // axe is the script evaluated above.
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad, [], `${label}: serious or critical axe violations:\n${JSON.stringify(bad, null, 2)}`);
}

/** Presses Tab until `locator` has focus (at most `max` times): keyboard-only navigation. */
async function tabTo(page, locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await locator.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`could not reach ${locator} with Tab`);
}

const focusedName = (page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") || document.activeElement?.textContent?.trim() || document.activeElement?.tagName);

async function waitForAlert(page, text) {
  for (let i = 0; i < 100 && !page.alerts.includes(text); i++) await page.waitForTimeout(100);
  assert.ok(page.alerts.includes(text), `alert ${JSON.stringify(text)}; got ${JSON.stringify(page.alerts)}`);
}

const member = {
  first: "Ada",
  last: "Lovelace",
  phone: "+15550100",
  email: `ada.${Date.now()}@example.com`,
  password: "first-secret-1",
};

/** Keyboard only: from the header's Sign in button to a signed-in header. */
async function signIn(page, email, password) {
  await tabTo(page, page.getByRole("button", { name: "Sign in", exact: true }));
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.waitFor();
  assert.equal(await focusedName(page), "INPUT");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Favorites" }).waitFor();
}

test("member: sign up and sign in by keyboard, favourite a store, see and remove it, edit the profile, sign out", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.getByText("Showing results 1-20").waitFor();

  // Sign up, keyboard only; the popup keeps focus inside and Escape returns it to the opener.
  const signUpButton = page.getByRole("button", { name: "Sign up", exact: true });
  await tabTo(page, signUpButton);
  await page.keyboard.press("Enter");
  const signUp = page.getByRole("dialog", { name: "BECOME A MEMBER" });
  await signUp.waitFor();
  await axe(page, "sign-up popup");
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    assert.equal(await signUp.evaluate((d) => d.contains(document.activeElement)), true, "focus stays in the popup");
  }
  await page.keyboard.press("Escape");
  await signUp.waitFor({ state: "detached" });
  assert.equal(await signUpButton.evaluate((el) => el === document.activeElement), true, "focus back on Sign up");
  await page.keyboard.press("Enter");
  await signUp.waitFor();
  for (const value of [member.first, member.last, member.phone, member.email, member.password]) {
    await page.keyboard.type(value);
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Enter"); // the Enter button
  await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
  await page.keyboard.press("Escape");

  // A second sign-up with the same email shows the server's message.
  await signUpButton.click();
  for (const [label, value] of [["First name", "X"], ["Last name", "Y"], ["Phone", "+1555"], ["Email", member.email], ["Password", "another-secret"]]) {
    await signUp.getByLabel(label, { exact: true }).fill(value);
  }
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/store/customers") && r.request().method() === "POST"),
    signUp.getByRole("button", { name: "Enter" }).click(),
  ]);
  const { message } = await answer.json();
  assert.ok(answer.status() >= 400 && message, "duplicate sign-up fails with a message");
  assert.equal(await signUp.getByRole("alert").innerText(), message);
  await signUp.getByRole("button", { name: "Close" }).click();

  // Wrong password: the one credentials message.
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const signInDialog = page.getByRole("dialog", { name: "Welcome back" });
  await signInDialog.getByLabel("Email", { exact: true }).fill(member.email);
  await signInDialog.getByLabel("Password", { exact: true }).fill("wrong-password");
  await signInDialog.getByRole("button", { name: "Enter" }).click();
  await signInDialog.getByText("These credentials do not match our records").waitFor();
  await axe(page, "sign-in popup with an error");
  await page.keyboard.press("Escape");

  await signIn(page, member.email, member.password);

  // Favourite the first store from the detail panel.
  const storeButton = page.getByRole("list", { name: "Stores" }).getByRole("button").first();
  const storeName = (await storeButton.locator("span").first().innerText()).trim();
  await storeButton.click();
  await page.getByRole("heading", { level: 2, name: storeName }).waitFor();
  const fav = page.getByRole("button", { name: "Favorite", exact: true });
  const [added] = await Promise.all([page.waitForResponse((r) => r.url().includes("/customers/add-favorite-phstore")), fav.click()]);
  assert.equal(added.status(), 200);
  assert.equal(await fav.getAttribute("aria-pressed"), "true");

  // It is in the favourites popup (also after a reload: the server kept it); the heart removes it.
  await page.reload();
  await page.getByRole("button", { name: "Favorites" }).click();
  const favorites = page.getByRole("dialog", { name: "Favorites" });
  await favorites.getByRole("list", { name: "Favorite stores" }).getByText(storeName).waitFor();
  await axe(page, "favorites popup");
  const [removed] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/customers/remove-favorite-phstore")),
    favorites.getByRole("button", { name: `Remove ${storeName} from favorites` }).click(),
  ]);
  assert.equal(removed.status(), 200);
  await favorites.getByText("There is no favorite stores").waitFor();
  await favorites.getByRole("button", { name: "Close" }).click();

  // Profile: name, phone, password.
  await page.getByRole("link", { name: "Profile" }).click();
  await page.getByRole("heading", { name: "My account" }).waitFor();
  await axe(page, "profile");
  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByLabel("First name", { exact: true }).fill("Augusta");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.getByRole("region", { name: "Name" }).getByText("Augusta Lovelace").waitFor();
  await page.getByRole("button", { name: "Edit phone" }).click();
  const phone = page.getByRole("textbox", { name: "Phone" });
  await phone.fill("");
  await phone.pressSequentially("+1 (212) 555-0199");
  assert.equal(await phone.inputValue(), "+12125550199");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.getByRole("region", { name: "Phone" }).getByText("+12125550199").waitFor();
  await page.getByRole("button", { name: "Edit password" }).click();
  await page.getByLabel("Old password", { exact: true }).fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("second-secret-2");
  await page.getByLabel("Confirm new password", { exact: true }).fill("second-secret-2");
  await page.getByRole("button", { name: "Save changes" }).click();
  await waitForAlert(page, "Reset password has been failed. Make sure you use existing user email.");
  await page.getByLabel("Old password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Save changes" }).click();
  await waitForAlert(page, "Password updated");
  await page.getByLabel("Old password", { exact: true }).waitFor({ state: "detached" });

  // The server kept the changes.
  await page.reload();
  await page.getByRole("region", { name: "Name" }).getByText("Augusta Lovelace").waitFor();
  await page.getByRole("region", { name: "Phone" }).getByText("+12125550199").waitFor();

  // Sign out: back to /, signed out; /profile then opens the sign-in popup on /.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
  await page.goto(ctx.url + "/profile");
  await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  await page.keyboard.press("Escape");

  // The new password works.
  await signIn(page, member.email, "second-secret-2");
  member.password = "second-secret-2";
  assert.deepEqual(page.errors, []);
  await close();
});

test("password reset: request by keyboard, read the email from the sink, open its link, set a new password, sign in", async (ctx) => {
  const { page, close } = await openPage(ctx);
  await page.getByText("Showing results 1-20").waitFor();
  await tabTo(page, page.getByRole("button", { name: "Sign in", exact: true }));
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
  await tabTo(page, page.getByRole("button", { name: "Reset" }));
  await page.keyboard.press("Enter");
  const reset = page.getByRole("dialog", { name: "Reset your password" });
  await reset.waitFor();
  await axe(page, "reset popup");
  await page.keyboard.type(`  ${member.email} `);
  await page.keyboard.press("Enter");
  const sent = page.getByRole("dialog", { name: "Check yor email" });
  await sent.waitFor();
  await sent.getByText(member.email, { exact: true }).waitFor();
  await axe(page, "reset link sent popup");
  await page.keyboard.press("Enter"); // Back to login page has focus
  await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
  await page.keyboard.press("Escape");

  let mail;
  for (let i = 0; i < 100 && !mail; i++) {
    mail = (await ctx.sink.messages()).find((m) => m.to.includes(member.email) && /reset-password\?token=/.test(m.text));
    if (!mail) await page.waitForTimeout(200);
  }
  assert.ok(mail, "the reset mail reached the sink");
  const link = /(http:\/\/\S+\/reset-password\?token=[^\s"<>]+)/.exec(mail.text)[1];
  assert.ok(link.startsWith(ctx.url), `link ${link} points at ${ctx.url}`);

  await page.goto(link);
  await page.getByRole("heading", { name: "Set a new password" }).waitFor();
  await axe(page, "reset password page");
  // Different passwords: nothing happens.
  await page.getByLabel("Email", { exact: true }).fill(member.email);
  await page.getByLabel("New password", { exact: true }).fill("third-secret-3");
  await page.getByLabel("Confirm new password", { exact: true }).fill("third-secret-x");
  await page.getByRole("button", { name: "Reset password" }).click();
  await page.waitForTimeout(500);
  assert.deepEqual(page.alerts, []);
  await page.getByLabel("Confirm new password", { exact: true }).fill("third-secret-3");
  await page.getByRole("button", { name: "Reset password" }).click();
  await waitForAlert(page, "Password has been reset.  Now you can login");
  await page.waitForURL((u) => u.pathname === "/");

  // The link is single use.
  await page.goto(link);
  await page.getByLabel("Email", { exact: true }).fill(member.email);
  await page.getByLabel("New password", { exact: true }).fill("fourth-secret-4");
  await page.getByLabel("Confirm new password", { exact: true }).fill("fourth-secret-4");
  await page.getByRole("button", { name: "Reset password" }).click();
  await waitForAlert(page, "Reset password has been failed. Make sure you use existing user email.");

  await page.goto(ctx.url + "/");
  await signIn(page, member.email, "third-secret-3");
  assert.deepEqual(page.errors, []);
  await close();
});

const business = {
  name: `Harbor Lights Vapes ${Date.now() % 100000}`,
  email: `owner.${Date.now()}@harbor.test`,
  phone: "+12125550142",
  country: "United States",
  state: "NY",
  city: "New York",
  postal: "10118",
  address: "350 5th Ave",
  hours: "Mon-Sat 9am-9pm, Sun closed",
};

test("claim: all steps by keyboard (a reload keeps the draft), approve on the command line, find the store near its address", async (ctx) => {
  const { page, close } = await openPage(ctx, "/claim");
  const title = page.locator("#claim-title");
  await page.getByRole("heading", { name: "What is the name of your business?" }).waitFor();
  await axe(page, "claim step 1");
  const cont = page.getByRole("button", { name: "Continue" });
  assert.equal(await cont.isDisabled(), true);
  await page.keyboard.type(business.name); // the field has focus
  await page.keyboard.press("Enter");
  await page.getByRole("img", { name: "Step 2 of 5" }).waitFor();
  await page.keyboard.type("owner-at-harbor.test");
  assert.equal(await cont.isDisabled(), true, "no @: Continue disabled");
  await page.keyboard.press("Control+A");
  await page.keyboard.type(business.email);
  await page.keyboard.press("Enter");
  await page.getByRole("img", { name: "Step 3 of 5" }).waitFor();
  await page.keyboard.type(business.phone);

  // A reload keeps the step and what was typed.
  await page.reload();
  await page.getByRole("img", { name: "Step 3 of 5" }).waitFor();
  assert.equal(await page.getByLabel("Phone", { exact: true }).inputValue(), business.phone);
  await page.getByLabel("Phone", { exact: true }).focus();
  await page.keyboard.press("Enter");

  await page.getByRole("heading", { name: "Business information" }).waitFor();
  await axe(page, "claim step 4");
  const add = page.getByRole("button", { name: "Add business" });
  // Country, State, City, Postal code, Address, Category, Web address, Working hours, in Tab order.
  await page.keyboard.type(business.country);
  await page.keyboard.press("Tab");
  await page.keyboard.type(business.state);
  await page.keyboard.press("Tab");
  await page.keyboard.type(business.city);
  await page.keyboard.press("Tab");
  await page.keyboard.type(business.postal);
  await page.keyboard.press("Tab");
  assert.equal(await add.isDisabled(), true, "address missing: Add business disabled");
  await page.keyboard.type(business.address);
  await page.keyboard.press("Tab");
  await page.keyboard.press("ArrowDown"); // category: the first one
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.type(business.hours);
  await page.screenshot({ path: join(SHOTS, "claim-step4-1280x800.png") });
  await tabTo(page, add);
  await page.keyboard.press("Enter");

  await page.getByRole("img", { name: "Step 5 of 5" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Submit" }).isDisabled(), true);
  // Back one step keeps the values, then forward again.
  await tabTo(page, page.getByRole("button", { name: "Back" }));
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Business information" }).waitFor();
  assert.equal(await page.getByLabel("Address", { exact: true }).inputValue(), business.address);
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  await page.getByRole("img", { name: "Step 5 of 5" }).waitFor();
  await page.keyboard.type("dashboard-secret-1");
  const [claimed, account] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/store/claim")),
    page.waitForResponse((r) => r.url().endsWith("/api/store/create-user")),
    page.keyboard.press("Enter"),
  ]);
  assert.equal(claimed.status(), 201);
  assert.equal(account.status(), 201);
  await page.getByRole("heading", { name: "Thank You!" }).waitFor();
  await page.getByText("Store claim submitted!").waitFor();
  await page.getByText("We will review your claim and get back to you soon.").waitFor();
  assert.equal(await title.count(), 0);
  await page.waitForTimeout(600); // the toast's fade-in
  await page.screenshot({ path: join(SHOTS, "claim-thank-you-1280x800.png") });
  await axe(page, "claim thank you");

  // A second attempt with the same email: the destructive toast with the server's message.
  await page.evaluate(() => window.sessionStorage.clear());
  await page.goto(ctx.url + "/claim");
  for (const [label, value] of [["Business name", business.name + " Two"], ["Email", business.email], ["Phone", business.phone]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  for (const [label, value] of [["Country", business.country], ["City", business.city], ["Postal code", business.postal], ["Address", "1 Other St"]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await add.click();
  await page.getByLabel("Password", { exact: true }).fill("dashboard-secret-2");
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByText("Something went wrong").waitFor();
  await page.getByText(/^Failed to submit your store claim\. Please try again\. .+/).waitFor();
  await page.waitForTimeout(600);
  await axe(page, "claim failure toast");

  // Approve the first claim on the command line.
  const claims = JSON.parse(execFileSync(ctx.server.bin, ["claims", "list", "--json", "--database-url", ctx.server.db], { encoding: "utf8" }));
  const claim = claims.find((c) => c.business_name === business.name);
  assert.ok(claim, `claim listed: ${JSON.stringify(claims)}`);
  execFileSync(ctx.server.bin, ["claims", "approve", String(claim.id), "--database-url", ctx.server.db], { stdio: "inherit" });

  // The store is listed near its address (postal code 10118, Midtown Manhattan).
  let store;
  for (let i = 0; i < 50 && !store; i++) {
    const res = await fetch(`${ctx.url}${LIST_PATH}?latitude=40.7484&longitude=-73.9857&radius=30&limit=200`);
    store = (await res.json()).physical_stores.find((s) => s.name === business.name);
    if (!store) await page.waitForTimeout(200);
  }
  assert.ok(store, "approved store is searchable near its address");
  assert.ok(store.distance < 5, `within 5 miles of the address: ${store.distance}`);
  await page.goto(`${ctx.url}/?lat=${store.latitude}&lon=${store.longitude}&place=${encodeURIComponent("New York 10118")}`);
  const listed = page.getByRole("list", { name: "Stores" }).getByRole("button", { name: new RegExp(business.name) });
  await listed.first().waitFor();
  await listed.first().click();
  await page.getByRole("heading", { level: 2, name: business.name }).waitFor();
  assert.deepEqual(page.errors, []);
  await close();
});

test("reviews page: store name, summary and reviews, newest first, more on demand", async (ctx) => {
  const res = await fetch(`${ctx.url}${LIST_PATH}?latitude=40.7128&longitude=-74.006&radius=30&limit=50`);
  const store = (await res.json()).physical_stores.find((s) => s.review_count > 10);
  assert.ok(store, "a demo store with more than 10 reviews");
  const { page, close } = await openPage(ctx, `/reviews?store=${store.id}`);
  await page.getByRole("heading", { level: 1, name: store.name }).waitFor();
  await page.getByRole("heading", { name: "Reviews summary" }).waitFor();
  assert.equal(await page.getByRole("list", { name: "Ratings" }).getByRole("listitem").count(), 5);
  const times = async () => page.locator("main li time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime")));
  const first = await times();
  assert.ok(first.length > 0);
  assert.deepEqual([...first].sort().reverse(), first, "newest first");
  await axe(page, "reviews page");
  await page.getByRole("button", { name: "Show more reviews" }).click();
  await page.waitForFunction((n) => document.querySelectorAll("main li time").length > n, first.length);
  const all = await times();
  assert.deepEqual([...all].sort().reverse(), all, "newest first across pages");
  await page.screenshot({ path: join(SHOTS, "reviews-1280x800.png") });
  await close();
});

// --- runner
const only = process.argv[2];
// A stray rejection fails the run but never skips stopping the server and the sink.
process.on("unhandledRejection", (error) => console.log(`unhandled rejection: ${error?.stack ?? error}`));
const dir = mkdtempSync(join(tmpdir(), "locator-e2e-accounts-"));
const sink = await startSink(dir);
const port = await freePort();
const server = await startServer({
  stores: 1000,
  port,
  env: { LOCATOR_SMTP_URL: `smtp://${sink.smtp}?starttls=off`, LOCATOR_PUBLIC_URL: `http://127.0.0.1:${port}` },
});
const ctx = { url: server.url, server, sink };
let failed = 0;
console.log(`e2e (accounts, claim, reviews) against ${server.url}, mail sink ${sink.http}`);
try {
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const started = Date.now();
    try {
      await t.fn(ctx);
      console.log(`  ok   ${t.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`  FAIL ${t.name}\n${String(error?.stack ?? error).replace(/^/gm, "       ")}`);
    }
  }
} finally {
  await server.stop();
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed ? `${failed} e2e scenario(s) failed` : "all e2e scenarios passed");
process.exit(failed ? 1 : 0);
