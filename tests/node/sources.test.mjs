// Provenance through the package on a SQLite file: sources() of an infer: false add (each memory its own
// message), an idempotencyKey that replays after the file is opened again with no model call, bad message
// fields rejected with a coded error naming the field and nothing stored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { T, Memory, addsFor, decision, extraction, scriptedServer, testConfig } from "./helpers.mjs";
import { databaseFolder } from "./sqlite-support.mjs";

const server = scriptedServer();
const newPath = databaseFolder();
const open = (path) => Memory.open(testConfig(server, { storage: { provider: "sqlite", config: { path } } }));
const md5 = (text) => createHash("md5").update(text, "utf8").digest("hex");

test("infer: false gives each memory its own message; ids by hash when none is given", T, async () => {
  const memory = await open(newPath());
  const said = [{ role: "user", content: "Likes tea", id: "m1" }, { role: "system", content: "be brief" }, { role: "assistant", content: "Noted" }];
  const { results } = await memory.add(said, { userId: "u", infer: false });
  assert.deepEqual(results.map((e) => e.memory), ["Likes tea", "Noted"]);
  const [tea, noted] = [await memory.sources(results[0].id), await memory.sources(results[1].id)];
  assert.deepEqual(tea.map((s) => [s.id, s.role, s.excerpt, s.event]), [["m1", "user", "Likes tea", "ADD"]]);
  assert.deepEqual(noted.map((s) => s.id), [`md5:${md5("assistant\nNoted")}`]);
  await assert.rejects(memory.sources("no-such-id"), (error) => error.code === "NOT_FOUND");
  memory.close();
});

test("an idempotencyKey replays after the file is opened again, with no model call", T, async () => {
  const path = newPath();
  server.script([
    extraction("I sail on weekends", ["Sails on weekends"], { times: 1 }),
    decision("Sails on weekends", addsFor(["Sails on weekends"]), { times: 1 }),
  ]);
  const first = await open(path);
  const chunk = [{ role: "user", content: "I sail on weekends", id: "m7", conversationId: "c2", created_at: "2024-06-01" }];
  const added = await first.add(chunk, { userId: "u", idempotencyKey: "import:c2:m7:m7" });
  assert.equal(added.replayed, undefined);
  first.close();
  const before = server.requests().length;
  const reopened = await open(path);
  const again = await reopened.add(chunk, { userId: "u", idempotency_key: "import:c2:m7:m7" });
  assert.deepEqual(again, { ...added, replayed: true });
  assert.equal(server.requests().length, before, "no model call");
  assert.equal((await reopened.getAll({ userId: "u" })).results.length, 1);
  const [source] = await reopened.sources(added.results[0].id);
  assert.deepEqual([source.id, source.conversationId, source.createdAt], ["m7", "c2", "2024-06-01"]);
  reopened.close();
});

test("a message field of the wrong type rejects with INVALID_INPUT naming it, and nothing is stored", T, async () => {
  const memory = new Memory(testConfig(server));
  const before = server.requests().length;
  for (const [message, field] of [
    [{ role: "user", content: "x", id: 5 }, "messages[0].id"],
    [{ role: "user", content: "x", conversationId: ["c"] }, "messages[0].conversationId"],
    [{ role: "user", content: "x", createdAt: "tomorrow-ish" }, "messages[0].createdAt"],
  ]) {
    await assert.rejects(memory.add([message], { userId: "u", idempotencyKey: "k" }), (error) => {
      assert.equal(error.code, "INVALID_INPUT");
      assert.ok(error.message.includes(field), error.message);
      return true;
    });
  }
  await assert.rejects(memory.add("x", { userId: "u", idempotencyKey: "" }), (error) => error.code === "INVALID_INPUT");
  assert.equal(server.requests().length, before, "no model call");
  assert.deepEqual((await memory.getAll({ userId: "u" })).results, []);
});
