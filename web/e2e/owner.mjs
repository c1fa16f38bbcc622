// An owner's way in for the dashboard suites: the claim wizard with its business account, the
// confirmation link from the mail sink, and the claim approved on the command line (its mail links /business).
import { execFileSync } from "node:child_process";
import { BOULDER_DOOR, expect } from "./fixtures.mjs";

/** Claims a store in Boulder for `owner` ({name, email, phone, password}) and approves it; returns the claim and the mailed confirmation link. */
export async function claimApproved(page, server, sink, owner) {
  const link = await submitClaim(page, server, sink, owner);
  const claims = JSON.parse(execFileSync(server.bin, ["claims", "list", "--json", "--database-url", server.db], { encoding: "utf8" }));
  const claim = claims.find((c) => c.business_name === owner.name);
  expect(claim, `claim listed: ${JSON.stringify(claims)}`).toBeTruthy();
  // With the server's public URL, as the server's own setting would give it: the mail links the dashboard.
  // The moderator places the pin at the door: the gazetteer knows only the ZIP's centre.
  const at = ["--lat", String(BOULDER_DOOR.latitude), "--lon", String(BOULDER_DOOR.longitude)];
  execFileSync(server.bin, ["claims", "approve", String(claim.id), ...at, "--database-url", server.db], {
    stdio: "inherit",
    env: { ...process.env, LOCATOR_PUBLIC_URL: server.url },
  });
  const approvedMail = async () => (await sink.messages()).find((m) => m.to.includes(owner.email) && m.subject === "Your store claim was approved");
  await expect.poll(approvedMail, { message: "the approval mail reached the sink" }).toBeTruthy();
  expect((await approvedMail()).text).toContain(`${server.url}/business`);
  return { claim, link };
}

/** The claim wizard in Boulder for `owner`, with its business account; returns the mailed confirmation link. */
export async function submitClaim(page, server, sink, owner) {
  await page.goto("/claim");
  for (const [label, value] of [["Business name", owner.name], ["Email", owner.email], ["Phone", owner.phone]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  for (const [label, value] of [["Country", "United States"], ["State (optional)", "CO"], ["City", "Boulder"], ["Postal code", "80302"], ["Address", "1942 Broadway"]]) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: "Add business" }).click();
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  const [claimed, account] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/api/store/claim")),
    page.waitForResponse((r) => r.url().endsWith("/api/store/create-user")),
    page.getByRole("button", { name: "Submit" }).click(),
  ]);
  expect(claimed.status()).toBe(201);
  expect(account.status()).toBe(201);
  await page.getByRole("heading", { name: "Thank You!" }).waitFor();
  await expect(page.getByRole("link", { name: "Go to the store dashboard" })).toHaveAttribute("href", "/business");
  const confirmMail = async () => (await sink.messages()).find((m) => m.to.includes(owner.email) && /\/business\/verify\?token=/.test(m.text));
  await expect.poll(confirmMail, { message: "the confirmation mail reached the sink" }).toBeTruthy();
  const link = /(http:\/\/\S+\/business\/verify\?token=[^\s"<>]+)/.exec((await confirmMail()).text)[1];
  expect(link.startsWith(server.url), `link ${link} points at ${server.url}`).toBe(true);
  return link;
}
