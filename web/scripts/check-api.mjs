// Fails when src/api/schema.d.ts is stale: regenerates the types from ../api/openapi.yaml
// into a temporary file and compares. Fix with `npm run gen:api`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const web = resolve(import.meta.dirname, "..");
const spec = resolve(web, "../api/openapi.yaml");
const committed = resolve(web, "src/api/schema.d.ts");

const require = createRequire(import.meta.url);
const pkg = require.resolve("openapi-typescript/package.json");
const cli = join(dirname(pkg), require(pkg).bin["openapi-typescript"]);

const dir = mkdtempSync(join(tmpdir(), "locator-api-"));
try {
  const fresh = join(dir, "schema.d.ts");
  execFileSync(process.execPath, [cli, spec, "--output", fresh], { stdio: ["ignore", "ignore", "inherit"] });
  let current = "";
  try {
    current = readFileSync(committed, "utf8");
  } catch {
    // missing counts as stale
  }
  if (readFileSync(fresh, "utf8") !== current) {
    console.error("src/api/schema.d.ts is stale: run `npm run gen:api` and commit the result.");
    process.exit(1);
  }
  console.log("src/api/schema.d.ts is up to date with api/openapi.yaml.");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
