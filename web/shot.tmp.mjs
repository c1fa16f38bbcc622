import { chromium } from "playwright";
import { startServer } from "./e2e/server.mjs";
const server = await startServer({ stores: 300 });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
await page.goto(server.url + "/?lat=40.765&lon=-73.99");
await page.getByRole("heading", { name: /Stores in/ }).waitFor();
await page.waitForTimeout(2000);
const map = page.getByRole("region", { name: "Map" });
await map.focus();
for (let i = 0; i < 4; i++) { await page.keyboard.press("+"); await page.waitForTimeout(600); }
await page.waitForTimeout(4000);
await page.screenshot({ path: "/tmp/first2/manhattan.png" });
await browser.close(); await server.stop();
