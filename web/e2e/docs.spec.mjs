// The examples the README and docs/ give answer as they say, on the demo data `make run` serves
// (20,000 stores, the default of `locator serve`): every store page path (`/stores/.../{name}-{id}`)
// and every `curl` URL answers 200; a bare `/stores/x/y/{id}` answers 301 to a store page.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repo } from "./server.mjs";
import { expect, test } from "./fixtures.mjs";

test.use({ serverOptions: { stores: 20000 } });

const files = ["README.md", ...readdirSync(join(repo, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const examples = files.flatMap((file) => {
  const text = readFileSync(join(repo, file), "utf8");
  const pages = [...text.matchAll(/`(\/stores\/[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+-\d+)`/g)].map((m) => ({ file, path: m[1], status: 200 }));
  const bare = [...text.matchAll(/`(\/stores\/x\/y\/\d+)`/g)].map((m) => ({ file, path: m[1], status: 301 }));
  const curls = [...text.matchAll(/curl '?http:\/\/127\.0\.0\.1:8080(\/[^' \n]*)/g)].map((m) => ({ file, path: m[1], status: 200 }));
  return [...pages, ...bare, ...curls];
});

test("the docs' example URLs answer on the demo data", async ({ server }) => {
  expect(examples.length).toBeGreaterThanOrEqual(4);
  for (const { file, path, status } of examples) {
    const res = await fetch(server.url + path, { redirect: "manual" });
    expect(res.status, `${file}: ${path}`).toBe(status);
    if (status === 301) expect(res.headers.get("location"), `${file}: ${path}`).toMatch(/^\/stores\/[a-z0-9-]+\/[a-z0-9-]+\/[a-z0-9-]+-\d+$/);
  }
});
