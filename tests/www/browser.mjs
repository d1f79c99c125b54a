// The playground's browser for the www tests: Debian's headless Chromium (via playwright-core) with one
// page, whose console errors and page errors are collected, and the page loaded until its memory is open.
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

/** A started browser, its context and page, and the page's console errors (collected as they come). */
export async function startBrowser() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  return { browser, context, page, consoleErrors };
}

/** Loads the playground from `site` into `page` and waits until it opened its memory. */
export async function loadPlayground(page, site, wait) {
  await page.goto(`${site.url}/www/`);
  await page.waitForFunction(() => document.body.dataset.ready, null, wait);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true", "the page opened its memory");
}
