// Starts the real locator binary on a free port with a temporary SQLite database seeded with
// demo data. The binary is LOCATOR_BIN (built once for the whole run by global-setup.mjs) or,
// when that is unset, built here from the current tree (embedding the current web/dist).
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const repo = resolve(import.meta.dirname, "../..");

/** Builds the locator binary into `dir` and answers its path. */
export function buildLocator(dir) {
  if (!existsSync(resolve(repo, "web/dist/index.html"))) {
    throw new Error("web/dist/index.html is missing: run `npm run build` (or `make build`) first");
  }
  const bin = join(dir, "locator");
  console.log("building the locator binary...");
  execFileSync("go", ["build", "-o", bin, "./cmd/locator"], { cwd: repo, stdio: "inherit" });
  return bin;
}

/**
 * Writes the demo data of `stores` stores into the SQLite file `file`. The demo data is fixed
 * (storegen's seed and clock), so when global-setup.mjs gave the run a folder of seeded databases
 * (LOCATOR_E2E_SEEDS) each size is seeded once, by whichever worker needs it first, and copied
 * for every server after: seeding 3,000 stores costs ~9 s of CPU, a copy a few milliseconds.
 */
function seed(bin, stores, file) {
  const run = (target) =>
    execFileSync(bin, ["seed", "--demo", "--stores", String(stores), "--database-url", `sqlite:${target}`], { stdio: "ignore" });
  const seeds = process.env.LOCATOR_E2E_SEEDS;
  if (!seeds) {
    run(file);
    return;
  }
  const template = join(seeds, `demo-${stores}.db`);
  if (!existsSync(template)) {
    // Two workers may seed the same size at once: each writes its own file and the rename is
    // atomic, so a reader never sees half a database (both files hold the same data).
    const part = `${template}.${process.pid}`;
    run(part);
    for (const side of ["-wal", "-shm"]) {
      if (existsSync(part + side)) throw new Error(`seed left ${part}${side}: the copy would miss its writes`);
    }
    renameSync(part, template);
  }
  copyFileSync(template, file);
}

// Options: `stores` seeds that many demo stores; `env` adds environment variables (e.g.
// LOCATOR_SMTP_URL, LOCATOR_PUBLIC_URL), or is a function of `{ dir }` (the server's temporary
// directory, for files `prepare` writes there) answering them; `port` fixes the port (0: any free
// one), so a public URL can name it before the start; `prepare({ bin, db, dir })` runs before the server starts
// (e.g. `moderators add`). The answer also carries `bin` and `db` for running CLI commands
// against the same database.
export async function startServer({ stores = 3000, env = {}, port = 0, prepare } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "locator-e2e-"));
  const bin = process.env.LOCATOR_BIN || buildLocator(dir);
  const db = `sqlite:${join(dir, "db")}`;
  seed(bin, stores, join(dir, "db"));
  prepare?.({ bin, db, dir });
  const child = spawn(bin, ["serve", "--no-seed", "--addr", `127.0.0.1:${port}`, "--database-url", db], {
    cwd: dir,
    env: { ...process.env, ...(typeof env === "function" ? env({ dir }) : env) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = await new Promise((resolveUrl, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${out}\n${stderr}`)), 60_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /Locator is running at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1].replace(/\/$/, ""));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${stderr}`));
    });
  });
  return {
    url,
    bin,
    db,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill("SIGKILL");
            r();
          }, 5000);
          child.on("exit", () => {
            clearTimeout(t);
            r();
          });
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
