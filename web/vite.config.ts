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

// sonner adds its stylesheet as a <style> element when it loads; the server's
// Content-Security-Policy (style-src 'self') refuses inline styles, so the build drops that call
// and ClaimPage imports sonner's CSS file instead. Fails the build if sonner changes its ways.
function sonnerWithoutInlineStyle(): Plugin {
  return {
    name: "locator-sonner-without-inline-style",
    apply: "build",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.mjs$/.test(id)) return null;
      const out = code.replace(/^__insertCSS\(".*"\);$/m, "");
      if (out === code) throw new Error("sonner no longer calls __insertCSS(...) on its own line: check how it adds its styles");
      return { code: out, map: null };
    },
  };
}

const outDir = resolve(import.meta.dirname, "dist");

export default defineConfig({
  plugins: [react(), tailwindcss(), sonnerWithoutInlineStyle(), keepGitkeep(outDir)],
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
