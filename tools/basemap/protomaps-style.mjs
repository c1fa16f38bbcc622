// Writes what internal/maptiles serves as /map/style.json when LOCATOR_PMTILES
// names an archive:
//   - internal/maptiles/protomaps-layers.json: the layers of the
//     @protomaps/basemaps "light" style in English for a source named "protomaps";
//   - internal/maptiles/fonts/: the Noto Sans files (@fontsource/noto-sans, woff2)
//     those layers draw their labels with, faces.json (each text-font name -> its
//     files and their unicode-range, for the style's "font-faces") and the fonts'
//     licence (OFL.txt).
// Run from the repository root:
//   (cd tools/basemap && npm ci --no-audit --no-fund) && node tools/basemap/protomaps-style.mjs
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { layers, namedFlavor } from "@protomaps/basemaps";

const maptiles = fileURLToPath(new URL("../../internal/maptiles/", import.meta.url));
const fontsource = dirname(createRequire(import.meta.url).resolve("@fontsource/noto-sans/package.json"));

// The text-font names the layers use, and the Noto Sans file of each.
const FONTS = {
  "Noto Sans Regular": "400-normal",
  "Noto Sans Medium": "500-normal",
  "Noto Sans Italic": "400-italic",
};
// Protomaps writes Devanagari names twice: as Unicode ("name") and as
// "positioned glyph font" codepoints in the Private Use Area ("pgf:name"),
// drawn only by its own glyph PBFs named "Noto Sans Devanagari Regular v1".
// A woff2 cannot draw those codepoints, so the pre-shaped font is dropped:
// labels read the Unicode name, drawn with the font of the rest of the label,
// whose files include Noto Sans's Devanagari subset (the browser shapes each
// grapheme cluster).
const PRESHAPED_FONT = "Noto Sans Devanagari Regular v1";

/** The layers with the pre-shaped Devanagari font and its "pgf:" fields left out. */
function withoutPreshaped(value) {
  if (!Array.isArray(value)) {
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPreshaped(v)]));
  }
  // ["case", ["==", ["get", "script"], "Devanagari"], ["literal", [PRESHAPED_FONT]], other] -> other
  if (value[0] === "case" && value.length === 4 && JSON.stringify(value[2]) === JSON.stringify(["literal", [PRESHAPED_FONT]])) {
    return withoutPreshaped(value[3]);
  }
  // ["get", "pgf:name"] -> ["get", "name"] (a coalesce of a name with itself stays correct);
  // ["has", "pgf:name"] -> false: every test of it is or-ed with a test of "name" or of whether
  // MapLibre can draw "name", which then decides alone, as for a name in any other script.
  if (typeof value[1] === "string" && value[1].startsWith("pgf:")) {
    if (value[0] === "get") return ["get", value[1].slice("pgf:".length)];
    if (value[0] === "has") return false;
  }
  return value.map(withoutPreshaped);
}

/** Every font name a text-font property of the layers can pick. */
function textFonts(value, inTextFont = false, names = new Set()) {
  if (typeof value === "string") {
    if (inTextFont && value.startsWith("Noto ")) names.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) textFonts(v, inTextFont, names);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) textFonts(v, inTextFont || k === "text-font", names);
  }
  return names;
}

const styleLayers = withoutPreshaped(layers("protomaps", namedFlavor("light"), { lang: "en" }));
const out = join(maptiles, "protomaps-layers.json");
writeFileSync(out, JSON.stringify(styleLayers, null, 1) + "\n");
console.log(`wrote ${out}`);

const used = [...textFonts(styleLayers)].sort();
const unknown = used.filter((name) => !(name in FONTS));
if (unknown.length) throw new Error(`the layers use fonts with no Noto Sans file here: ${unknown.join(", ")}`);

// fontsource's CSS declares the subsets in this order and the browser takes the
// last face that covers a codepoint; MapLibre takes the first, so the list is
// reversed (latin first: the files most labels need).
const subsets = Object.entries(JSON.parse(readFileSync(join(fontsource, "unicode.json"), "utf8"))).reverse();
const fontsDir = join(maptiles, "fonts");
rmSync(fontsDir, { recursive: true, force: true });
mkdirSync(fontsDir);
const faces = {};
let bytes = 0;
for (const name of used) {
  faces[name] = subsets.map(([subset, ranges]) => {
    const file = `noto-sans-${subset}-${FONTS[name]}.woff2`;
    copyFileSync(join(fontsource, "files", file), join(fontsDir, file));
    bytes += readFileSync(join(fontsDir, file)).length;
    return { file, "unicode-range": ranges.split(",") };
  });
}
copyFileSync(join(fontsource, "LICENSE"), join(fontsDir, "OFL.txt"));
writeFileSync(join(fontsDir, "faces.json"), JSON.stringify(faces, null, 1) + "\n");
console.log(`wrote ${fontsDir}: ${readdirSync(fontsDir).length - 2} font files, ${bytes} bytes, for ${used.join(", ")}`);
