// @ts-check
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { readdirSync } from "node:fs";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Every folder of src/features is a feature (a new one is covered without editing this file).
const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// Import direction (web/README.md, "Layout"):
//   src/app -> src/features/<name> -> src/components, src/lib, src/api
// A feature never imports the app or another feature; shared code never imports a feature or
// the app.
const zones = [
  {
    target: "./src/features",
    from: "./src/app",
    message: "A feature must not import the app (src/app): the app imports features, not the other way round.",
  },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: "./src/features",
    except: [`./${name}`],
    message: "A feature must not import another feature; move shared code to src/components, src/lib or src/api.",
  })),
  ...["components", "lib", "api"].map((dir) => ({
    target: `./src/${dir}`,
    from: ["./src/features", "./src/app"],
    message: "Shared code (components, lib, api) must not import features or the app.",
  })),
];

export default defineConfig(
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {
      "import-x": importX,
      "react-hooks": reactHooks,
    },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".d.ts"] })],
      // Without these the plugin resolves a TypeScript import but never parses the file it names,
      // so import-x/no-cycle saw no edge between two .tsx files (a planted cycle now fails).
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "import-x/no-restricted-paths": ["error", { zones }],
      "import-x/no-cycle": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "zod", message: "Import z from src/lib/validation: it configures zod for the server's CSP." }] },
      ],
    },
  },
  {
    files: ["src/lib/validation.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["*.config.{js,ts}", "scripts/**/*.{js,mjs,ts}"],
    languageOptions: { globals: globals.node },
  },
);
