// The www/ playground's offline provider when part of the on-device model is missing, in headless Chromium:
// the settings say what is missing and the command that gets it (never a silently hidden block), and a
// download that fails names the file and the fix (never "Something went wrong").
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "../../www/serve.mjs";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"];
let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
});
after(async () => {
  await browser?.close();
});

/** The playground on a fresh profile, served with `modelDir`; `route` may intercept requests first. */
async function open(t, { modelDir, route } = {}) {
  const site = await serve({ port: 0, ...(modelDir && { modelDir }) });
  const context = await browser.newContext();
  t.after(() => Promise.all([context.close(), site.close()]));
  const page = await context.newPage();
  if (route) await page.route(route.url, route.handler);
  await page.goto(`${site.url}/www/`);
  await page.waitForFunction(() => document.body.dataset.ready);
  await page.locator("#offline-model").waitFor();
  return page;
}

test("without the weights on the server, the offline provider says how to get them", async (t) => {
  const modelDir = mkdtempSync(join(tmpdir(), "memwasm-no-model-"));
  t.after(() => rmSync(modelDir, { recursive: true, force: true }));
  const page = await open(t, { modelDir });
  const missing = page.locator("#offline-model-missing");
  await missing.waitFor();
  assert.match(await missing.textContent(), /weights are not on this server.*bash scripts\/setup\.sh minilm-weights/);
  assert.equal(await page.locator("#offline-model-download").isHidden(), true, "no button that cannot work");
  assert.equal(await page.locator("#offline-model-size").textContent(), "not on this server");
});

test("without the embedder's build, the offline provider says to build it", async (t) => {
  const page = await open(t, { route: { url: "**/local_embedder_bg.wasm", handler: (r) => r.fulfill({ status: 404, body: "not found" }) } });
  const missing = page.locator("#offline-model-missing");
  await missing.waitFor();
  assert.match(await missing.textContent(), /embedder is not built.*bash scripts\/build-local-embedder\.sh/);
  assert.equal(await page.locator("#offline-model-download").isHidden(), true);
});

test("a download that fails names the file and the fix", async (t) => {
  const page = await open(t, { route: { url: "**/models/all-MiniLM-L6-v2/model.safetensors", handler: (r) => r.fulfill({ status: 503, body: "busy" }) } });
  assert.equal(await page.locator("#offline-model-missing").isHidden(), true, "nothing is missing before the download");
  await page.locator("#offline-model-download").click();
  const shown = page.locator("#chat-error");
  await shown.waitFor();
  const text = await shown.textContent();
  assert.match(text, /EMBEDDER_LOAD/);
  assert.match(text, /could not be loaded/);
  assert.doesNotMatch(text, /Something went wrong/);
  assert.match(text, /weights/i, `the detail names the file: ${text}`);
});
