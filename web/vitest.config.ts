import { readdirSync, readFileSync } from "node:fs";
import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

/**
 * Test files that need a fresh module graph and jsdom of their own (see `projects` below): every
 * file that mocks a module (found here, so a new one cannot be forgotten), and those named below
 * that leave module state behind for another file's test (the map highlight, the favourites the
 * sign-in loads).
 */
const ISOLATED = [
  ...testFiles("src").filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(f, "utf8"))),
  "src/features/auth/AuthPopup.test.tsx",
  "src/features/locator/ResultsList.test.tsx",
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

export default mergeConfig(
  viteConfig,
  defineConfig({
    // The slug, place-name and status test cases are shared with the Go side (internal/*/testdata).
    server: { fs: { allow: [".", "../internal/slug/testdata", "../internal/places/testdata", "../internal/schedule/testdata"] } },
    test: {
      environment: "jsdom",
      setupFiles: ["./src/test/setup.ts"],
      restoreMocks: true,
      // `make test` runs vitest beside the Go tests on two cores: a test that takes 1 s alone
      // can take several there. Timeouts only catch a hang; speed is measured elsewhere.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      unstubGlobals: true,
      // A fresh jsdom and module graph per file cost four fifths of the suite's CPU (docs/performance.md,
      // "The test suite"): files share a worker's environment, except those that mock modules
      // (vi.mock is per module graph) or leave module state another file's test reads (the map
      // highlight, the favourites the sign-in loads). A file added to ISOLATED gets its own again.
      projects: [
        { extends: true, test: { name: "shared", isolate: false, include: ["src/**/*.test.{ts,tsx}"], exclude: ISOLATED } },
        { extends: true, test: { name: "isolated", include: ISOLATED } },
      ],
    },
  }),
);
