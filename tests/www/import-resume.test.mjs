// Abort-and-resume of `memory.importConversations()` in headless Chromium (Debian's, via playwright-core) on
// IndexedDB, against the scripted LLM server: a ChatGPT export (bench/lib/chatgpt-archive.mjs) imported into a
// store in chunks of 6 messages (so a conversation spans chunks), stopped part-way — by its `signal`, and by closing
// the tab in the middle of a chunk — then imported again,
// ends with the memories (texts and sources) of a clean import into a fresh store; an import of the same archive
// once more adds 0 and makes 0 model calls.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startBrowser } from "./browser.mjs";
import { chatgptArchive } from "../../bench/lib/chatgpt-archive.mjs";
import { importModelRules } from "../../bench/lib/import-models.mjs";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { serve } from "../../www/serve.mjs";

const WAIT = { timeout: 60_000 };
const ARCHIVE = JSON.stringify(chatgptArchive({ conversations: 12, seed: 3, branchEvery: 5 }));
let llm, site, browser, context, page;

before(async () => {
  llm = await startScriptedServer();
  llm.script(importModelRules({ delayMs: 40 }));
  site = await serve({ port: 0 });
  ({ browser, context, page } = await startBrowser());
  await openPage();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await llm?.close();
});

/** A page of the site with `window.imports(dbName, archive, options)`: opens an IndexedDB memory on the scripted
 * models and imports into it; `options.abortAfterChunks` aborts once that many chunks are done; each progress report
 * of the latest call lands in `window.progress`. `window.contents(dbName)`: its memories' texts with their sources' ids, sorted. */
async function openPage() {
  page = await context.newPage();
  await page.goto(`${site.url}/www/sw.js`);
  await page.evaluate(async (baseUrl) => {
    const { Memory } = await import("/pkg/index.browser.mjs");
    const open = (dbName) => Memory.open({
      llm: { provider: "openai", config: { baseUrl, apiKey: "sk-test", model: "m" } },
      embedder: { provider: "openai", config: { baseUrl, apiKey: "sk-test", model: "e", dimensions: 64 } },
      storage: { provider: "indexeddb", config: { dbName } },
    });
    window.progress = [];
    window.imports = async (dbName, archive, { abortAfterChunks, ...options } = {}) => {
      window.progress = [];
      const memory = await open(dbName);
      const controller = new AbortController();
      try {
        const report = await memory.importConversations(archive, {
          userId: "alice", chunkMessages: 6, ...options, signal: controller.signal,
          onProgress: (p) => {
            window.progress.push(p);
            if (abortAfterChunks && p.chunks.done >= abortAfterChunks) controller.abort();
          },
        });
        return { report };
      } catch (error) {
        return { error: { code: error.code, message: error.message } };
      } finally {
        memory.free();
      }
    };
    window.contents = async (dbName) => {
      const memory = await open(dbName);
      try {
        const all = (await memory.getAll({ userId: "alice", limit: 1000 })).results;
        const rows = await Promise.all(all.map(async (m) => `${m.memory} ← ${(await memory.sources(m.id)).map((s) => `${s.conversationId}/${s.id}`).join(", ")}`));
        return rows.sort();
      } finally {
        memory.free();
      }
    };
  }, llm.baseUrl);
}

const imports = (dbName, options) => page.evaluate(({ dbName, archive, options }) => window.imports(dbName, archive, options), { dbName, archive: ARCHIVE, options });
const contents = (dbName) => page.evaluate((dbName) => window.contents(dbName), dbName);

let clean;

describe("importConversations on IndexedDB: abort and resume", () => {
  test("a clean import into a fresh store", async () => {
    const { report, error } = await imports("clean");
    assert.equal(error, undefined);
    assert.equal(report.conversations, 12);
    assert.ok(report.chunks > 12 && report.facts > 0, `some conversations span chunks: ${JSON.stringify(report)}`);
    clean = await contents("clean");
    assert.equal(clean.length, report.facts, "one memory per fact the report counts");
    assert.ok(clean.every((row) => / ← \S+\/\S+/.test(row)), `every memory knows its conversation and message: ${clean[0]}`);
  });

  test("aborted after 3 chunks, imported again: the memories of the clean import, the 3 chunks replayed", async () => {
    const stopped = await imports("aborted", { abortAfterChunks: 3 });
    assert.equal(stopped.error?.code, "ABORTED", JSON.stringify(stopped));
    const part = await contents("aborted");
    assert.ok(part.length > 0 && part.length < clean.length, `the committed chunks stay: ${part.length} of ${clean.length}`);
    const calls = llm.count("chat");
    const { report } = await imports("aborted");
    assert.ok(report.replayed >= 3, `the chunks done before replay: ${report.replayed}`);
    assert.ok(llm.count("chat") - calls < report.chunks * 2, "the replayed chunks cost no model call");
    assert.deepEqual(await contents("aborted"), clean);
  });

  test("the tab closed in the middle of a chunk, imported again in a new tab: the memories of the clean import", async () => {
    // The import runs on without being awaited; the tab closes while a chunk's model calls are in flight.
    await page.evaluate((archive) => void window.imports("closed", archive), ARCHIVE);
    await page.waitForFunction(() => window.progress.some((p) => p.chunks.done >= 4), null, WAIT);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await page.close();
    await openPage();
    const part = await contents("closed");
    assert.ok(part.length > 0 && part.length < clean.length, `what was committed before the tab closed stays: ${part.length}`);
    const { report, error } = await imports("closed");
    assert.equal(error, undefined);
    assert.ok(report.replayed >= 4, `the chunks committed before replay: ${report.replayed}`);
    assert.deepEqual(await contents("closed"), clean);
  });

  test("the same archive once more adds 0 and makes 0 model calls", async () => {
    const calls = llm.count("chat");
    const { report } = await imports("aborted");
    assert.equal(llm.count("chat"), calls, "no model call");
    assert.equal(report.replayed, report.chunks, "every chunk replayed");
    assert.equal(report.facts, 0);
    assert.deepEqual(await contents("aborted"), clean, "nothing added");
  });
});
