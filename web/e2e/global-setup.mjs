// Builds the locator binary once for every suite (unless LOCATOR_BIN names one) and makes the
// folder of seeded demo databases (server.mjs); the workers inherit LOCATOR_BIN and
// LOCATOR_E2E_SEEDS. The answer is Playwright's global teardown: it deletes both.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLocator } from "./server.mjs";

export default function globalSetup() {
  // The seeded demo databases of this run (server.mjs, seed), one per size, for this binary only.
  const seeds = mkdtempSync(join(tmpdir(), "locator-e2e-seeds-"));
  process.env.LOCATOR_E2E_SEEDS = seeds;
  let bin;
  if (!process.env.LOCATOR_BIN) {
    bin = mkdtempSync(join(tmpdir(), "locator-e2e-bin-"));
    process.env.LOCATOR_BIN = buildLocator(bin);
  }
  return () => {
    rmSync(seeds, { recursive: true, force: true });
    if (bin) rmSync(bin, { recursive: true, force: true });
  };
}
