// An import stopped part-way resumes, and a repeated one costs nothing: the chunks' idempotency keys make
// every committed chunk a replay (no model call, no change), so importing the same archive again adds only
// what was not committed, and the memories end as a clean import's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXTRACT, T, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";
import { contents, fixture, modelCalls, scriptFacts } from "./import-support.mjs";

const server = scriptedServer();
const alice = { userId: "alice" };
const archive = () => fixture("chatgpt-conversations.json");

test("importing the same archive again adds nothing and makes no model call", T, async () => {
  scriptFacts(server);
  const memory = makeMemory(server);
  const first = await memory.importConversations(archive(), alice);
  const before = await contents(memory, alice);
  const calls = modelCalls(server);
  const again = await memory.importConversations(archive(), alice);
  assert.deepEqual([again.chunks, again.replayed, again.facts, again.modelCalls], [first.chunks, first.chunks, 0, 0]);
  assert.equal(modelCalls(server), calls, "no chat or embedding request");
  assert.deepEqual(await contents(memory, alice), before);
});

test("aborted by its signal between chunks, then imported again: the memories of a clean import", T, async () => {
  scriptFacts(server);
  const clean = makeMemory(server);
  await clean.importConversations(archive(), { ...alice, chunkMessages: 1 });
  const expected = await contents(clean, alice);
  assert.equal(expected.length, 3);

  const memory = makeMemory(server);
  const controller = new AbortController();
  const onProgress = (p) => p.chunks.done === 3 && controller.abort();
  await rejectsWith(() => memory.importConversations(archive(), { ...alice, chunkMessages: 1, signal: controller.signal, onProgress }), "ABORTED",
    (e) => assert.match(e.message, /after 3 of 6 chunks/));
  const partial = await contents(memory, alice);
  assert.deepEqual(partial.map((m) => m.memory), ["Plans a trip to Lisbon in May", "Works from home as a translator"], "what was committed stays");

  const calls = server.requests("chat").length;
  const resumed = await memory.importConversations(archive(), { ...alice, chunkMessages: 1 });
  assert.deepEqual([resumed.replayed, resumed.facts], [3, 1]);
  const sent = server.requests("chat").slice(calls).map((r) => r.text).filter((text) => text.includes(EXTRACT));
  assert.ok(sent.length >= 3, "the three chunks not committed were extracted");
  for (const replayed of ["work from home as a translator", "a second monitor", "a trip to Lisbon in May"]) {
    assert.ok(!sent.some((text) => text.includes(replayed)), `the committed chunk with "${replayed}" was not sent again`);
  }
  assert.deepEqual(await contents(memory, alice), expected);
});

test("a signal aborted before the start adds nothing", T, async () => {
  const memory = makeMemory(server);
  await rejectsWith(() => memory.importConversations(archive(), { ...alice, signal: AbortSignal.abort() }), "ABORTED");
  assert.equal((await memory.getAll(alice)).results.length, 0);
  assert.equal(modelCalls(server), 0);
});

test("a model host failing mid-import stops it with the failure's code; imported again once it answers, the memories of a clean import", T, async () => {
  scriptFacts(server);
  const clean = makeMemory(server);
  await clean.importConversations(archive(), { ...alice, chunkMessages: 1 });
  const expected = await contents(clean, alice);

  server.reset();
  server.script({ kind: "chat", match: [EXTRACT, "I am vegan"], status: 401, message: "the host is down" });
  scriptFacts(server);
  const memory = makeMemory(server);
  await rejectsWith(() => memory.importConversations(archive(), { ...alice, chunkMessages: 1 }), "LLM_HTTP",
    (e) => assert.match(e.message, /chunk \d+ of 6 .*conversation .*import again to resume/s));
  const partial = (await contents(memory, alice)).map((m) => m.memory);
  assert.ok(!partial.includes("Is vegan") && partial.length < expected.length, "the failed chunk stored nothing");

  server.reset();
  scriptFacts(server);
  const resumed = await memory.importConversations(archive(), { ...alice, chunkMessages: 1 });
  assert.ok(resumed.facts >= 1, "the failed chunk ran again");
  assert.deepEqual(await contents(memory, alice), expected);
});
