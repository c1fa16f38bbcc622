// Proves the import rules of eslint.config.js bite: plants a cycle between two
// TypeScript files and a feature importing another feature, lints them with
// the project's own configuration, and fails unless ESLint reports each one.
// (A rule that never fires looked green for months: issue #41.) The planted
// files live under src/ only while this runs.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";

const root = new URL("..", import.meta.url).pathname;
const stamp = `planted${process.pid}`;
const libDir = join(root, "src/lib", stamp);
const featA = join(root, "src/features", `${stamp}a`);
const featB = join(root, "src/features", `${stamp}b`);

const files = {
  [join(libDir, "a.ts")]: `import { b } from "./b";\nexport const a = (): number => b() + 1;\n`,
  [join(libDir, "b.tsx")]: `import { a } from "./a";\nexport const b = (): number => (Date.now() > 0 ? 0 : a());\n`,
  [join(featA, "index.ts")]: `export const fromA = 1;\n`,
  [join(featB, "index.ts")]: `import { fromA } from "../${stamp}a";\nexport const fromB = fromA + 1;\n`,
};

const expected = [
  { file: join(libDir, "a.ts"), rule: "import-x/no-cycle" },
  { file: join(libDir, "b.tsx"), rule: "import-x/no-cycle" },
  { file: join(featB, "index.ts"), rule: "import-x/no-restricted-paths" },
];

let failed = false;
try {
  for (const dir of [libDir, featA, featB]) mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(path, text);
  // The feature list is read when the config loads, so load it after planting.
  const eslint = new ESLint({ cwd: root });
  const results = await eslint.lintFiles(Object.keys(files));
  for (const want of expected) {
    const result = results.find((r) => r.filePath === want.file);
    const hit = result?.messages.some((m) => m.ruleId === want.rule);
    if (!hit) {
      failed = true;
      console.error(`check-lint-rules: ${want.rule} did not fire on ${want.file.slice(root.length)}`);
      for (const m of result?.messages ?? []) console.error(`  got ${m.ruleId}: ${m.message}`);
    }
  }
} finally {
  for (const dir of [libDir, featA, featB]) rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log(`check-lint-rules: ${expected.length} planted violations reported`);
