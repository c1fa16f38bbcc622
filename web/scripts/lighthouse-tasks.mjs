// Where the locator's load spends its main-thread time, as Lighthouse sees it: runs Lighthouse
// (mobile preset, like lighthouse.mjs) on / and prints per run the score, the simulated long
// tasks (audit long-tasks), and each observed main-thread task over 20 ms with the trace events
// inside it; with --profile also the CPU samples in it (self time, and the app's functions on
// the stack), mapped to the sources when the build has source maps:
//   npx vite build --sourcemap && (cd .. && go build -o /tmp/lb/locator ./cmd/locator)
//   LOCATOR_BIN=/tmp/lb/locator node scripts/lighthouse-tasks.mjs --runs=3 --profile
// The CPU profiler slows the page a little: read its scores as a diagnosis, not as a figure.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, CHROMIUM_ARGS } from "../e2e/browser.mjs";
import { startServer } from "../e2e/server.mjs";

const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const profileCpu = process.argv.includes("--profile");
const mapDir = resolve(import.meta.dirname, "../dist/assets");
// Vite's own source-map reader (a dependency of the build tools, not of the app).
const mapping = await import("@jridgewell/trace-mapping").catch(() => null);
const hasMaps = mapping !== null && existsSync(mapDir) && readdirSync(mapDir).some((f) => f.endsWith(".js.map"));
const maps = new Map();
const orig = (url, line, col) => {
  const base = url.replace(/^.*\//, "");
  const f = join(mapDir, `${base}.map`);
  if (!hasMaps || line < 1) return `${base}:${line}`;
  if (!maps.has(f)) maps.set(f, existsSync(f) ? new mapping.TraceMap(readFileSync(f, "utf8")) : null);
  const m = maps.get(f);
  if (!m) return `${base}:${line}`;
  const p = mapping.originalPositionFor(m, { line, column: col });
  return p.source ? `${p.name ?? ""}@${p.source.replace(/^.*node_modules\//, "").replace(/^(\.\.\/)+/, "")}:${p.line}` : `${base}:${line}:${col}`;
};
const server = await startServer();
const profile = mkdtempSync(join(tmpdir(), "locator-lighthouse-"));
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", ...CHROMIUM_ARGS], userDataDir: profile });
const scores = [];
try {
  for (let i = 0; i < runs; i++) {
    const { lhr, artifacts } = await lighthouse(`${server.url}/`, { port: chrome.port, onlyCategories: ["performance"], output: "json", logLevel: "error", additionalTraceCategories: profileCpu ? "disabled-by-default-v8.cpu_profiler" : undefined });
    const a = lhr.audits;
    const m = a.metrics.details.items[0];
    const score = Math.round(lhr.categories.performance.score * 100);
    scores.push(score);
    console.log(`run ${i + 1}: ${score} FCP ${m.firstContentfulPaint} LCP ${m.largestContentfulPaint} TBT ${m.totalBlockingTime} SI ${m.speedIndex} | LCP el ${a["largest-contentful-paint-element"].details.items[0].items[0].node.selector.slice(-40)}`);
    // The observed paints and the requests started before the observed LCP: Lighthouse's
    // simulated LCP includes what the trace shows before it.
    const before = a["network-requests"].details.items.filter((r) => r.networkRequestTime < m.observedLargestContentfulPaint);
    console.log(`   observed FCP ${m.observedFirstContentfulPaint} LCP ${m.observedLargestContentfulPaint}; requests before LCP: ${before.map((r) => r.url.replace(/^https?:\/\/[^/]*/, "").slice(0, 40)).join(" ")}`);
    console.log("   long:", a["long-tasks"].details.items.map((x) => `${x.url.replace(/.*\//, "").replace(/-[\w-]{8}\./, ".") || "?"} ${Math.round(x.duration)}@${Math.round(x.startTime)}`).join(", "));
    const events = artifacts.Trace.traceEvents;
    const mainT = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").find((t) => events.some((x) => x.pid === t.pid && x.tid === t.tid && x.name === "ParseHTML" && x.args?.beginData?.url?.startsWith(server.url)));
    const ev = mainT ? events.filter((e) => e.pid === mainT.pid && e.tid === mainT.tid && e.ph === "X") : [];
    const nav = events.find((e) => e.name === "navigationStart" && mainT && e.pid === mainT.pid && e.args?.data?.documentLoaderURL?.startsWith(server.url))?.ts ?? 0;
    // CPU samples from the trace (ProfileChunk events of the page's renderer)
    const pnodes = new Map(), parent = new Map(), samples = [];
    if (mainT) {
      const prof = events.find((e) => e.name === "Profile" && e.pid === mainT.pid && e.tid === mainT.tid);
      let t = prof?.args?.data?.startTime ?? 0;
      for (const c of events.filter((e) => e.name === "ProfileChunk" && prof && e.pid === prof.pid && e.id === prof.id)) {
        const cp = c.args.data.cpuProfile ?? {};
        for (const n of cp.nodes ?? []) { pnodes.set(n.id, n); if (n.parent !== undefined) parent.set(n.id, n.parent); }
        const d = c.args.data.timeDeltas ?? [];
        (cp.samples ?? []).forEach((id, i) => { t += d[i]; samples.push([t, id]); });
      }
    }
    const lab = (n) => { const cf = n.callFrame; return cf.url ? orig(cf.url, cf.lineNumber + 1, cf.columnNumber) : cf.functionName; };
    for (const t of ev.filter((e) => e.name === "RunTask" && e.dur > 20000)) {
      const inside = ev.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 3000 && e.name !== "RunTask");
      const desc = inside.slice(0, 7).map((e) => { const d = e.args?.data ?? {}; let w = e.name; if (d.url && /Script|Function|compile|evaluate/i.test(e.name)) w += ` ${String(d.url).replace(/^.*\//, "")}:${d.lineNumber ?? ""}:${d.columnNumber ?? ""}`; if (d.type) w += ` ${d.type}`; return `${w} ${(e.dur / 1000).toFixed(0)}`; });
      console.log(`   task ${((t.ts - nav) / 1000).toFixed(0)} ${(t.dur / 1000).toFixed(0)}ms: ${desc.join(" | ")}`);
      const self = new Map(), comp = new Map(); let n = 0, prev = null;
      for (const [sts, id] of samples) {
        const dt = prev === null ? 0 : sts - prev; prev = sts;
        if (sts < t.ts || sts > t.ts + t.dur) continue;
        n += dt; const node = pnodes.get(id); if (!node) continue;
        const l = lab(node); self.set(l, (self.get(l) ?? 0) + dt);
        const srcs = new Set(); for (let p = id; p !== undefined; p = parent.get(p)) { const x = pnodes.get(p); if (!x) break; const lx = lab(x); if (/@src\//.test(lx)) srcs.add(lx.replace(/:\d+$/, "")); }
        for (const s2 of srcs) comp.set(s2, (comp.get(s2) ?? 0) + dt);
      }
      if (n > 0) {
        console.log("      self:", [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(" | "));
        console.log("      incl src:", [...comp].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(" | "));
      }
    }
    console.log("   observed >10ms:", a["main-thread-tasks"].details.items.filter((x) => x.duration > 10).map((x) => `${Math.round(x.duration)}@${Math.round(x.startTime)}`).join(" "));
  }
} finally {
  await chrome.kill();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
}
scores.sort((a, b) => a - b);
console.log(`median ${scores[Math.floor(scores.length / 2)]} of ${scores.join(",")}`);
