// The playground's Sync pane in headless Chromium (Debian's, via playwright-core) against the Worker in workerd
// (worker/build, started as the Worker tests start it) and a second device in Node: "Sync now" pushes what the
// page wrote, the status shows the round and the changes pending, a memory pushed by the Node device shows
// in the page's list after the next round, "Keep in sync" pushes a write by itself, and an unreachable
// Worker or a wrong passphrase shows its code in place. Leaves a screenshot in tests/artifacts/www-sync.png.
//
// The page's origin is the site's and the Worker's is another: the page reaches the Worker through its CORS
// (the sync routes answer preflights and allow any origin).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { loadPlayground, startBrowser } from "./browser.mjs";
import { Memory } from "../../pkg/index.node.mjs";
import { startServer, startWorker } from "../../worker/tests/helpers.mjs";
import { serve } from "../../www/serve.mjs";

const ALICE = "tok-alice-0123456789";
const PASSPHRASE = "correct horse battery staple";
const WAIT = { timeout: 20_000 };
const ARTIFACTS = new URL("../artifacts/", import.meta.url);

let server, worker, workerUrl, site, browser, context, page, phone, consoleErrors;
/** The page's requests to the Worker, as "METHOD /path". */
const seen = [];

/** A local port nothing listens on. */
async function closedPort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

before(async () => {
  server = await startServer();
  worker = await startWorker(server, { vars: { MEMORY_TOKENS: JSON.stringify({ [ALICE]: { tenant: "acme", user: "alice" } }) } });
  workerUrl = String(await worker.mf.ready).replace(/\/$/, "");
  site = await serve({ port: 0 });
  ({ browser, context, page, consoleErrors } = await startBrowser());
  // What the page sent the Worker (not its preflights).
  page.on("request", (request) => {
    if (request.url().startsWith(workerUrl) && request.method() !== "OPTIONS") seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  phone = await Memory.open({ llm: { provider: "none" }, embedder: { provider: "none" } });
});

after(async () => {
  phone?.free?.();
  await browser?.close();
  await site?.close();
  await worker?.dispose();
  await server?.close();
});

const load = () => loadPlayground(page, site, WAIT);

async function useOffline(userId) {
  const form = page.locator("#settings-form");
  await form.locator('select[name="provider"]').selectOption("offline");
  await form.locator('input[name="userId"]').fill(userId);
  await form.locator('button[type="submit"]').click();
  await page.waitForFunction((userId) => document.getElementById("mode-badge").textContent === `offline · user ${userId}`, userId, WAIT);
}

async function say(text) {
  const before = await page.locator("#chat-log .events").count();
  await page.locator('#chat-form input[name="message"]').fill(text);
  await page.locator('#chat-form button[type="submit"]').click();
  await page.locator("#chat-log .events").nth(before).waitFor(WAIT);
  await page.locator("#progress").waitFor({ state: "hidden", ...WAIT });
}

async function fillSync(values) {
  await page.locator("#sync").evaluate((details) => (details.open = true));
  for (const [name, value] of Object.entries(values)) await page.locator(`#sync-form input[name="${name}"]`).fill(value);
}

/** Presses "Sync now" and waits for the round to end (the button is disabled while it runs). */
async function syncNow() {
  const button = page.locator('#sync-form button[type="submit"]');
  await button.click();
  await page.waitForFunction(() => !document.querySelector('#sync-form button[type="submit"]').disabled, null, WAIT);
}

const memoryTexts = async () => (await page.locator("#memory-list .memory-text").allTextContents()).sort();
const lastLine = () => page.locator("#sync-last").textContent();
const pending = () => page.locator("#sync-pending").getAttribute("data-pending");
const errorCode = async () => ((await page.locator("#sync-error").isVisible()) ? page.locator("#sync-error code").textContent() : null);
const phoneTexts = async () => (await phone.getAll({ userId: "alice" })).results.map((m) => m.memory).sort();
const options = () => ({ url: workerUrl, token: ALICE, passphrase: PASSPHRASE });

describe("playground sync", () => {
  test("an unreachable Worker shows SYNC_NETWORK in place", async () => {
    await load();
    await useOffline("alice");
    assert.equal(await lastLine(), "Not synced yet.");
    assert.equal(await pending(), "", "before the first sync the store records nothing, so nothing is pending");
    await fillSync({ url: `http://127.0.0.1:${await closedPort()}`, token: ALICE, passphrase: PASSPHRASE });
    await syncNow();
    assert.equal(await errorCode(), "SYNC_NETWORK");
    assert.match(await page.locator("#sync-error").textContent(), /could not be reached/);
    assert.equal(await lastLine(), "Not synced yet.", "a failed round is not a sync");
    assert.match(await page.locator("#sync-summary").textContent(), /error SYNC_NETWORK/);
  });

  test("Sync now pushes the page's memories, and a write shows as pending until the next round", async () => {
    await fillSync({ url: workerUrl });
    // The failed round started recording the store's writes: this one is pending.
    await say("I live in Lisbon");
    await page.waitForFunction(() => document.getElementById("sync-pending").dataset.pending === "1", null, WAIT);
    assert.equal(await page.locator("#sync-pending").textContent(), "1 change pending.");
    await syncNow();
    assert.equal(await errorCode(), null, "the error of the round before is gone");
    assert.match(await lastLine(), /^Last sync .+: pushed 1, pulled 1\.$/);
    assert.equal(await pending(), "0");
    assert.equal(await page.locator("#sync-pending").textContent(), "No changes pending.");
    assert.ok(seen.includes("POST /v1/sync/push"), `the page pushed to the Worker: ${seen}`);

    await say("My cat is called Miso");
    await page.waitForFunction(() => document.getElementById("sync-pending").dataset.pending === "1", null, WAIT);
    await syncNow();
    assert.match(await lastLine(), /: pushed 1, pulled 1\.$/);
    assert.equal(await pending(), "0");
    assert.equal(await page.evaluate(() => localStorage.getItem("memwasm.playground.syncSecrets")), null, "the token is not in localStorage");
    assert.ok(!(await page.evaluate(() => JSON.stringify(localStorage))).includes(ALICE), "nor anywhere else in localStorage");
  });

  test("a memory another device pushed shows in the list after Sync now; a wrong passphrase shows SYNC_KEY", async () => {
    await phone.sync(options());
    assert.deepEqual(await phoneTexts(), ["I live in Lisbon", "My cat is called Miso"], "the Node device got the page's memories");
    await phone.add("Alice plays the cello", { userId: "alice", infer: false });
    assert.equal((await phone.sync(options())).pushed, 1);

    const before = await lastLine();
    await fillSync({ passphrase: "not the passphrase" });
    await syncNow();
    assert.equal(await errorCode(), "SYNC_KEY");
    assert.match(await page.locator("#sync-error").textContent(), /did not decrypt with this passphrase/);
    assert.equal(await lastLine(), before, "the last sync stays the last good round");
    assert.deepEqual(await memoryTexts(), ["I live in Lisbon", "My cat is called Miso"], "nothing of the refused pull is applied");

    await fillSync({ passphrase: PASSPHRASE });
    await syncNow();
    assert.equal(await errorCode(), null);
    assert.match(await lastLine(), /: pushed 0, pulled 1; 1 memory changed here\.$/);
    await page.waitForFunction(() => document.getElementById("memory-count").textContent === "3", null, WAIT);
    assert.deepEqual(await memoryTexts(), ["Alice plays the cello", "I live in Lisbon", "My cat is called Miso"]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: new URL("www-sync.png", ARTIFACTS).pathname, fullPage: true });
  });

  test("Keep in sync pushes a write by itself, and the settings survive a reload", async () => {
    const pushes = () => seen.filter((call) => call === "POST /v1/sync/push").length;
    await page.locator('#sync-form input[name="live"]').check();
    await page.waitForFunction(() => /keeping in sync/.test(document.getElementById("sync-summary").textContent), null, WAIT);
    const before = pushes();
    await say("I drink green tea");
    await page.waitForFunction(() => document.getElementById("sync-pending").dataset.pending === "0" &&
      /: pushed 1, pulled 1\.$/.test(document.getElementById("sync-last").textContent), null, WAIT);
    assert.equal(pushes(), before + 1, "one push, made by the live sync");
    await phone.sync(options());
    assert.ok((await phoneTexts()).includes("I drink green tea"));

    await load();
    assert.equal(await page.locator('#sync-form input[name="token"]').inputValue(), ALICE, "the token is kept for the session");
    assert.equal(await page.locator('#sync-form input[name="live"]').isChecked(), true);
    assert.match(await lastLine(), /^Last sync /, "the last sync is remembered");
    await page.locator("#sync").evaluate((details) => (details.open = true));
    await page.locator('#sync-form input[name="live"]').uncheck();
    await page.waitForFunction(() => !/keeping in sync/.test(document.getElementById("sync-summary").textContent), null, WAIT);
    await page.locator('#sync-form input[name="remember"]').check();
    await syncNow();
    assert.equal(await errorCode(), null);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("memwasm.playground.syncSecrets")), null);
    assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem("memwasm.playground.syncSecrets"))),
      { token: ALICE, passphrase: PASSPHRASE }, "with remember ticked, the secrets go to localStorage");
  });

  test("no console errors", () => {
    // The unreachable Worker of the first test logs its refused connection.
    const unexpected = consoleErrors.filter((text) => !/ERR_CONNECTION_REFUSED/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
