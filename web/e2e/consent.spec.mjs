// Consent before co-ownership (docs/claims.md, "Consent of the owners") against the real binary: a
// stranger claims a store that has a proven owner, a moderator approves it on the command line, and
// the stranger waits: the store is not theirs until the owner, mailed a link, accepts in /business.
// Opening the mailed link only shows the request.
import { execFileSync } from "node:child_process";
import { axe, expect, test as base } from "./fixtures.mjs";
import { claimApproved, submitClaim } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const test = base.extend(withSink({ stores: 200 }));

const stamp = Date.now();
const owner = { name: `E2E Consent Books ${stamp}`, email: `owner-${stamp}@example.com`, phone: "+1 303 555 0100", password: "consent-tulip-7" };
const stranger = { ...owner, email: `stranger-${stamp}@example.com`, phone: "+1 303 555 0666", password: "stranger-harp-9" };

async function confirm(page, link, password, name) {
  await page.goto(link);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

async function signOut(page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign in" }).waitFor();
}

async function signIn(page, who) {
  await page.goto("/business");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const show = (server, id) => JSON.parse(execFileSync(server.bin, ["claims", "show", String(id), "--json", "--database-url", server.db], { encoding: "utf8" }));

test("a stranger's approved claim on an owned store waits for the owner's consent, given in /business", async ({ page, server, sink }) => {
  // The owner's store, approved and confirmed.
  const { link: ownerLink } = await claimApproved(page, server, sink, owner);
  await confirm(page, ownerLink, owner.password, "Store dashboard");
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();
  await signOut(page);

  // The stranger claims the same store (same name and ZIP) with its own proven mailbox.
  const strangerLink = await submitClaim(page, server, sink, stranger);
  const claims = JSON.parse(execFileSync(server.bin, ["claims", "list", "--json", "--database-url", server.db], { encoding: "utf8" }));
  const claim = claims.find((c) => c.email === stranger.email);
  expect(claim?.duplicate_of_store_id, `look-alike claim: ${JSON.stringify(claim)}`).toBeTruthy();
  execFileSync(server.bin, ["claims", "approve", String(claim.id), "--database-url", server.db], {
    stdio: "inherit",
    env: { ...process.env, LOCATOR_PUBLIC_URL: server.url },
  });
  expect(show(server, claim.id).consent).toBe("pending");

  // The stranger's dashboard: no store, only the wait.
  await confirm(page, strangerLink, stranger.password, "Store dashboard");
  const waiting = page.getByRole("region", { name: "Waiting for the owner's consent" });
  await expect(waiting).toContainText(owner.name);
  await expect(waiting).toContainText(`Your claim #${claim.id} was approved, but the store has an owner`);
  await expect(page.getByRole("heading", { level: 2, name: owner.name })).toHaveCount(0);
  await axe(page, "business: waiting for the owner's consent");
  await signOut(page);

  // The owner's mail asks for consent; opening its link only shows the request.
  const consentMail = async () => (await sink.messages()).find((m) => m.to.includes(owner.email) && m.subject.startsWith("A claim on your store was approved"));
  await expect.poll(consentMail, { message: "the consent mail reached the sink" }).toBeTruthy();
  const consentLink = /(http:\/\/\S+\/business\/consent\?token=[^\s"<>]+)/.exec((await consentMail()).text)[1];
  expect(consentLink.startsWith(server.url)).toBe(true);
  await page.goto(consentLink);
  await page.getByRole("heading", { name: "A co-owner for your store?" }).waitFor();
  await expect(page.getByText(`A moderator approved claim #${claim.id} on your store`)).toContainText(stranger.email);
  await expect(page.getByRole("button", { name: `Accept ${stranger.email} as a co-owner` })).toBeVisible();
  await axe(page, "business: the consent link's page");
  expect(show(server, claim.id).consent, "opening the link consented").toBe("pending");

  // The owner accepts in the dashboard.
  await signIn(page, owner);
  const pending = page.getByRole("region", { name: "Waiting for your consent" });
  await expect(pending).toContainText(`${stranger.email} · claim #${claim.id}`);
  await axe(page, "business: a pending co-owner");
  await pending.getByRole("button", { name: `Accept ${stranger.email}` }).click();
  await expect(pending.getByRole("status")).toHaveText(`${stranger.email} can now change this store with you.`);
  await expect(page.getByRole("region", { name: "Who can change this store" })).toContainText(stranger.email);
  expect(show(server, claim.id).consent).toBe("accepted");

  // The link died with the decision.
  await page.goto(consentLink);
  await expect(page.getByRole("alert")).toContainText("This link is not valid any more");
  await page.goto("/business");
  await signOut(page);

  // The stranger now has the store.
  await signIn(page, stranger);
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();
  await expect(page.getByRole("region", { name: "Waiting for the owner's consent" })).toHaveCount(0);
});
