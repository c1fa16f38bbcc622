// Builds the locator binary once for every suite (unless LOCATOR_BIN names one); the workers
// inherit LOCATOR_BIN. The answer is Playwright's global teardown: it deletes the build.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLocator } from "./server.mjs";

export default function globalSetup() {
  if (process.env.LOCATOR_BIN) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "locator-e2e-bin-"));
  process.env.LOCATOR_BIN = buildLocator(dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
