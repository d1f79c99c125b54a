// The official npm client (`MemoryClient` of `mem0ai`, pinned in worker/package.json), unmodified, against
// the worker's mem0 platform API in workerd: only `host` changes. Telemetry is off and every request the
// client makes is recorded, to show it only ever talks to the worker.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ACME, DECIDE, EXTRACT, INITECH, T, allKeys, scriptAdd, startServer } from "./helpers.mjs";
import { blocksRunBy } from "../../tests/node/docs-pages.mjs";
import { runBlock } from "../../tests/node/docs-run.mjs";
import { mem0Call, startMem0Worker, store } from "./mem0-helpers.mjs";

// Read when the client module loads: no telemetry, and no ~/.mem0 of the machine's user.
process.env.MEM0_TELEMETRY = "false";
const mem0Dir = mkdtempSync(join(tmpdir(), "memwasm-mem0-"));
process.env.MEM0_DIR = mem0Dir;
const { MemoryClient, AuthenticationError, MemoryNotFoundError, ValidationError, MemoryError } = await import("mem0ai");

const contacted = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  contacted.push(String(input instanceof Request ? input.url : input));
  return realFetch(input, init);
};

let server;
let worker;
let client;
before(async () => {
  server = await startServer();
  worker = await startMem0Worker(server);
  client = await clientOfTheDocs();
});

/** docs/mem0.md's client, made as written with the worker's `/mem0` URL and a tenant's token for its placeholders. */
async function clientOfTheDocs() {
  const [block] = blocksRunBy("worker/tests/mem0-js-client.test.mjs");
  assert.equal(block?.page, "docs/mem0.md", "the block is marked run by this file");
  assert.ok(worker.host.endsWith("/mem0"));
  const code = block.code.replace('"<token>"', JSON.stringify(ACME)).replace('"https://<worker>/mem0"', JSON.stringify(worker.host));
  assert.ok(code.includes(JSON.stringify(worker.host)) && code.includes(JSON.stringify(ACME)), "both placeholders are filled");
  return runBlock(`${code}\nreturn client;`, { MemoryClient });
}
after(async () => {
  globalThis.fetch = realFetch;
  await worker?.dispose();
  await server?.close();
  rmSync(mem0Dir, { recursive: true, force: true });
});

/** Adds through the LLM pipeline: the extraction returns `facts` and the decision adds them all. */
async function addFacts(facts, options) {
  const input = scriptAdd(server, facts);
  const added = await client.add([{ role: "user", content: input }], options);
  assert.equal(added.status, "SUCCEEDED", JSON.stringify(added));
  return added;
}

test("add → get → search → update → history → delete, as the platform answers them", T, async () => {
  const added = await addFacts(["Alice likes green tea", "Alice works at Acme"], {
    userId: "alice",
    metadata: { source: "chat" },
  });
  assert.match(added.eventId, /^[0-9a-f-]{36}$/);
  assert.deepEqual(added.results.map((r) => [r.event, r.memory, r.data.memory]), [
    ["ADD", "Alice likes green tea", "Alice likes green tea"],
    ["ADD", "Alice works at Acme", "Alice works at Acme"],
  ]);
  const id = added.results[0].id;

  const event = await mem0Call(worker, "GET", `/mem0/v1/event/${added.eventId}/`);
  assert.equal(event.status, 200);
  assert.equal(event.body.status, "SUCCEEDED");
  assert.equal(event.body.event_type, "ADD");
  assert.deepEqual(event.body.results.map((r) => r.id), added.results.map((r) => r.id));
  assert.ok((await allKeys(await worker.kv(), "t/acme/mem0/event/")).includes(`t/acme/mem0/event/${added.eventId}`));

  const got = await client.get(id);
  assert.equal(got.memory, "Alice likes green tea");
  assert.equal(got.userId, "alice");
  assert.equal(got.agentId, null);
  assert.deepEqual(got.metadata, { source: "chat" });
  assert.deepEqual(got.categories, []);
  assert.equal(got.expirationDate, null);

  const found = await client.search("green tea", { filters: { user_id: "alice" } });
  assert.equal(found.results[0].id, id);
  assert.ok(found.results[0].score > 0.1 && found.results[0].score <= 1);
  const limited = await client.search("Alice", { filters: { user_id: "alice" }, topK: 1, rerank: true });
  assert.equal(limited.results.length, 1);

  const updated = await client.update(id, { text: "Alice likes black tea", metadata: { mood: "calm" } });
  assert.equal(updated.memory, "Alice likes black tea");
  assert.deepEqual(updated.metadata, { source: "chat", mood: "calm" });
  const history = await client.history(id);
  assert.deepEqual(history.map((h) => [h.event, h.oldMemory, h.newMemory]), [
    ["ADD", null, "Alice likes green tea"],
    ["UPDATE", "Alice likes green tea", "Alice likes black tea"],
  ]);
  assert.equal(history[0].memoryId, id);

  assert.deepEqual(await client.delete(id), { message: "Memory deleted successfully!" });
  await assert.rejects(client.get(id), MemoryNotFoundError);
  await assert.rejects(client.get("not-a-memory-id"), ValidationError, "a malformed id is the client's ValidationError, as on the platform");
  assert.deepEqual((await client.history(id)).map((h) => h.event), ["ADD", "UPDATE", "DELETE"]);
});

test("an add that contradicts a memory reports memwasm's UPDATE with its previous text", T, async () => {
  const [first] = (await addFacts(["Bob lives in Paris"], { userId: "bob" })).results;
  const input = "Bob moved to Rome";
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts: ["Bob lives in Rome"] }, times: 1 },
    {
      kind: "chat",
      match: [DECIDE, "Bob lives in Paris"],
      reply: { memory: [{ id: "0", text: "Bob lives in Rome", event: "UPDATE", old_memory: "Bob lives in Paris" }] },
      times: 1,
    },
  ]);
  const added = await client.add(input, { userId: "bob" });
  assert.deepEqual(added.results.map((r) => [r.id, r.event, r.memory, r.previousMemory]), [
    [first.id, "UPDATE", "Bob lives in Rome", "Bob lives in Paris"],
  ]);
});

test("getAll pages with page / pageSize and takes AND / OR filters", T, async () => {
  const texts = ["Page one", "Page two", "Page three", "Page four", "Page five"];
  const ids = await store(worker, texts, { user_id: "pager" });
  await store(worker, ["Other one"], { user_id: "pager-other" });
  const first = await client.getAll({ filters: { user_id: "pager" }, page: 1, pageSize: 2 });
  assert.equal(first.count, 5);
  assert.deepEqual(first.results.map((m) => m.id), ids.slice(0, 2));
  assert.match(first.next, /page=2&page_size=2$/);
  assert.equal(first.previous, null);
  const last = await client.getAll({ filters: { user_id: "pager" }, page: 3, pageSize: 2 });
  assert.deepEqual(last.results.map((m) => m.memory), ["Page five"]);
  assert.equal(last.next, null);
  assert.match(last.previous, /page=2&page_size=2$/);

  const either = await client.getAll({ filters: { OR: [{ user_id: "pager" }, { user_id: "pager-other" }] } });
  assert.equal(either.count, 6);
  const since = first.results[0].createdAt;
  const later = await client.getAll({
    filters: { AND: [{ user_id: "pager" }, { created_at: { gte: since } }, { NOT: { keywords: { icontains: "FIVE" } } }] },
  });
  assert.deepEqual(later.results.map((m) => m.memory), ["Page one", "Page two", "Page three", "Page four"]);
  assert.equal((await client.getAll({ filters: { user_id: "pager", created_at: { lt: since } } })).count, 0);
  await assert.rejects(client.getAll({ filters: { created_at: { gte: since } } }), ValidationError);
  await assert.rejects(client.getAll({ userId: "pager" }), /Top-level entity parameters/);
});

test("batchUpdate and batchDelete; an unknown id in a batch changes nothing", T, async () => {
  const [a, b, c] = await store(worker, ["Batch a", "Batch b", "Batch c"], { user_id: "batcher" });
  const updated = await client.batchUpdate([
    { memoryId: a, text: "Batch a, edited" },
    { memoryId: b, text: "Batch b, edited" },
  ]);
  assert.deepEqual(updated, { message: "Successfully updated 2 memories" });
  assert.equal((await client.get(a)).memory, "Batch a, edited");
  await assert.rejects(client.batchDelete([c, "00000000-0000-4000-8000-000000000000"]), MemoryNotFoundError);
  assert.equal((await client.get(c)).memory, "Batch c");
  assert.deepEqual(await client.batchDelete([a, c]), { message: "Successfully deleted 2 memories" });
  const left = await client.getAll({ filters: { user_id: "batcher" } });
  assert.deepEqual(left.results.map((m) => m.memory), ["Batch b, edited"]);
});

test("deleteAll, users and deleteUsers act per entity", T, async () => {
  await store(worker, ["User fact"], { user_id: "entity-u" });
  await store(worker, ["Agent fact one", "Agent fact two"], { agent_id: "entity-a", run_id: "entity-r" });
  const users = await client.users();
  const of = (type, name) => users.results.find((e) => e.type === type && e.name === name);
  assert.equal(of("user", "entity-u").totalMemories, 1);
  assert.equal(of("agent", "entity-a").totalMemories, 2);
  assert.equal(of("run", "entity-r").totalMemories, 2);
  assert.equal(users.count, users.results.length);

  assert.deepEqual(await client.deleteUsers({ agentId: "entity-a" }), { message: "Entity deleted successfully." });
  assert.equal((await client.getAll({ filters: { run_id: "entity-r" } })).count, 0);
  const deleted = await client.deleteAll({ userId: "entity-u" });
  assert.equal(deleted.message, "Memories deleted successfully!");
  assert.equal((await client.getAll({ filters: { user_id: "entity-u" } })).count, 0);
  assert.equal((await client.users()).results.some((e) => e.name.startsWith("entity-")), false);
});

test("expirationDate hides a memory after its day unless showExpired; update clears it", T, async () => {
  const [id] = await store(worker, ["Old promo code"], { user_id: "expiry" }, { expiration_date: "2020-01-31" });
  assert.equal((await client.getAll({ filters: { user_id: "expiry" } })).count, 0);
  const shown = await client.getAll({ filters: { user_id: "expiry" }, showExpired: true });
  assert.equal(shown.results[0].expirationDate, "2020-01-31");
  assert.equal((await client.get(id)).expirationDate, "2020-01-31");
  const cleared = await client.update(id, { expirationDate: null });
  assert.equal(cleared.expirationDate, null);
  assert.equal((await client.search("promo code", { filters: { user_id: "expiry" } })).results[0].id, id);
  await client.update(id, { expirationDate: "2999-12-31" });
  assert.equal((await client.getAll({ filters: { user_id: "expiry" } })).results[0].expirationDate, "2999-12-31");
});

test("feedback and memory exports", T, async () => {
  const [id] = await store(worker, ["Export me"], { user_id: "exporter" });
  const feedback = await client.feedback({ memoryId: id, feedback: "POSITIVE", feedbackReason: "accurate" });
  assert.equal(feedback.feedback, "POSITIVE");
  assert.equal(feedback.feedbackReason, "accurate");
  assert.equal((await allKeys(await worker.kv(), "t/acme/mem0/feedback/")).length, 1);

  const schema = { type: "object", properties: { memories: { type: "array" } } };
  const created = await client.createMemoryExport({ schema, filters: { user_id: "exporter" } });
  assert.match(created.id, /^[0-9a-f-]{36}$/);
  const byId = await client.getMemoryExport({ memoryExportId: created.id });
  assert.deepEqual(byId.memories.map((m) => m.memory), ["Export me"]);
  assert.deepEqual(byId.schema, schema);
  const byFilters = await client.getMemoryExport({ filters: { user_id: "exporter" } });
  assert.equal(byFilters.id, created.id);
});

test("a wrong key is the client's AuthenticationError; another tenant's memory is not found", T, async () => {
  const wrong = new MemoryClient({ apiKey: "not-a-key", host: worker.host });
  const quiet = console.error;
  console.error = () => {}; // the client logs its failed start-up ping
  try {
    await assert.rejects(wrong.getAll({ filters: { user_id: "alice" } }), AuthenticationError);
    await assert.rejects(wrong.ping(), (error) => error instanceof AuthenticationError && /Invalid API key/.test(error.message));
  } finally {
    console.error = quiet;
  }
  const [id] = await store(worker, ["Acme secret"], { user_id: "owner" });
  const other = new MemoryClient({ apiKey: INITECH, host: worker.host });
  await assert.rejects(other.get(id), MemoryNotFoundError);
  await assert.rejects(other.update(id, { text: "stolen" }), MemoryNotFoundError);
  await assert.rejects(other.delete(id), MemoryNotFoundError);
  await assert.rejects(other.history(id), MemoryNotFoundError);
  await assert.rejects(other.batchDelete([id]), MemoryNotFoundError);
  assert.equal((await other.getAll({ filters: { user_id: "owner" } })).count, 0);
  assert.equal((await client.get(id)).memory, "Acme secret");
});

test("platform-only routes are 501 errors; the client only ever contacted the worker", T, async () => {
  await assert.rejects(client.getWebhooks({ projectId: "p" }), (e) => e instanceof MemoryError && /does not implement/.test(e.message));
  await assert.rejects(client.getProject({ fields: ["custom_instructions"] }), /501|does not implement/);
  await assert.rejects(client.getProfile({ entityId: "alice" }), /does not implement/);
  assert.ok(contacted.length > 10);
  assert.deepEqual(contacted.filter((url) => !url.startsWith(`${worker.origin}/`)), []);
});
