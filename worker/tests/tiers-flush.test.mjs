// POST /v1/tiers/flush in workerd: the 202 comes once the turns are journaled and queued (persisted in KV),
// before their add runs in waitUntil; a batch whose add fails stays queued and the next flush of the tenant
// writes it (joined by that scope's new turns).
import assert from "node:assert/strict";
import { test } from "node:test";
import { DECIDE, EXTRACT, T, allKeys } from "./helpers.mjs";
import { chats, day, flush, flushed, get, memoriesOf, queued, startTiers, until } from "./tiers-helpers.mjs";

test("flush answers 202 once the turns are persisted, before their add has run", T, async (t) => {
  const { server, worker } = await startTiers(t);
  const fact = "User drinks green tea every morning";
  server.script([
    { kind: "chat", match: [EXTRACT, "green tea ritual"], reply: { facts: [fact] }, delayMs: 1500, times: 1 },
    { kind: "chat", match: [DECIDE, fact], reply: { memory: [{ text: fact, event: "ADD" }] }, times: 1 },
  ]);
  const messages = [
    { role: "user", content: "My green tea ritual happens every morning." },
    { role: "assistant", content: "Lovely habit!" },
  ];
  const before = day();
  const body = await flush(worker, { user_id: "alice" }, messages);
  const extraction = () => chats(server, EXTRACT);
  assert.ok(extraction().every((entry) => entry.status === undefined), "no extraction was answered before the 202");
  assert.equal(body.queued, 2);
  assert.ok([before, day()].includes(body.date), body.date);
  assert.equal(await queued(worker), 1, "the turns are persisted as a queue record");
  assert.deepEqual(await memoriesOf(worker, "alice"), []);

  await until(() => extraction().length === 1, "the extraction request");
  assert.equal(extraction()[0].status, undefined, "the add is still waiting for its extraction");
  await until(async () => (await memoriesOf(worker, "alice")).length === 1, "the memory the add stores");
  assert.deepEqual(await memoriesOf(worker, "alice"), [fact]);
  await until(async () => (await queued(worker)) === 0, "the queue record to go");
  assert.equal(extraction().length, 1, "one add for the flush");
});

test("a batch whose add fails stays queued, its attempt counted, and the next flush writes it", T, async (t) => {
  const { server, worker } = await startTiers(t, { MAX_RETRIES: "1" });
  // The extraction fails twice: the call and its one HTTP retry.
  server.script({ kind: "chat", match: [EXTRACT, "cello"], status: 500, times: 2 });
  await flush(worker, { user_id: "alice" }, "I play the cello in an orchestra.");
  const kv = await worker.kv();
  const [key] = await allKeys(kv, "t/acme/side/background-queue/");
  await until(async () => (await kv.get(key, "json"))?.attempts === 1, "the failed attempt to be recorded");
  const kept = await kv.get(key, "json");
  assert.deepEqual(kept.messages, [{ role: "user", content: "I play the cello in an orchestra." }]);
  assert.deepEqual(await memoriesOf(worker, "alice"), []);

  const fact = "User plays the cello";
  server.script([
    { kind: "chat", match: [EXTRACT, "cello"], reply: { facts: [fact] }, times: 1 },
    { kind: "chat", match: [DECIDE, fact], reply: { memory: [{ text: fact, event: "ADD" }] }, times: 1 },
  ]);
  await flushed(worker, { user_id: "bob" }, "Hello there.");
  assert.deepEqual(await memoriesOf(worker, "alice"), [fact], "bob's flush also wrote alice's batch");
  assert.equal(chats(server, EXTRACT).filter((entry) => entry.user.includes("cello")).length, 3);
  assert.equal(await queued(worker), 0);
});

test("turns flushed for a scope whose batch failed join that batch in one add", T, async (t) => {
  const { server, worker } = await startTiers(t, { MAX_RETRIES: "1" });
  server.script({ kind: "chat", match: [EXTRACT, "cello"], status: 500, times: 2 });
  await flush(worker, { user_id: "alice" }, "I play the cello.");
  const kv = await worker.kv();
  const [key] = await allKeys(kv, "t/acme/side/background-queue/");
  await until(async () => (await kv.get(key, "json"))?.attempts === 1, "the failed attempt to be recorded");

  const facts = ["User plays the cello", "User plays the viola"];
  server.script([
    { kind: "chat", match: [EXTRACT, "cello", "viola"], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, ...facts], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) } },
  ]);
  await flushed(worker, { user_id: "alice" }, "And the viola too.");
  assert.deepEqual(await memoriesOf(worker, "alice"), facts);
  const journal = (await get(worker, "journal", { user_id: "alice" })).body.markdown;
  assert.ok(journal.includes("I play the cello.") && journal.includes("And the viola too."), journal);
});
