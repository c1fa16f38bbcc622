// End-to-end check of the /admin moderation page against the real binary, on its own:
//   npm run build && node e2e/admin.mjs
// Builds the binary (or uses LOCATOR_BIN), seeds a temporary SQLite database with demo stores,
// creates a moderator with `locator moderators add` (LOCATOR_MODERATOR_PASSWORD), submits a claim
// through the API, then signs in at /admin in Debian's Chromium (375 px wide), moves the marker,
// approves, and checks the store is listed near the approved position.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, request as httpRequest } from "playwright-core";
import { watchCsp } from "./browser.mjs";

const repo = resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const SHOTS = join(import.meta.dirname, "screenshots");
const CHROMIUM = process.env.CHROME_PATH || "/usr/bin/chromium";
const EMAIL = "moderator@example.com";
const PASSWORD = "correct horse battery staple";
const LIST_PATH = "/api/store/physical-store/list-physical-store/";

async function startServer(dir) {
  if (!existsSync(resolve(repo, "web/dist/index.html"))) throw new Error("web/dist/index.html is missing: run `npm run build` first");
  let bin = process.env.LOCATOR_BIN;
  if (!bin) {
    bin = join(dir, "locator");
    console.log("building the locator binary...");
    execFileSync("go", ["build", "-o", bin, "./cmd/locator"], { cwd: repo, stdio: "inherit" });
  }
  const db = `sqlite:${join(dir, "db")}`;
  execFileSync(bin, ["seed", "--demo", "--stores", "200", "--database-url", db], { cwd: dir, stdio: "ignore" });
  execFileSync(bin, ["moderators", "add", EMAIL, "--database-url", db], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, LOCATOR_MODERATOR_PASSWORD: PASSWORD },
  });
  const child = spawn(bin, ["serve", "--no-seed", "--addr", "127.0.0.1:0", "--database-url", db], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s:\n${out}\n${stderr}`)), 60_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /Locator is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1].replace(/\/$/, ""));
      }
    });
    child.on("exit", (code) => fail(new Error(`server exited with ${code}:\n${out}\n${stderr}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.on("exit", done);
        child.kill("SIGTERM");
      }),
  };
}

async function axe(page, label) {
  await page.evaluate(AXE); // not a <script> element: the page's CSP allows no inline script
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  assert.deepEqual(violations, [], `${label}: axe violations:\n${JSON.stringify(violations, null, 2)}`);
}

const dir = mkdtempSync(join(tmpdir(), "locator-e2e-admin-"));
const profile = mkdtempSync(join(tmpdir(), "locator-chromium-"));
mkdirSync(SHOTS, { recursive: true });
const server = await startServer(dir);
let context;
try {
  console.log(`e2e (admin) against ${server.url}`);
  // A claim, as the claim form would send it (Boulder, CO: the offline gazetteer geocodes the ZIP).
  const api = await httpRequest.newContext({ baseURL: server.url });
  const name = `E2E Moderated Books ${Date.now()}`;
  const submitted = await api.post("/api/store/claim", {
    data: {
      business_name: name,
      email: "owner@example.com",
      phone: "+1 303 555 0100",
      country: "United States",
      state: "CO",
      address1: "1942 Broadway",
      city: "Boulder",
      postal_code: "80302",
      website: "https://books.example",
      working_hours: "Mon-Fri 9am-6pm, Sat 10am-4pm, Sun closed",
      category: "Books",
    },
  });
  assert.equal(submitted.status(), 201, await submitted.text());
  const claimId = (await submitted.json()).claim.id;

  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    viewport: { width: 375, height: 740 },
    locale: "en-US",
  });
  await watchCsp(context);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/admin`);

  // Wrong password, then the right one.
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").filter({ hasText: "Could not sign in" }).waitFor();
  await axe(page, "sign-in");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();

  const list = page.getByRole("list", { name: "Claims" });
  await list.getByRole("button", { name: new RegExp(name) }).click();
  await page.getByRole("heading", { level: 2, name }).waitFor();
  assert.equal(await page.getByText("Yes: read as weekly hours").count(), 1);
  const lat0 = Number(await page.getByLabel("Latitude").inputValue());
  const lon0 = Number(await page.getByLabel("Longitude").inputValue());
  assert.ok(Math.abs(lat0 - 40.0) < 0.3 && Math.abs(lon0 + 105.27) < 0.3, `geocoded near Boulder: ${lat0}, ${lon0}`);

  // Drag the marker 40 px right and 30 px down: the fields follow.
  const marker = page.getByRole("img", { name: "Store location (drag to move)" });
  await marker.waitFor({ timeout: 20_000 });
  await page.locator(".maplibregl-canvas").waitFor();
  await page.getByRole("region", { name: "Map of the claimed store's location" }).scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  const box = await marker.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 15, { steps: 5 });
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 5 });
  await page.mouse.up();
  const lat = Number(await page.getByLabel("Latitude").inputValue());
  const lon = Number(await page.getByLabel("Longitude").inputValue());
  assert.ok(lat < lat0 && lon > lon0, `the marker moved south-east: ${lat0},${lon0} -> ${lat},${lon}`);
  await page.screenshot({ path: join(SHOTS, "admin-claim-375.png"), fullPage: true });
  await axe(page, "claim detail");

  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/admin/claims/${claimId}/approve`)),
    page.getByRole("button", { name: "Approve", exact: true }).click(),
  ]);
  assert.equal(answer.status(), 200);
  assert.deepEqual(JSON.parse(answer.request().postData()), { latitude: lat, longitude: lon });
  await page.getByRole("status").filter({ hasText: `Approved claim #${claimId}` }).waitFor();
  // The list is refetched after the notice shows: wait for it to drop the claim.
  await list.getByRole("button", { name: new RegExp(name) }).waitFor({ state: "detached", timeout: 10_000 });
  assert.equal(await list.getByRole("button", { name: new RegExp(name) }).count(), 0, "the pending list no longer has the claim");

  // The search index picks up new stores on its next poll (--sync-interval, 1 s by default).
  let found;
  for (let i = 0; i < 20 && !found; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 500));
    const near = await api.get(`${LIST_PATH}?latitude=${lat}&longitude=${lon}&radius=5`);
    assert.equal(near.status(), 200);
    found = (await near.json()).physical_stores.find((s) => s.name === name);
  }
  assert.ok(found, "the approved store is listed near its position within 10 s");
  assert.ok(Math.abs(found.latitude - lat) < 1e-5 && Math.abs(found.longitude - lon) < 1e-5, "at the approved coordinates");

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Moderator sign-in" }).waitFor();
  assert.equal((await api.get("/api/admin/claims")).status(), 401, "no moderator session in the request context");
  assert.deepEqual(errors, []);
  await api.dispose();
  console.log("  ok   moderator approves a claim at a moved position; the store is listed there");
} finally {
  await context?.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
