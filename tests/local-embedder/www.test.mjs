// The www/ playground's offline provider with the on-device model, in headless Chromium: the settings
// show the model's size, the download button fills its progress bar, the memories said before stay
// listed and are embedded in place, then memories are found by meaning; a reload opens it from the cache
// without downloading again. Memories that carry another model's vectors keep the keyword search.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { serve } from "../../www/serve.mjs";
import { startScriptedServer } from "../support/scripted-server.mjs";

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"];
let site, browser, page;
const modelRequests = [];

before(async () => {
  site = await serve({ port: 0 });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
  const context = await browser.newContext();
  context.on("request", (request) => {
    if (request.url().includes("/models/all-MiniLM-L6-v2/")) modelRequests.push(request.url());
  });
  page = await context.newPage();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

async function load() {
  await page.goto(`${site.url}/www/`);
  await page.waitForFunction(() => document.body.dataset.ready);
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true");
}

async function say(text) {
  await page.locator('#chat-form input[name="message"]').fill(text);
  await page.locator('#chat-form button[type="submit"]').click();
  await page.waitForFunction((t) => [...document.querySelectorAll(".memory-text")].some((m) => m.textContent.includes(t)), text);
}

test("download the model with progress, then search by meaning, the memories said before included", async () => {
  await load();
  await page.locator("#offline-model").waitFor();
  await say("I love coding in Python");
  assert.match(await page.locator("#offline-model-size").textContent(), /^9\d\.\d MB$/);
  await page.evaluate(() => {
    const bar = document.getElementById("offline-model-progress");
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push(bar.value)).observe(bar, { attributes: true });
    setInterval(() => window.progressSeen.push(bar.value), 20);
    const state = document.getElementById("offline-model-state");
    window.statesSeen = [];
    new MutationObserver(() => window.statesSeen.push(state.textContent)).observe(state, { childList: true, characterData: true, subtree: true });
  });
  await page.locator("#offline-model-download").click();
  await page.waitForFunction(() => document.getElementById("mode-badge").textContent.startsWith("offline · semantic"), null, { timeout: 120_000 });
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((v) => v > 0 && v < 1), "the progress bar moved");
  await page.waitForFunction(() => /Ready/.test(document.getElementById("offline-model-state").textContent));
  assert.equal(modelRequests.length, 2, "the weights and the tokenizer were downloaded once each");
  // One database: what was said before the download is still listed, and was embedded in place.
  assert.deepEqual(await page.locator(".memory-text").allTextContents(), ["I love coding in Python"]);
  assert.ok((await page.evaluate(() => window.statesSeen)).some((text) => /^Embedding the memories/.test(text)), "the re-embedding showed");
  assert.match(await page.locator("#offline-model-state").textContent(), /1 memory embedded on this device/);
  for (const text of ["I live in Berlin", "I am allergic to peanuts"]) await say(text);
  await page.locator('#search-form input[name="query"]').fill("programming languages");
  await page.locator('#search-form select[name="method"]').selectOption("vector");
  await page.locator('#search-form button[type="submit"]').click();
  await page.locator("#search-note").waitFor();
  assert.equal(await page.locator(".memory-text").first().textContent(), "I love coding in Python");
});

test("a reload searches from the cached model without downloading it again", async () => {
  const before = modelRequests.length;
  await load();
  assert.match(await page.locator("#mode-badge").textContent(), /^offline · semantic/);
  await page.locator('#search-form input[name="query"]').fill("food allergies");
  await page.locator('#search-form select[name="method"]').selectOption("vector");
  await page.locator('#search-form button[type="submit"]').click();
  await page.locator("#search-note").waitFor();
  assert.equal(await page.locator(".memory-text").first().textContent(), "I am allergic to peanuts");
  assert.equal(modelRequests.length, before, `no request for the model: ${modelRequests.slice(before)}`);
});

test("memories with another model's vectors keep the keyword search, with a coded error, and nothing is lost", async () => {
  const llm = await startScriptedServer();
  const context = await browser.newContext();
  const other = await context.newPage();
  try {
    llm.script([
      { kind: "chat", match: ["extracting"], reply: { facts: ["User likes tea"] } },
      { kind: "chat", match: ["memory management"], reply: { memory: [{ event: "ADD", text: "User likes tea" }] } },
      { kind: "chat", match: ["friendly assistant"], reply: "Noted!" },
    ]);
    await other.goto(`${site.url}/www/`);
    await other.waitForFunction(() => document.body.dataset.ready === "true");
    const apply = async (values) => {
      const form = other.locator("#settings-form");
      await form.locator('select[name="provider"]').selectOption(values.provider);
      for (const [name, value] of Object.entries(values)) {
        if (name !== "provider") await form.locator(`input[name="${name}"]`).fill(value);
      }
      await form.locator('button[type="submit"]').click();
      await other.waitForFunction((provider) => document.getElementById("mode-badge").textContent.startsWith(provider), values.provider);
    };
    const say = async (text, count) => {
      await other.locator('#chat-form input[name="message"]').fill(text);
      await other.locator('#chat-form button[type="submit"]').click();
      await other.waitForFunction((n) => document.querySelectorAll("#memory-list .memory").length === n, count);
    };
    // The scripted embedder's vectors have 64 dimensions, the on-device model's 384.
    await apply({ provider: "openai", baseUrl: llm.baseUrl, model: "m", embedModel: "e", apiKey: "k", userId: "me" });
    await say("I like tea", 1);
    await apply({ provider: "offline", userId: "me" });
    await other.locator("#offline-model-download").click();
    await other.locator("#chat-error").waitFor({ state: "visible", timeout: 120_000 });
    assert.equal(await other.locator("#chat-error code").textContent(), "DIMENSION_MISMATCH");
    assert.match(await other.locator("#offline-model-state").textContent(), /another embedding model.*searches by keyword/);
    assert.equal(await other.locator("#mode-badge").textContent(), "offline · user me", "the model is not turned on");
    await say("I ride a bike", 2);
    assert.deepEqual(await other.locator(".memory-text").allTextContents(), ["I ride a bike", "User likes tea"]);
  } finally {
    await context.close();
    await llm.close();
  }
});
