// Fails when src/api/schema.d.ts is stale: regenerates the types from ../api/openapi.yaml
// into a temporary file and compares. Fix with `npm run gen:api`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const web = resolve(import.meta.dirname, "..");
const spec = resolve(web, "../api/openapi.yaml");
const committed = resolve(web, "src/api/schema.d.ts");

const require = createRequire(import.meta.url);
const pkg = require.resolve("openapi-typescript/package.json");
const cli = join(dirname(pkg), require(pkg).bin["openapi-typescript"]);

function check(dir) {
  if (!existsSync(spec)) return `${spec} does not exist.`;
  const fresh = join(dir, "schema.d.ts");
  try {
    execFileSync(process.execPath, [cli, spec, "--output", fresh], { stdio: ["ignore", "ignore", "inherit"] });
  } catch {
    return "openapi-typescript failed on api/openapi.yaml (see above).";
  }
  if (!existsSync(committed)) return "src/api/schema.d.ts is missing: run `npm run gen:api`.";
  if (readFileSync(fresh, "utf8") !== readFileSync(committed, "utf8")) {
    return "src/api/schema.d.ts is stale: run `npm run gen:api` and commit the result.";
  }
  return null;
}

const dir = mkdtempSync(join(tmpdir(), "locator-api-"));
let problem;
try {
  problem = check(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (problem) {
  console.error(`check:api: ${problem}`);
  process.exitCode = 1;
} else {
  console.log("check:api: src/api/schema.d.ts matches api/openapi.yaml.");
}
