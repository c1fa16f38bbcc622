import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// The Go binary embeds web/dist with go:embed, so the folder must always hold
// the committed placeholder, also right after Vite has emptied it.
function keepGitkeep(outDir: string): Plugin {
  return {
    name: "locator-keep-gitkeep",
    apply: "build",
    closeBundle() {
      writeFileSync(resolve(outDir, ".gitkeep"), "");
    },
  };
}

// LOCATOR_WEB_DIST builds elsewhere: `make test` writes the app into a copy of the tree
// (bin/_e2e-tree) so that the Go tests running beside it never embed a half-written web/dist.
const outDir = process.env.LOCATOR_WEB_DIST ? resolve(process.env.LOCATOR_WEB_DIST) : resolve(import.meta.dirname, "dist");

export default defineConfig({
  plugins: [react(), tailwindcss(), keepGitkeep(outDir)],
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8080", changeOrigin: false },
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    // dist/.vite/manifest.json: the Go server reads it to preload each route's lazy chunk in
    // index.html (internal/httpapi/static.go routeModules).
    manifest: true,
  },
});
