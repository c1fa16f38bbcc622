// tools/smtpsink for the accounts suite: a real SMTP server that keeps the mail and lists it over HTTP.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo, startServer } from "./server.mjs";

/** A free TCP port on 127.0.0.1 (so a URL can name the server's port before it starts). */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Builds and starts tools/smtpsink on free ports: { smtp: "HOST:PORT", http: "http://HOST:PORT", messages(), stop() }. */
export async function startSink() {
  const dir = mkdtempSync(join(tmpdir(), "locator-e2e-sink-"));
  const bin = join(dir, "smtpsink");
  execFileSync("go", ["build", "-o", bin, "./tools/smtpsink"], { cwd: repo, stdio: "inherit" });
  const child = spawn(bin, [], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`smtpsink did not start: ${out}`)), 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /smtp=(\S+) http=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ smtp: m[1], http: m[2] });
      }
    });
    child.on("exit", (code) => fail(new Error(`smtpsink exited with ${code}`)));
  });
  return {
    ...line,
    /** The mail received so far: [{ to, text, ... }]. */
    async messages() {
      return (await fetch(`${line.http}/messages`)).json();
    },
    async stop() {
      if (child.exitCode === null) {
        await new Promise((done) => {
          child.on("exit", done);
          child.kill("SIGTERM");
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Worker fixtures for a suite whose server mails through a sink: `sink`, and `server` started with
 * `options` (startServer's) plus the sink's SMTP URL and a public URL naming the server's own port
 * (so mailed links work). Use as `base.extend(withSink({ stores: 1000 }))`.
 */
export function withSink(options = {}) {
  return {
    sink: [
      async ({}, use) => {
        const sink = await startSink();
        try {
          await use(sink);
        } finally {
          await sink.stop();
        }
      },
      { scope: "worker", timeout: 120_000 },
    ],
    server: [
      async ({ sink }, use) => {
        const port = await freePort();
        const server = await startServer({
          ...options,
          port,
          env: { ...options.env, LOCATOR_SMTP_URL: `smtp://${sink.smtp}?starttls=off`, LOCATOR_PUBLIC_URL: `http://127.0.0.1:${port}` },
        });
        try {
          await use(server);
        } finally {
          await server.stop();
        }
      },
      { scope: "worker", timeout: 180_000 },
    ],
  };
}
