// The widget (docs/embed.md) in Chromium against the real binary: a plain HTML page served from
// another origin (another port of 127.0.0.1) embeds it with one script tag and a product; the
// iframe shows only the stores that pass the compliance rule and have the product in stock, says
// so, sizes itself to its content, sets no cookie, writes no storage and asks nothing of any host
// but the locator's. A page of an origin that is not on the partner's list gets no widget: the
// browser refuses the frame (frame-ancestors). New York City's licence registry (the licences
// package's test file) is loaded, so stores in its area need an active licence to be listed.
import { createServer } from "node:http";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { launch } from "./browser.mjs";
import { addModerator, expect, LIST_PATH, test } from "./fixtures.mjs";
import { repo } from "./server.mjs";

const EMAIL = "widget-mod@example.com";
const PASSWORD = "widget-moderator-pass";
const CHELSEA = { lat: 40.7437, lon: -73.9935 };

test.use({
  serverOptions: {
    stores: 3000,
    prepare: (opts) => {
      addModerator(EMAIL, PASSWORD)(opts);
      // The test file holds refused rows on purpose: the import exits 1 for them and keeps the good ones.
      const run = spawnSync(
        opts.bin,
        ["licences", "import", "--source", "nyc-dcwp", "--date", "2026-11-24", "--database-url", opts.db, resolve(repo, "internal/licences/testdata/nyc-dcwp.csv")],
        { cwd: opts.dir, encoding: "utf8" },
      );
      if (run.status !== 0 && run.status !== 1) throw new Error(`licences import: ${run.status} ${run.stderr}`);
    },
  },
});

/** A plain page on its own port: `/` holds `html`. Answers its origin and a stop. */
async function hostPage(html) {
  const server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

/** A partner with these allowed origins (and brands), made by a moderator through the admin API; answers its slug. */
async function makePartner(server, slug, origins, brands = []) {
  const signIn = await fetch(`${server.url}/api/admin/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const made = await fetch(`${server.url}/api/admin/partners`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify({ name: `Widget ${slug}`, slug, kind: "brand", allowed_origins: origins, brands }),
  });
  expect(made.status, await made.clone().text()).toBe(201);
  return slug;
}

async function list(server, params) {
  const query = new URLSearchParams({ latitude: CHELSEA.lat, longitude: CHELSEA.lon, radius: "30", limit: "200", ...params });
  const res = await fetch(`${server.url}${LIST_PATH}?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).physical_stores;
}

/** A demo tobacco product in stock near Chelsea where the rule leaves some stores out and keeps some. */
async function productWithCompliantStores(server) {
  const res = await fetch(`${server.url}/api/store/products/suggest?q=tobacco&limit=20`);
  const { products } = await res.json();
  for (const product of products) {
    const all = await list(server, { product: product.id, in_stock: "true" });
    const kept = await list(server, { product: product.id, in_stock: "true", compliant: "true" });
    const keptIds = new Set(kept.map((s) => s.id));
    if (kept.length >= 2 && all.some((s) => !keptIds.has(s.id))) return { product, kept, all };
  }
  throw new Error("no demo tobacco product near Chelsea has stores the compliance rule keeps and leaves out");
}

const snippet = (locator, partner, product, extra = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme: where to buy</title></head><body>` +
  `<h1>Acme Classic</h1><p>Find it near you:</p>` +
  `<script src="${locator}/embed.js" data-partner="${partner}" data-product="${product}" data-in_stock="1" ` +
  `data-lat="${CHELSEA.lat}" data-lng="${CHELSEA.lon}" data-view="list" ${extra}></script><p>Footer of the shop</p></body></html>`;

test("a partner's page embeds the widget: only compliant stores in stock, no cookie, no storage, no other host", async ({ page, context, server }) => {
  const { product, kept, all } = await productWithCompliantStores(server);
  const host = await hostPage(snippet(server.url, "acme-where", product.id, 'data-theme="#7c3aed"'));
  await makePartner(server, "acme-where", [host.origin]);
  try {
    const requests = [];
    context.on("request", (r) => requests.push({ url: r.url(), main: r.frame() === page.mainFrame() }));
    await page.goto(host.origin);
    const widget = page.frameLocator("iframe");
    await expect(widget.getByText("Showing licensed stores where this product may be sold")).toBeVisible();
    const rows = widget.getByRole("list", { name: "Stores" }).getByRole("listitem");
    await expect(rows.first()).toBeVisible();
    // Exactly the server's compliant answer, in its order, each in stock (or limited) with a price.
    const shown = await rows.locator('[data-part="name"]').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(kept.slice(0, shown.length).map((s) => s.name));
    const left = all.filter((s) => !kept.some((k) => k.id === s.id)).map((s) => s.name);
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(shown).not.toContain(name);
    await expect(rows.first()).toContainText(/In stock|Limited/);
    await expect(rows.first()).toContainText("$");
    await expect(rows.first()).toContainText(/updated|last reported/);

    // The frame took its content's height (postMessage), not the snippet's 640 px.
    const iframe = page.locator("iframe");
    await expect.poll(() => iframe.evaluate((el) => el.style.height)).not.toBe("640px");
    // The partner's colour is the widget's accent.
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed?`));
    expect(frame).toBeTruthy();
    expect(await frame.evaluate(() => document.documentElement.style.getPropertyValue("--color-emerald-700"))).toBe("#7c3aed");

    // Open a store: its panel, without the site's favourite, share or sign-in.
    await rows.first().getByRole("button").first().click();
    await expect(widget.getByRole("button", { name: "Back to results" })).toBeVisible();
    await expect(widget.getByRole("button", { name: "Favorite" })).toHaveCount(0);

    // Nothing kept in the browser, by the widget or for it.
    expect(await context.cookies()).toEqual([]);
    const storage = await frame.evaluate(async () => ({
      cookie: document.cookie,
      local: localStorage.length,
      session: sessionStorage.length,
      idb: (await indexedDB.databases()).length,
    }));
    expect(storage).toEqual({ cookie: "", local: 0, session: 0, idb: 0 });

    // Every request: the host page's own, and the widget's to the locator alone.
    const network = requests.filter((r) => /^https?:/.test(r.url));
    expect(network.some((r) => !r.main && r.url.startsWith(`${server.url}/api/`))).toBe(true);
    for (const r of network) {
      const origin = new URL(r.url).origin;
      expect([host.origin, server.url], r.url).toContain(origin);
      if (!r.main) expect(origin, r.url).toBe(server.url);
    }
  } finally {
    await host.stop();
  }
});

test("a brand's button by brand alone: the chooser picks the brand's products and the list shows compliant stores in stock", async ({ page, server }) => {
  const { product, kept, all } = await productWithCompliantStores(server);
  const brand = product.brand;
  const page_ =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${brand}: where to buy</title></head><body>` +
    `<script src="${server.url}/embed.js" data-partner="brand-only" data-brand="${brand}" data-in_stock="1" ` +
    `data-lat="${CHELSEA.lat}" data-lng="${CHELSEA.lon}" data-view="list"></script></body></html>`;
  const host = await hostPage(page_);
  await makePartner(server, "brand-only", [host.origin], [brand]);
  try {
    // Another brand than the partner's is refused with the one-line page.
    const refused = await fetch(`${server.url}/embed?partner=brand-only&brand=${encodeURIComponent(`${brand} Other`)}`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("brand must be one of the partner&#39;s brands");

    const offered = await (await fetch(`${server.url}/api/store/brand-products?brand=${encodeURIComponent(brand)}&partner=brand-only`)).json();
    const ids = offered.products.map((p) => p.id);
    expect(ids).toContain(product.id);

    await page.goto(host.origin);
    const widget = page.frameLocator("iframe");
    const chooser = widget.getByRole("combobox", { name: `${offered.brand} product` });
    await expect(chooser).toBeVisible();
    await expect(widget.getByText("Showing licensed stores where this product may be sold")).toBeVisible();
    // The server's order, the first chosen without a click; no product search box of its own.
    expect(await chooser.locator("option").evaluateAll((os) => os.map((o) => o.value))).toEqual(ids);
    await expect(chooser).toHaveValue(ids[0]);
    await expect(widget.getByRole("combobox", { name: "Search for a product" })).toHaveCount(0);
    const rows = widget.getByRole("list", { name: "Stores" }).getByRole("listitem");
    const firstKept = await list(server, { product: ids[0], in_stock: "true", compliant: "true" });
    if (firstKept.length > 0) await expect(rows.first().locator('[data-part="name"]')).toHaveText(firstKept[0].name);

    // Another product: the list changes in place to its compliant stores in stock.
    await chooser.selectOption(product.id);
    await expect(chooser).toHaveValue(product.id);
    await expect(rows.first().locator('[data-part="name"]')).toHaveText(kept[0].name);
    const shown = await rows.locator('[data-part="name"]').allTextContents();
    expect(shown).toEqual(kept.slice(0, shown.length).map((s) => s.name));
    for (const s of all.filter((s) => !kept.some((k) => k.id === s.id))) expect(shown).not.toContain(s.name);
    await expect(rows.first()).toContainText(/In stock|Limited/);
    await expect(rows.first()).toContainText("$");
    // The address keeps the widget's own options: a reload is still the partner's widget.
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/embed?`));
    const address = new URL(frame.url()).searchParams;
    expect([address.get("partner"), address.get("brand"), address.get("product")]).toEqual(["brand-only", brand, product.id]);
  } finally {
    await host.stop();
  }
});

test("a site that is not on the partner's list gets no widget: the browser refuses the frame", async ({ server }) => {
  const listed = await hostPage("<!doctype html><title>listed</title>");
  const partner = await makePartner(server, "acme-refused", [listed.origin]);
  const other = await hostPage(snippet(server.url, partner, "kp-classic-5"));
  // A browser of its own: the refusal is a CSP report, which the shared fixture counts as a failure.
  const browser = await launch({ viewport: { width: 1280, height: 800 } });
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const answer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/embed?`));
    await page.goto(other.origin);
    const res = await answer;
    expect(res.status()).toBe(200);
    const csp = res.headers()["content-security-policy"];
    expect(csp).toContain(`frame-ancestors ${listed.origin}`);
    expect(csp).not.toContain(other.origin);
    expect(res.headers()["x-frame-options"]).toBeUndefined();
    // The frame holds no app: no locator text ever renders in it.
    await expect.poll(() => browser.cspViolations.join("\n")).toContain("frame-ancestors");
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const text = frame ? await frame.evaluate(() => document.body?.innerText ?? "").catch(() => "") : "";
    expect(text).not.toContain("Showing licensed stores");
    expect(text).not.toContain("Stores in");
    // The page itself is untouched.
    await expect(page.getByText("Footer of the shop")).toBeVisible();
  } finally {
    await browser.close();
    await listed.stop();
    await other.stop();
  }
});
