// A clean visit: every route, signed out and then signed in as a member, with no console error,
// no failed request and no answer of 400 or more (the app asks /me only with the session hint
// cookie, and the IP location only when /api/config has one: this server has no IP database).
// The spec's geolocation request on / is no error: headless Chromium refuses it silently.
import { expect, test } from "./fixtures.mjs";
import { productRoutes } from "./routes.mjs";

test.use({ serverOptions: { stores: 300 } });

/**
 * Records console errors, failed requests and error answers of the page; `leave()` before each
 * navigation marks the requests then in flight as the route being left.
 */
function watch(page) {
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console ${m.type()}: ${m.text()} (${m.location().url})`);
  });
  // A request of the previous route still in flight when the test moves on is aborted by that
  // navigation (a lazy chunk, a map tile): the page left it, nothing failed. On a busy machine the
  // network can be idle for the 500 ms networkidle waits for and a page still asks for more.
  // The previous route's requests are those in flight at leave() and those its document still
  // starts before the next document commits (a lazy chunk asked for in that gap).
  const inFlight = new Set();
  let left = new Set();
  let leaving = false;
  page.on("request", (r) => {
    inFlight.add(r);
    if (leaving && !r.isNavigationRequest()) left.add(r);
  });
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) leaving = false;
  });
  page.on("requestfinished", (r) => inFlight.delete(r));
  page.on("requestfailed", (r) => {
    inFlight.delete(r);
    if (left.has(r) && r.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`answer ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  const leave = () => {
    left = new Set(inFlight);
    leaving = true;
  };
  return { problems, leave };
}

/** Visits every route and answers what went wrong on each, with the requests each made. */
async function visitAll(page, server) {
  const { problems, leave } = watch(page);
  const seen = {};
  page.on("request", (r) => (seen[new URL(r.url()).pathname] = true));
  const found = [];
  for (const route of await productRoutes(server.url)) {
    leave();
    await page.goto(route.path);
    await page.getByRole(...route.ready).first().waitFor();
    await page.waitForLoadState("networkidle");
    found.push(...problems.splice(0).map((p) => `${route.path}: ${p}`));
  }
  return { found, seen };
}

test("every route, signed out: no console error, no failed request, no /me, no IP lookup", async ({ page, server }) => {
  const { found, seen } = await visitAll(page, server);
  expect(found).toEqual([]);
  expect(Object.keys(seen).filter((p) => p.endsWith("/me") || p.includes("ip-location"))).toEqual([]);
  expect(seen["/favicon.ico"] || seen["/favicon.svg"], "the page's icon was asked").toBeTruthy();
});

test("every route, signed in as a member: no console error, no failed request", async ({ page, context, server }) => {
  const email = `clean.${Date.now()}@example.com`;
  const password = "clean-visit-1";
  const signUp = await context.request.post("/api/store/customers", {
    data: { first_name: "Cleo", last_name: "Visit", phone: "+15550111", email, password },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);
  const signIn = await context.request.post("/api/store/auth", { data: { email, password } });
  expect(signIn.status(), await signIn.text()).toBe(200);
  const { found, seen } = await visitAll(page, server);
  expect(found).toEqual([]);
  expect(seen["/api/store/customers/me"], "signed in: the app asked who").toBe(true);
  await expect(page.context().cookies()).resolves.toContainEqual(expect.objectContaining({ name: "locator_session_hint", value: "1" }));
});
