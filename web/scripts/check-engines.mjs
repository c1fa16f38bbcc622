// Fails when an installed npm package (web/ and tools/*/ lock files) declares that it needs a newer
// Node than the oldest this project supports: web/package.json's `engines.node` (the README names
// the same). Run by `make lint`; a package that asks for more is pinned in `overrides` or the
// supported version is raised everywhere at once.
// tools/medusa is left out: it installs the marketplace's Medusa server that only `make test-medusa`
// starts, never part of Locator's build or binary; some of Medusa's own dependencies declare a newer
// Node than Medusa itself asks for, and test-medusa proves the server runs on the machine's Node.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import semver from "semver";

const repo = resolve(import.meta.dirname, "../..");
const oldest = semver.minVersion(JSON.parse(readFileSync(join(repo, "web/package.json"), "utf8")).engines.node);
const locks = ["web", ...readdirSync(join(repo, "tools")).filter((d) => d !== "medusa").map((d) => `tools/${d}`)]
  .map((d) => join(repo, d, "package-lock.json"))
  .filter(existsSync);
const problems = [];
for (const lock of locks) {
  for (const [name, pkg] of Object.entries(JSON.parse(readFileSync(lock, "utf8")).packages ?? {})) {
    const wants = pkg.engines?.node;
    if (name && wants && !semver.satisfies(oldest, wants)) {
      problems.push(`${lock.slice(repo.length + 1)}: ${name} ${pkg.version} wants Node ${wants}`);
    }
  }
}
if (problems.length) {
  console.error(`Packages that need a newer Node than ${oldest} (web/package.json engines):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`check:engines: every package of ${locks.length} lock files runs on Node ${oldest}.`);
