// Draws the app's raster icons from public/favicon.svg in Debian's Chromium: favicon.ico (16 and
// 32 px PNGs in an ICO), apple-touch-icon.png (180 px) and the manifest's icon-192.png and
// icon-512.png. Those are full-bleed squares with the glyph inside the maskable safe zone (the
// phone rounds the corners itself). The outputs are committed: run after changing favicon.svg.
//   node scripts/icons.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "../e2e/browser.mjs";

const dir = join(import.meta.dirname, "../public");
const svg = readFileSync(join(dir, "favicon.svg"), "utf8");
// The same glyph on a square without rounded corners, at 60 % of the side (safe zone: 80 %).
const bleed = svg.replace(/<rect [^>]*\/>/, '<rect width="32" height="32" fill="#065f46"/>').replace('translate(4 4)', "translate(6.4 6.4) scale(0.8)");

const browser = await launch({ viewport: { width: 600, height: 600 } });
const page = await browser.context.newPage();
async function png(source, size) {
  await page.setContent(`<body style="margin:0">${source.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body>`);
  return page.locator("svg").screenshot({ omitBackground: true });
}
try {
  const small = [await png(svg, 16), await png(svg, 32)];
  // ICO: a 6-byte header, a 16-byte entry per image, then the PNGs (PNG-in-ICO, read since Windows Vista).
  const head = Buffer.alloc(6 + 16 * small.length);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(small.length, 4);
  let offset = head.length;
  small.forEach((p, i) => {
    const e = 6 + 16 * i;
    const side = i === 0 ? 16 : 32;
    head.writeUInt8(side, e);
    head.writeUInt8(side, e + 1);
    head.writeUInt16LE(1, e + 4);
    head.writeUInt16LE(32, e + 6);
    head.writeUInt32LE(p.length, e + 8);
    head.writeUInt32LE(offset, e + 12);
    offset += p.length;
  });
  writeFileSync(join(dir, "favicon.ico"), Buffer.concat([head, ...small]));
  writeFileSync(join(dir, "apple-touch-icon.png"), await png(bleed, 180));
  writeFileSync(join(dir, "icon-192.png"), await png(bleed, 192));
  writeFileSync(join(dir, "icon-512.png"), await png(bleed, 512));
} finally {
  await browser.close();
}
