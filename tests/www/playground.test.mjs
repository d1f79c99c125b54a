// The www/ playground in real headless Chromium (Debian's, via playwright-core) against the scripted
// LLM server: an ADD then an UPDATE with their badges, the memory list, the history timeline, reload
// persistence, search with scores, delete, and offline mode end to end (including with the network cut).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { loadPlayground, startBrowser } from "./browser.mjs";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { serve } from "../../www/serve.mjs";

const ARTIFACTS = new URL("../artifacts/", import.meta.url);
let llm, site, browser, context, page, consoleErrors;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  llm = await startScriptedServer();
  site = await serve({ port: 0 });
  ({ browser, context, page, consoleErrors } = await startBrowser());
});

after(async () => {
  await browser?.close();
  await site?.close();
  await llm?.close();
});

const load = () => loadPlayground(page, site);

async function applySettings(values) {
  await page.locator("#settings").evaluate((details) => (details.open = true));
  const form = page.locator("#settings-form");
  await form.locator('select[name="provider"]').selectOption(values.provider);
  for (const [name, value] of Object.entries(values)) {
    if (name !== "provider") await form.locator(`input[name="${name}"]`).fill(value);
  }
  await form.locator('button[type="submit"]').click();
  // The badge changes once the memory has reopened; the user id tells it from the badge of the settings before.
  await page.waitForFunction(({ provider, userId }) => {
    const badge = document.getElementById("mode-badge").textContent;
    return badge.startsWith(provider) && (!userId || badge.endsWith(`user ${userId}`));
  }, values);
}

async function say(text) {
  const before = await page.locator("#chat-log .events").count();
  await page.locator('#chat-form input[name="message"]').fill(text);
  await page.locator('#chat-form button[type="submit"]').click();
  await page.locator("#chat-log .events").nth(before).waitFor();
  await page.locator("#progress").waitFor({ state: "hidden" });
  return page.locator("#chat-log .events").nth(before);
}

const memoryTexts = () => page.locator("#memory-list .memory-text").allTextContents();

/** Stores `count` memories for `userId` ("<word> memory 1" …) by `add(…, {infer: false})`s of at most 500 messages
 * (the library's limit), then refreshes the pane; resolves to how many were stored. */
const seed = (userId, count, word) => page.evaluate(async ({ userId, count, word }) => {
  let stored = 0;
  for (let from = 0; from < count; from += 500) {
    const messages = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({ role: "user", content: `${word} memory ${from + i + 1}` }));
    stored += (await window.playground.app.memory.add(messages, { userId, infer: false })).results.length;
  }
  await window.playground.app.memoriesChanged();
  return stored;
}, { userId, count, word });

/** Polls `condition` (a Node-side check) until it holds, at most `tries` × 50 ms. */
async function until(condition, what, tries = 200) {
  for (let i = 0; i < tries; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`never happened: ${what}`);
}

describe("memory playground", () => {
  test("an ADD then an UPDATE show badges, the list and the history timeline, and survive a reload", async () => {
    llm.script([
      { kind: "concept", words: ["paris", "berlin", "lives", "live", "moved"] },
      // The page sends the recent turns, so the second extraction also sees the first message: match it first.
      { kind: "chat", match: ["extracting", "I moved to Berlin"], reply: { facts: ["User moved to Berlin"] } },
      { kind: "chat", match: ["extracting", "I live in Paris"], reply: { facts: ["User lives in Paris"] } },
      { kind: "chat", match: ["memory management", 'New facts:\n["User lives in Paris"]'],
        reply: { memory: [{ event: "ADD", text: "User lives in Paris" }] } },
      { kind: "chat", match: ["memory management", "User moved to Berlin"],
        reply: { memory: [{ id: "0", event: "UPDATE", text: "User lives in Berlin", old_memory: "User lives in Paris" }] } },
      { kind: "chat", match: ["You are a friendly assistant"], reply: "Noted!" },
    ]);
    await load();
    await applySettings({ provider: "openai", baseUrl: llm.baseUrl, model: "test-llm", embedModel: "test-embed", apiKey: "sk-test", userId: "alice" });

    const first = await say("Hi! I live in Paris.");
    assert.deepEqual(await first.locator(".event").evaluateAll((rows) => rows.map((r) => [r.dataset.event, r.textContent])),
      [["ADD", "ADDUser lives in Paris"]]);
    assert.deepEqual(await memoryTexts(), ["User lives in Paris"]);
    assert.equal(await page.locator("#chat-log .msg.assistant").last().textContent(), "Noted!");
    const answerRequest = llm.requests("chat").find((r) => r.body.messages[0].content.includes("friendly assistant"));
    assert.ok(answerRequest.body.messages[0].content.includes("<memory>"), "the answer got recall().text as context");

    const second = await say("I moved to Berlin last week.");
    const update = second.locator('.event[data-event="UPDATE"]');
    assert.equal(await update.locator("del").textContent(), "User lives in Paris");
    assert.equal(await update.locator("ins").textContent(), "User lives in Berlin");
    assert.deepEqual(await memoryTexts(), ["User lives in Berlin"]);

    await page.locator('#memory-list [data-action="history"]').first().click();
    const timeline = page.locator("#memory-list .timeline li");
    await timeline.nth(1).waitFor();
    assert.deepEqual(await timeline.evaluateAll((items) => items.map((i) => i.dataset.event)), ["ADD", "UPDATE"]);

    await page.screenshot({ path: new URL("www-main.png", ARTIFACTS).pathname, fullPage: true });
    await load();
    assert.deepEqual(await memoryTexts(), ["User lives in Berlin"], "memories survive a reload (IndexedDB)");
    assert.equal(await page.locator('#settings-form input[name="apiKey"]').inputValue(), "sk-test", "key kept for the session");
    assert.equal(await page.evaluate(() => localStorage.getItem("memwasm.playground.apiKey")), null, "key not in localStorage by default");
  });

  test("search shows scores by the chosen method; edit and delete", async () => {
    await page.locator('#search-form input[name="query"]').fill("Berlin");
    await page.locator('#search-form select[name="method"]').selectOption("keyword");
    await page.locator('#search-form button[type="submit"]').click();
    await page.locator("#search-note").waitFor();
    assert.match(await page.locator("#search-note").textContent(), /1 result\(s\) for “Berlin” by keyword/);
    assert.match(await page.locator("#memory-list .score").first().textContent(), /^score \d\.\d{3}$/);
    await page.locator("#search-clear").click();

    await page.locator('#memory-list [data-action="edit"]').first().click();
    await page.locator("#memory-list .memory-text").first().fill("User lives in Berlin, Germany");
    await page.locator('#memory-list [data-action="edit"]').first().click();
    await page.waitForFunction(() => document.querySelector("#memory-list .memory-text")?.textContent === "User lives in Berlin, Germany");

    await page.locator('#memory-list [data-action="delete"]').first().click();
    await page.locator("#memory-empty").waitFor({ state: "visible" });
    assert.deepEqual(await memoryTexts(), []);
  });

  test("offline mode works end to end, also with the network cut", async () => {
    await applySettings({ provider: "offline", userId: "offline-user" });
    const events = await say("Remember that my locker code is 4711");
    assert.deepEqual(await events.locator(".event").evaluateAll((rows) => rows.map((r) => r.dataset.event)), ["ADD"]);
    assert.deepEqual(await memoryTexts(), ["Remember that my locker code is 4711"]);

    await page.evaluate(() => navigator.serviceWorker.ready);
    await load();
    await context.setOffline(true);
    try {
      await load();
      assert.equal(await page.locator("#network-badge").textContent(), "offline");
      await say("My bike is blue");
      assert.deepEqual(await memoryTexts(), ["My bike is blue", "Remember that my locker code is 4711"]);
      await page.locator('#search-form input[name="query"]').fill("locker");
      await page.locator('#search-form select[name="method"]').selectOption("hybrid");
      await page.locator('#search-form button[type="submit"]').click();
      await page.locator("#search-note").waitFor();
      assert.match(await page.locator("#search-note").textContent(), /fell back to keyword/);
      // Offline, what was said is stored as it was said: conversation turns. "My bike is blue" is read with
      // the turn before it, so "locker" finds it too, second (same tf 1, longer document: its words + the locker's).
      assert.deepEqual(await memoryTexts(), ["Remember that my locker code is 4711", "My bike is blue"]);
    } finally {
      await context.setOffline(false);
    }
  });

  test("errors show in place with their code, and reset asks first", async () => {
    await applySettings({ provider: "openai", baseUrl: llm.baseUrl, model: "m", embedModel: "e", apiKey: "k", userId: "err-user" });
    llm.script({ kind: "embedding", match: "broken", status: 401 });
    llm.script({ kind: "chat", match: ["extracting", "broken"], reply: { facts: ["User says broken things"] } });
    await page.locator('#search-form input[name="query"]').fill("broken");
    await page.locator('#search-form select[name="method"]').selectOption("vector");
    await page.locator('#search-form button[type="submit"]').click();
    await page.locator("#memory-error").waitFor({ state: "visible" });
    assert.equal(await page.locator("#memory-error code").textContent(), "EMBEDDING_HTTP");

    await page.locator("#reset-button").click();
    assert.equal(await page.locator("#reset-confirm").isVisible(), true);
    await page.locator("#reset-no").click();
    assert.equal(await page.locator("#reset-confirm").isVisible(), false);
    await page.locator("#reset-button").click();
    await page.locator("#reset-yes").click();
    await page.locator("#memory-empty").waitFor({ state: "visible" });
  });

  test("the search method starts at the library's default", async () => {
    await load();
    await applySettings({ provider: "openai", baseUrl: llm.baseUrl, model: "m", embedModel: "e", apiKey: "k", userId: "default-user" });
    const libraryDefault = await page.evaluate(async () =>
      (await window.playground.app.memory.search("anything", { userId: "default-user" })).method);
    assert.equal(await page.locator('#search-form select[name="method"]').inputValue(), libraryDefault);
  });

  test("the list pages through every memory, newest first, with the true count", async () => {
    await load();
    await applySettings({ provider: "offline", userId: "many" });
    assert.equal(await seed("many", 1200, "seeded"), 1200);
    await say("The newest memory of all");
    assert.equal(await page.locator("#memory-count").textContent(), "1201", "the count is every memory, not one page");
    const first = await memoryTexts();
    assert.equal(first[0], "The newest memory of all", "the newest memory comes first");
    assert.equal(first.length, 50, "one page at a time");
    assert.equal(await page.locator("#pager-range").textContent(), "1–50 of 1201");
    assert.equal(await page.locator("#pager-newer").isDisabled(), true);

    await page.locator("#pager-older").click();
    await page.waitForFunction(() => document.getElementById("pager-range").textContent === "51–100 of 1201");
    const second = await memoryTexts();
    assert.equal(second.length, 50);
    assert.deepEqual(second.filter((text) => first.includes(text)), [], "the next page holds other memories");
    const newestFirst = await page.evaluate(async () => {
      const { results } = await window.playground.app.memory.getAll({ userId: "many", limit: 2000 });
      return results.map((item) => item.memory).reverse().slice(0, 100);
    });
    assert.deepEqual([...first, ...second], newestFirst, "the library's order (oldest first) reversed, across pages");

    await page.locator("#pager-newer").click();
    await page.waitForFunction(() => document.getElementById("pager-range").textContent === "1–50 of 1201");
    assert.deepEqual(await memoryTexts(), first);
  });

  test("an import shows its progress and Cancel leaves the store as it was", async () => {
    await load();
    await applySettings({ provider: "offline", userId: "importer" });
    assert.equal(await seed("importer", 300, "imported"), 300);
    const jsonl = await page.evaluate(() => window.playground.app.memory.exportMemories({ userId: "importer" }));
    await page.evaluate(async () => {
      await window.playground.app.memory.deleteAll({ userId: "importer" });
      await window.playground.app.memoriesChanged();
    });
    // With an embedder, the import embeds the memories that came without a vector, 64 texts a request; the
    // first reply is held, so Cancel lands while the import waits on it.
    await applySettings({ provider: "openai", baseUrl: llm.baseUrl, model: "m", embedModel: "e", apiKey: "k", userId: "importer" });
    llm.script({ kind: "embedding", match: "imported memory", delayMs: 1500, times: 1 });
    const importEmbeds = () => llm.requests("embedding").filter((r) => r.inputs?.some((text) => text.startsWith("imported memory")));
    const file = { name: "memories.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(jsonl) };

    await page.locator("#import-input").setInputFiles(file);
    await page.locator("#import-progress").waitFor({ state: "visible", timeout: 10_000 });
    await until(() => importEmbeds().length === 1, "the import's first embedding request");
    assert.match(await page.locator("#import-text").textContent(), /^(Reading|Embedding) \d+ of \d+ /, "the import shows where it is");
    await page.locator("#import-cancel").click();
    await page.locator("#import-progress").waitFor({ state: "hidden" });
    assert.equal(await page.locator("#import-text").textContent(), "Import cancelled: nothing was written; the memories are as they were.");
    assert.equal(importEmbeds().length, 1, "no embedding request after Cancel");
    assert.equal(await page.locator("#memory-count").textContent(), "0");
    assert.equal(await page.evaluate(async () =>
      (await window.playground.app.memory.getAll({ userId: "importer" })).totalCount), 0, "nothing was written");

    await page.evaluate(() => {
      const bar = document.getElementById("import-progress");
      window.importSeen = [];
      new MutationObserver(() => window.importSeen.push(bar.value)).observe(bar, { attributes: true });
    });
    await page.locator("#import-input").setInputFiles(file);
    await page.waitForFunction(() => /^Imported/.test(document.getElementById("import-text").textContent));
    assert.equal(await page.locator("#import-text").textContent(), "Imported 300 memories.");
    assert.ok((await page.evaluate(() => window.importSeen)).some((value) => value > 0 && value < 1), "the bar moved");
    assert.equal(await page.locator("#memory-count").textContent(), "300");
  });

  test("no console errors", () => {
    const unexpected = consoleErrors.filter((text) => !/status of 401|ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(text));
    assert.deepEqual(unexpected, []);
  });
});
