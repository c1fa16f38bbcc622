// Reviews against the real binary (docs/reviews.md): a member proves the mailbox, writes a review
// on /reviews and sees it in the store panel's summary and on /reviews; the store's owner replies
// from /business; a shopper flags the review; a moderator removes it from /admin with a published
// reason, and the removal counts on the public page.
import { addModerator, animationsDone, axe, expect, LIST_PATH, BOULDER_DOOR, test as base } from "./fixtures.mjs";
import { claimApproved } from "./owner.mjs";
import { withSink } from "./sink.mjs";

const MODERATOR = "reviews-moderator@example.com";
const MODERATOR_PASSWORD = "correct horse review staple";
const test = base.extend(withSink({ stores: 200, prepare: addModerator(MODERATOR, MODERATOR_PASSWORD) }));

const stamp = Date.now();
const owner = { name: `E2E Reviewed Vapes ${stamp}`, email: `review-owner-${stamp}@example.com`, phone: "+1 303 555 0111", password: "reviewed-tulip-7" };
const member = { first_name: "Rita", last_name: "Moss", phone: "2125550100", email: `rita-${stamp}@example.com`, password: "member-tulip-7" };
const TEXT = "Friendly staff, fair prices and a good choice of pods.";
const REPLY = "Thank you, Rita! New flavours arrive every Monday.";

test("a member writes a review, the owner replies, a shopper flags it and a moderator removes it with a public reason", async ({ page, server, sink }) => {
  test.setTimeout(180_000);
  // The owner's store: claimed in the wizard, approved on the command line, the mailbox proven.
  const { link } = await claimApproved(page, server, sink, owner);
  await page.goto(link);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("heading", { level: 2, name: owner.name }).waitFor();
  const listed = async () => {
    const near = await page.request.get(`${LIST_PATH}?latitude=${BOULDER_DOOR.latitude}&longitude=${BOULDER_DOOR.longitude}&radius=5`);
    return (await near.json()).physical_stores.find((s) => s.name === owner.name) ?? null;
  };
  await expect.poll(listed, { message: "the approved store is listed", timeout: 10_000 }).not.toBeNull();
  const storeId = (await listed()).id;

  // The member: signed up and in (the browser's cookies), the mailbox proven by the mailed link.
  expect((await page.request.post("/api/store/customers", { data: member })).status()).toBe(201);
  expect((await page.request.post("/api/store/auth", { data: { email: member.email, password: member.password } })).status()).toBe(200);
  expect((await page.request.post("/api/store/customers/me/email-proof")).status()).toBe(202);
  const proofMail = async () => (await sink.messages()).find((m) => m.to.includes(member.email) && /\/verify-email\?token=/.test(m.text));
  await expect.poll(proofMail, { message: "the proof mail reached the sink" }).toBeTruthy();
  await page.goto(/(http:\/\/\S+\/verify-email\?token=[^\s"<>]+)/.exec((await proofMail()).text)[1]);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Confirm email" }).click();
  await page.getByRole("status").filter({ hasText: "Your email is confirmed." }).waitFor();

  // The member writes the review on /reviews.
  await page.goto(`/reviews?store=${storeId}`);
  const mine = page.getByRole("region", { name: "Your review" });
  await mine.getByRole("radio", { name: "5 stars" }).check();
  await mine.getByRole("textbox", { name: "Your review" }).fill(TEXT);
  await axe(page, "reviews page with the review form");
  await mine.getByRole("button", { name: "Publish review" }).click();
  await mine.getByRole("status").filter({ hasText: "Your review is published." }).waitFor();
  const list = page.getByRole("region", { name: "All reviews" });
  const item = list.getByRole("listitem").filter({ hasText: TEXT });
  await expect(item).toContainText("Rita M.");
  await expect(page.getByRole("region", { name: "Reviews summary" })).toContainText("100% of reviewers recommend this store");

  // The store panel's summary counts it.
  await page.goto(`/?store=${storeId}`);
  const panelSummary = page.getByRole("region", { name: "Reviews summary" });
  await expect(panelSummary).toContainText("1 reviews");
  await expect(panelSummary).toContainText("100% of reviewers recommend this store");

  // The owner replies from /business (the session from the confirmation link).
  await page.goto("/business");
  const reviews = page.getByRole("region", { name: "Reviews", exact: true });
  const toAnswer = reviews.getByRole("listitem").filter({ hasText: TEXT });
  await toAnswer.getByRole("button", { name: "Reply" }).click();
  await toAnswer.getByRole("textbox", { name: "Public reply" }).fill(REPLY);
  await toAnswer.getByRole("button", { name: "Publish reply" }).click();
  await toAnswer.getByText(REPLY).waitFor();
  await animationsDone(page);
  await axe(page, "business reviews with a reply");
  const ownerMail = (await sink.messages()).find((m) => m.to.includes(owner.email) && m.subject === `New review of ${owner.name}`);
  expect(ownerMail, "the owner was mailed the new review").toBeTruthy();

  // A shopper flags it on /reviews, where the reply shows.
  await page.goto(`/reviews?store=${storeId}`);
  await expect(item).toContainText(`Reply from the store${REPLY}`);
  await item.getByRole("button", { name: "Flag this review" }).click();
  await item.getByRole("combobox", { name: "Why flag it?" }).selectOption("conflict-of-interest");
  await item.getByRole("button", { name: "Send flag" }).click();
  await item.getByRole("status").filter({ hasText: "Thank you: a moderator will read this review." }).waitFor();

  // The moderator removes it with a published reason.
  await page.goto("/admin");
  await page.getByLabel("Email").fill(MODERATOR);
  await page.getByLabel("Password").fill(MODERATOR_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Moderation" }).getByRole("button", { name: "Reviews" }).click();
  const queued = page.getByRole("article").filter({ hasText: TEXT });
  await expect(queued).toContainText("(1 flag)");
  await expect(queued.getByRole("list", { name: "Flags" })).toContainText("Conflict of interest: 1");
  await animationsDone(page); // the pressed chip's colours fade in
  await axe(page, "admin review queue");
  await queued.getByRole("combobox", { name: "Removal reason" }).selectOption("conflict-of-interest");
  await queued.getByRole("button", { name: "Remove" }).click();
  await page.getByText(`of ${owner.name}: removed.`).waitFor();
  await expect(page.getByText("No held or flagged reviews.")).toBeVisible();

  // Gone from /reviews, counted on the public page.
  await page.goto(`/reviews?store=${storeId}`);
  await page.getByText("This store has no reviews yet.").waitFor();
  await expect(page.getByRole("region", { name: "Your review" })).toContainText("A moderator removed this review");
  await page.goto("/reviews");
  const row = page.getByRole("row").filter({ hasText: "Written by an insider or a competitor, or paid for" });
  await expect(row).toContainText(String(new Date().getUTCFullYear()));
  await expect(row.getByRole("cell").last()).toHaveText("1");
  await axe(page, "the public review policy");
});
