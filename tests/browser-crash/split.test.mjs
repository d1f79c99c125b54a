// The package's two modules in real Chromium: a page that imports memwasm fetches the core .wasm only; the
// first call only the full module has fetches the full .wasm and moves the memory there. An IndexedDB memory
// is opened again from its database (and another page still reads everything through the core module); an
// in-memory one carries what it holds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./harness.mjs";

const PARAGRAPH =
  "The billing service stores invoices in a relational database and mails a receipt to every customer, retrying through a queue when the mail server is down for a while.";

let h;
before(async () => (h = await harness()));
after(() => h?.close());

test("the full .wasm is fetched on first use, and the memory keeps everything", { timeout: 120_000 }, async () => {
  const browser = await h.launch(h.profile());
  const tab = await h.openPage(browser.context);
  const wasm = []; // .wasm requests after the import
  tab.on("request", (request) => request.url().endsWith(".wasm") && wasm.push(new URL(request.url()).pathname));

  const stored = await tab.evaluate(async ({ config, paragraph }) => {
    const scope = { userId: "u" };
    const memory = (window.memory = await window.memwasm.Memory.open(config));
    for (const fact of ["Likes green tea", "Plays chess"]) await memory.add(fact, { ...scope, infer: false });
    const before = performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
    const ingested = await memory.ingest(paragraph, { ...scope, sessionId: "s1" });
    const all = (await memory.getAll(scope)).results.map((m) => m.memory).sort();
    const inMemory = new window.memwasm.Memory({ ...config, storage: { provider: "memory" } });
    await inMemory.store("job", "Works at a bakery", scope);
    await inMemory.ingest(paragraph, { ...scope, sessionId: "s1" });
    const carried = (await inMemory.getAll(scope)).results.map((m) => m.memory).sort();
    return { before, stored: ingested.stored, all, carried };
  }, { config: h.config("split"), paragraph: PARAGRAPH });
  assert.ok(stored.before.includes("/pkg/dist/core/memwasm_bg.wasm"), "the page loaded the core module");
  assert.ok(!stored.before.includes("/pkg/dist/memwasm_bg.wasm"), "and not the full one before it was needed");
  assert.deepEqual(wasm, ["/pkg/dist/memwasm_bg.wasm"], "ingest fetched the full module, once");
  assert.equal(stored.stored, 1);
  assert.deepEqual(stored.all, ["Likes green tea", PARAGRAPH, "Plays chess"].sort());
  assert.deepEqual(stored.carried, ["Works at a bakery", PARAGRAPH].sort());

  const other = await h.openPage(browser.context);
  const seen = await other.evaluate(async (config) => {
    const memory = await window.memwasm.Memory.open(config);
    return (await memory.getAll({ userId: "u" })).results.length;
  }, h.config("split"));
  assert.equal(seen, 3, "another page reads what the moved memory wrote");
  await browser.kill();
});

test("the importer and the sync protocol are fetched on their first call, not before", { timeout: 60_000 }, async () => {
  const browser = await h.launch(h.profile());
  const tab = await h.openPage(browser.context);
  const seen = await tab.evaluate(async (config) => {
    const scope = { userId: "u" };
    const fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname);
    const memory = await window.memwasm.Memory.open(config);
    await memory.add("Likes green tea", { ...scope, infer: false });
    const found = (await memory.search("green tea", scope)).results.length;
    const before = fetched();
    const plan = await memory.importConversations(await memory.exportMemories(scope), { ...scope, dryRun: true });
    const afterImport = fetched();
    const sync = { url: "http://127.0.0.1:1", token: "t", key: "k".repeat(43), timeoutMs: 5000 };
    const refused = await memory.sync(sync).then(() => "synced", (error) => error.code);
    return { found, before, plan: plan.memories, afterImport, refused, afterSync: fetched() };
  }, h.config("lazy"));
  const LATER = ["/pkg/import/importer.mjs", "/pkg/import/zip.mjs", "/pkg/sync-round.mjs", "/pkg/sync-crypto.mjs"];
  assert.equal(seen.found, 1, "the memory searched before either was needed");
  assert.deepEqual(LATER.filter((path) => seen.before.includes(path)), [], "none fetched before its first call");
  assert.ok(seen.afterImport.includes("/pkg/import/importer.mjs") && seen.afterImport.includes("/pkg/import/zip.mjs"));
  assert.equal(seen.plan, 1, "the dry run read the export's one memory");
  assert.ok(!seen.afterImport.includes("/pkg/sync-round.mjs"), "the import did not fetch the sync protocol");
  assert.equal(seen.refused, "SYNC_NETWORK", "sync() ran its round and found no server");
  assert.ok(seen.afterSync.includes("/pkg/sync-round.mjs") && seen.afterSync.includes("/pkg/sync-crypto.mjs"));
  await browser.kill();
});

test("offline on their first call: NOT_IN_MODULE with the cause, and the next call fetches them", { timeout: 60_000 }, async () => {
  const browser = await h.launch(h.profile());
  const tab = await h.openPage(browser.context);
  const refused = new Set();
  // The first request of each fails as a dropped connection would; later ones go through.
  await tab.route(/\/pkg\/(sync-round|import\/importer)\.mjs$/, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (refused.has(path)) return route.continue();
    refused.add(path);
    return route.abort("internetdisconnected");
  });
  const seen = await tab.evaluate(async (config) => {
    const scope = { userId: "u" };
    const memory = await window.memwasm.Memory.open(config);
    await memory.add("Likes green tea", { ...scope, infer: false });
    const text = await memory.exportMemories(scope);
    const outcome = (call) => call().then((value) => ({ value }), (error) => ({ code: error.code, message: error.message, cause: Boolean(error.cause) }));
    const sync = { url: "http://127.0.0.1:1", token: "t", key: "k".repeat(43), timeoutMs: 5000 };
    return {
      import: [await outcome(() => memory.importConversations(text, { ...scope, dryRun: true })),
        await outcome(() => memory.importConversations(text, { ...scope, dryRun: true }))],
      sync: [await outcome(() => memory.sync(sync)), await outcome(() => memory.sync(sync))],
      kept: (await memory.getAll(scope)).results.length,
    };
  }, h.config("lazy-offline"));
  assert.equal(seen.import[0].code, "NOT_IN_MODULE", JSON.stringify(seen.import[0]));
  assert.match(seen.import[0].message, /importer .*could not be loaded/);
  assert.ok(seen.import[0].cause, "the failed fetch is the error's cause");
  assert.equal(seen.import[1].value?.memories, 1, "the next call fetched the importer and ran");
  assert.equal(seen.sync[0].code, "NOT_IN_MODULE", JSON.stringify(seen.sync[0]));
  assert.match(seen.sync[0].message, /sync protocol .*could not be loaded/);
  assert.equal(seen.sync[1].code, "SYNC_NETWORK", "the next round fetched the protocol and ran");
  assert.equal(seen.kept, 1, "the memory is as it was");
  await browser.kill();
});
