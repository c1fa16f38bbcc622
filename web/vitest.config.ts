import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

export default mergeConfig(
  viteConfig,
  defineConfig({
    // The slug, place-name and status test cases are shared with the Go side (internal/*/testdata).
    server: { fs: { allow: [".", "../internal/slug/testdata", "../internal/places/testdata", "../internal/schedule/testdata"] } },
    test: {
      environment: "jsdom",
      setupFiles: ["./src/test/setup.ts"],
      include: ["src/**/*.test.{ts,tsx}"],
      restoreMocks: true,
      // `make test` runs vitest beside the Go tests on two cores: a test that takes 1 s alone
      // can take several there. Timeouts only catch a hang; speed is measured elsewhere.
      testTimeout: 30_000,
      hookTimeout: 30_000,
      unstubGlobals: true,
    },
  }),
);
