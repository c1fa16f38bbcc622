// The Nu HTML Checker (npm `vnu-jar`, the W3C validator's engine; Java, installed by
// e2e/ensure-tools.sh like Chromium) on the server-rendered pages as served and on every screen of
// the app as Chromium renders it. Any error fails; warnings are printed.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, LIST_PATH, test } from "./fixtures.mjs";

const VNU = createRequire(import.meta.url)("vnu-jar");
test.use({ serverOptions: { stores: 300 } });

/** Runs the checker over the files; answers its messages. */
async function check(files) {
  const { stdout, stderr } = await promisify(execFile)("java", ["-jar", VNU, "--format", "json", "--exit-zero-always", ...files], {
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stderr || stdout).messages;
}

test("pages and screens are valid HTML", async ({ page, server }) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), "locator-html-"));
  const files = [];
  const save = (name, html) => {
    const file = join(dir, name.replace(/[^a-z0-9]+/gi, "_") + ".html");
    writeFileSync(file, html);
    files.push(file);
  };
  try {
    // Server-rendered: the directory down to a store, and the 404 page, as served.
    const list = await (await fetch(`${server.url}${LIST_PATH}?latitude=40.71&longitude=-74&radius=100&limit=1`)).json();
    const id = list.physical_stores[0].id;
    const storePath = new URL((await fetch(`${server.url}/stores/x/y/${id}`, { redirect: "manual" })).headers.get("location"), server.url).pathname;
    const [, state, city] = storePath.split("/").slice(1);
    for (const path of ["/stores", `/stores/${state}`, `/stores/${state}/${city}`, storePath, "/stores/zz/nowhere/nothing-999999999"]) {
      save(`page${path}`, await (await fetch(server.url + path)).text());
    }
    // A product page (the demo catalogue's first suggestion for "tobacco").
    const { products } = await (await fetch(`${server.url}/api/store/products/suggest?q=tobacco&limit=1`)).json();
    const productPath = `/products/${products[0].handle ?? encodeURIComponent(products[0].id)}`;
    save(`page${productPath}`, await (await fetch(server.url + productPath)).text());
    // The app's screens as the browser renders them.
    const screens = {
      "/": () => page.getByRole("list", { name: "Stores" }).getByRole("button").first().waitFor(),
      [`/?store=${id}`]: () => page.getByRole("heading", { level: 2 }).first().waitFor(),
      "/claim": () => page.getByRole("heading", { level: 1 }).first().waitFor(),
      "/profile": () => page.locator("main").first().waitFor(),
      "/reset-password?token=t": () => page.locator("main").first().waitFor(),
      [`/reviews?store=${id}`]: () => page.getByRole("heading").first().waitFor(),
      "/admin": () => page.getByRole("heading").first().waitFor(),
      "/business": () => page.getByRole("heading").first().waitFor(),
      "/business/reset-password?token=t": () => page.getByRole("heading").first().waitFor(),
      "/verify-email?token=t": () => page.getByRole("heading").first().waitFor(),
      "/no-such-screen": () => page.getByRole("heading", { name: "404" }).waitFor(),
    };
    const titles = new Map(); // the screen's address after any redirect -> its title
    for (const [path, ready] of Object.entries(screens)) {
      await page.goto(path);
      await ready();
      // The server's first frame paints the heading before the app runs: wait for the app's own
      // screen, which titles the document.
      await expect(page).toHaveTitle(/^.+ · Store Locator$/);
      save(`screen${path}`, "<!doctype html>\n" + (await page.evaluate(() => document.documentElement.outerHTML)));
      const url = new URL(page.url());
      titles.set(url.pathname + url.search, await page.title());
    }
    // WCAG 2.4.2: every screen says where the visitor is, in the product's name.
    for (const [where, title] of titles) expect(title, where).toMatch(/^.+ · Store Locator$/);
    expect(new Set(titles.values()).size, JSON.stringify([...titles])).toBe(titles.size);
    // The checker itself: it must refuse what the issue found (a role on a search input, sizes
    // without srcset), or a clean result would mean nothing.
    save("self-check", '<!doctype html><html lang="en"><head><title>t</title></head><body><input type="search" role="combobox" aria-expanded="false" aria-controls="x"><img src="a.png" sizes="10px" alt=""><ul id="x"></ul></body></html>');
    const all = await check(files);
    const selfCheck = all.filter((m) => m.type === "error" && m.url?.endsWith("self_check.html"));
    expect(selfCheck.length, "the checker finds the known errors of the self-check").toBeGreaterThanOrEqual(2);
    const messages = all.filter((m) => !m.url?.endsWith("self_check.html"));
    for (const m of messages.filter((m) => m.type !== "error")) console.log(`warning ${m.url?.split("/").pop()}: ${m.message}`);
    const errors = messages.filter((m) => m.type === "error").map((m) => `${m.url?.split("/").pop()}:${m.lastLine}: ${m.message} ${m.extract ?? ""}`);
    expect(errors, "Nu HTML Checker errors").toEqual([]);
    expect(files.length).toBe(18);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
