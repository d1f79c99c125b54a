// The playground's "Import from ChatGPT / Claude" pane in headless Chromium (Debian's, via playwright-core) against
// the scripted LLM server: a ChatGPT export (a fixture file written by bench/lib/chatgpt-archive.mjs) chosen in the
// file picker (and its zip, and a Claude export: the format found from the file) shows the dry run's counts and
// the model calls it will make, before any model call; Import shows progress and Cancel stops it between chunks,
// keeping what was committed; Import again resumes (the chunks already in cost no model call) and ends with the
// memories a clean import makes; a memory's Sources show the messages it came from. A file that is no export
// shows IMPORT_FORMAT in place. Leaves tests/artifacts/www-import.png.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPlayground, startBrowser } from "./browser.mjs";
import { zipFile } from "./zip-file.mjs";
import { chatgptArchive, keptMessages } from "../../bench/lib/chatgpt-archive.mjs";
import { factOf, importModelRules } from "../../bench/lib/import-models.mjs";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { serve } from "../../www/serve.mjs";

const ARTIFACTS = new URL("../artifacts/", import.meta.url);
const WAIT = { timeout: 30_000 };
const ARCHIVE = chatgptArchive({ conversations: 8, seed: 7, branchEvery: 4 });
let llm, site, browser, context, page, consoleErrors, folder;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), "memwasm-www-import-"));
  writeFileSync(join(folder, "conversations.json"), JSON.stringify(ARCHIVE));
  writeFileSync(join(folder, "notes.json"), JSON.stringify({ hello: "not an export" }));
  writeFileSync(join(folder, "chatgpt-export.zip"), zipFile({ "user.json": "{}", "conversations.json": JSON.stringify(ARCHIVE) }));
  copyFileSync(new URL("../fixtures/import/claude-conversations.json", import.meta.url), join(folder, "claude.json"));
  llm = await startScriptedServer();
  site = await serve({ port: 0 });
  ({ browser, context, page, consoleErrors } = await startBrowser());
});

after(async () => {
  await browser?.close();
  await site?.close();
  await llm?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The facts the scripted extraction makes of the archive: one per user message on the kept path. */
function expectedFacts() {
  const facts = new Set();
  for (const c of ARCHIVE) {
    for (let node = c.mapping[c.current_node]; node; node = c.mapping[node.parent]) {
      if (node.message?.author.role === "user") facts.add(factOf(node.message.content.parts[0]));
    }
  }
  return [...facts].sort();
}

async function useModels(userId) {
  await page.locator("#settings").evaluate((details) => (details.open = true));
  const form = page.locator("#settings-form");
  await form.locator('select[name="provider"]').selectOption("openai");
  const values = { baseUrl: llm.baseUrl, model: "test-llm", embedModel: "test-embed", apiKey: "sk-test", userId };
  for (const [name, value] of Object.entries(values)) await form.locator(`input[name="${name}"]`).fill(value);
  await form.locator('button[type="submit"]').click();
  await page.waitForFunction((userId) => document.getElementById("mode-badge").textContent === `openai · user ${userId}`, userId, WAIT);
}

/** Chooses `name` in the pane's file picker and waits for the dry run's line (or the error). */
async function choose(name) {
  await page.locator("#chats").evaluate((details) => (details.open = true));
  await page.locator('#chats-form input[name="file"]').setInputFiles(join(folder, name));
  await page.waitForFunction(() => !document.getElementById("chats-estimate").hidden || !document.getElementById("chats-error").hidden, null, WAIT);
}

/** Presses Import and waits until the pane shows how it ended. */
async function importNow({ cancelAfterMessages } = {}) {
  await page.locator('#chats-form button[type="submit"]').click();
  if (cancelAfterMessages) {
    await page.waitForFunction((n) => Number(document.getElementById("chats-progress").dataset.done ?? 0) >= n, cancelAfterMessages, WAIT);
    await page.locator("#chats-cancel").click();
  }
  await page.waitForFunction(() => document.getElementById("chats-progress").hidden &&
    (!document.getElementById("chats-result").hidden || !document.getElementById("chats-error").hidden), null, WAIT);
  assert.equal(await page.locator("#chats-error").isVisible(), false, `the import failed: ${await page.locator("#chats-error").textContent()}`);
  return page.locator("#chats-result").textContent();
}

const allMemories = () => page.evaluate(async () => {
  const { app } = window.playground;
  const all = await app.memory.getAll({ userId: app.settings.userId, limit: 1000 });
  return all.results.map((m) => m.memory).sort();
});

describe("playground: Import from ChatGPT / Claude", () => {
  test("a file that is no export shows IMPORT_FORMAT in place, and Import stays off", async () => {
    await loadPlayground(page, site, WAIT);
    await useModels("importer");
    await choose("notes.json");
    assert.equal(await page.locator("#chats-error code").textContent(), "IMPORT_FORMAT");
    assert.match(await page.locator("#chats-error").textContent(), /not a conversations export/);
    assert.equal(await page.locator('#chats-form button[type="submit"]').isDisabled(), true);
    assert.equal(llm.count("chat"), 0, "no model call for a file that is no export");
  });

  test("a Claude export and a ChatGPT export's zip are found by their shape, and estimated with no model call", async () => {
    await choose("claude.json");
    assert.equal(await page.locator("#chats-error").isVisible(), false);
    assert.equal(await page.locator("#chats-estimate").textContent(), "Claude export: 1 conversation, 4 messages in 1 chunk: about 2 model calls.");
    await choose("chatgpt-export.zip");
    assert.match(await page.locator("#chats-estimate").textContent(), /^ChatGPT export: 8 conversations, \d+ messages in 8 chunks: about 16 model calls\.$/);
    assert.equal(await page.locator('#chats-form button[type="submit"]').isDisabled(), false, "Import is on once the estimate shows");
    assert.equal(llm.count("chat"), 0);
  });

  test("the dry run shows conversations, messages and model calls before any call; Cancel keeps what was committed", async () => {
    llm.script(importModelRules({ delayMs: 120 }));
    await choose("conversations.json");
    assert.equal(await page.locator("#chats-error").isVisible(), false);
    const estimate = await page.locator("#chats-estimate").textContent();
    assert.match(estimate, new RegExp(`^ChatGPT export: 8 conversations, ${keptMessages(ARCHIVE)} messages in \\d+ chunks: about \\d+ model calls\\.$`));
    assert.equal(llm.count("chat"), 0, "the dry run makes no model call");

    const said = await importNow({ cancelAfterMessages: 1 });
    assert.match(said, /^Import cancelled: what was imported stays\./);
    assert.equal(await page.locator("#chats-result").getAttribute("data-state"), "cancelled");
    const kept = await allMemories();
    assert.ok(kept.length > 0 && kept.length < expectedFacts().length, `a part was committed: ${kept.length} of ${expectedFacts().length}`);
    assert.equal(await page.locator("#memory-count").textContent(), String(kept.length), "the list shows what was committed");
  });

  test("Import again resumes: the chunks already in cost no call, and the memories are a clean import's", async () => {
    const before = llm.count("chat");
    const estimate = Number(await page.locator("#chats-estimate").getAttribute("data-model-calls"));
    const said = await importNow();
    assert.match(said, /^Imported 8 conversations and \d+ messages: \d+ facts?, \d+ model calls?\. \d+ chunks? were already in and cost nothing\./);
    const calls = llm.count("chat") - before;
    assert.ok(calls < estimate, `the resumed import made fewer calls (${calls}) than a whole one (${estimate})`);
    assert.deepEqual(await allMemories(), expectedFacts());
    await page.waitForFunction((n) => document.getElementById("memory-count").textContent === String(n), expectedFacts().length, WAIT);

    const again = llm.count("chat");
    assert.match(await importNow(), /: 0 facts, 0 model calls\./);
    assert.equal(llm.count("chat"), again, "a third import makes no model call");
    assert.deepEqual(await allMemories(), expectedFacts(), "and adds nothing");
  });

  test("a memory's Sources show the messages it came from: its chunk's, the one it was made of among them", async () => {
    const row = page.locator("#memory-list .memory").first();
    const text = await row.locator(".memory-text").textContent();
    await row.locator('[data-action="sources"]').click();
    const sources = row.locator(".sources li");
    await sources.first().waitFor(WAIT);
    const shown = await sources.evaluateAll((items) => items.map((li) => ({
      event: li.dataset.event, who: li.querySelector(".who").textContent, excerpt: li.querySelector(".excerpt").textContent,
      where: li.querySelector(".where").textContent })));
    assert.ok(shown.every((s) => s.event === "ADD"), "each source made the memory");
    assert.ok(shown.some((s) => /^user · /.test(s.who) && factOf(s.excerpt) === text), `the user message it was made of: ${JSON.stringify(shown)}`);
    const conversations = new Set(shown.map((s) => /^conversation (.+)$/.exec(s.where)?.[1]));
    assert.equal(conversations.size, 1, "the messages of one chunk, of one conversation");
    assert.ok(ARCHIVE.some((c) => conversations.has(c.conversation_id)), `a conversation of the archive: ${[...conversations]}`);
    await page.screenshot({ path: new URL("www-import.png", ARTIFACTS).pathname, fullPage: true });
  });

  test("no console errors", () => {
    assert.deepEqual(consoleErrors, []);
  });
});
