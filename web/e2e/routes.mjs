// Every route of the product, for the suites that visit them all (console.spec.mjs) and the
// Lighthouse category check (scripts/lighthouse-check.mjs): the app's screens, a store page and
// the directories, with the ids the demo data gives them.

/** The path of the first store page the sitemap lists (e.g. /stores/ny/new-york/some-store-12). */
export async function firstStorePath(baseUrl) {
  const index = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const child = [...index.matchAll(/<loc>([^<]*stores-\d+\.xml)<\/loc>/g)][0][1];
  return new URL([...(await (await fetch(child)).text()).matchAll(/<loc>([^<]*)<\/loc>/g)][0][1]).pathname;
}

/**
 * The routes, each `{ name, path, ready }`: `ready` names what shows once the screen is drawn
 * (a Playwright role locator's arguments).
 */
export async function productRoutes(baseUrl) {
  const store = await firstStorePath(baseUrl);
  const storeId = /-(\d+)$/.exec(store)[1];
  const state = store.split("/").slice(0, 3).join("/");
  const city = store.split("/").slice(0, 4).join("/");
  return [
    { name: "locator", path: "/", ready: ["list", { name: "Stores" }] },
    { name: "claim", path: "/claim", ready: ["heading", { level: 1 }] },
    { name: "business", path: "/business", ready: ["heading", { level: 1 }] },
    { name: "profile", path: "/profile", ready: ["heading", { level: 1 }] },
    { name: "reviews", path: `/reviews?store=${storeId}`, ready: ["heading", { level: 1 }] },
    { name: "reset password", path: "/reset-password", ready: ["heading", { level: 1 }] },
    { name: "admin", path: "/admin", ready: ["heading", { level: 1 }] },
    { name: "store page", path: store, ready: ["heading", { level: 1 }] },
    { name: "states directory", path: "/stores", ready: ["heading", { level: 1 }] },
    { name: "state directory", path: state, ready: ["heading", { level: 1 }] },
    { name: "city directory", path: city, ready: ["heading", { level: 1 }] },
  ];
}
