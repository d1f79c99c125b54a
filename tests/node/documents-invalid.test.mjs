// ingest() with bad input: every case rejects with a coded MemoryError before any request, and nothing is
// stored. A failed embedding request rejects too, and stores nothing either.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryError } from "memwasm";
import { T, makeMemory, rejectsWith, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

const TEXT = "The billing service stores invoices in a relational database.";
const OK = { userId: "u", sessionId: "s" };

const cases = [
  ["empty text", "", OK, "INVALID_INPUT"],
  ["whitespace only", " \n\n\t ", OK, "INVALID_INPUT"],
  ["a text that is not a string", 42, OK, "INVALID_INPUT"],
  ["no text", undefined, OK, "INVALID_INPUT"],
  ["an unknown memoryTypeHint", TEXT, { ...OK, memoryTypeHint: "habit" }, "INVALID_INPUT", "habit"],
  ["an unknown option key", TEXT, { ...OK, metadata: { a: 1 } }, "INVALID_INPUT", "metadata"],
  ["an option add() takes but ingest() does not", TEXT, { ...OK, infer: false }, "INVALID_INPUT", "infer"],
  ["no scope", TEXT, { sessionId: "s" }, "SCOPE_REQUIRED"],
  ["no options", TEXT, undefined, "SCOPE_REQUIRED"],
  ["no sessionId", TEXT, { userId: "u" }, "INVALID_INPUT", "sessionId"],
  ["a blank sessionId", TEXT, { userId: "u", sessionId: "  " }, "INVALID_INPUT", "sessionId"],
  ["a sessionId that is not a string", TEXT, { userId: "u", sessionId: 7 }, "INVALID_INPUT"],
];

for (const [name, text, options, code, named] of cases) {
  test(`ingest rejects ${name} with ${code}, storing nothing`, T, async () => {
    const mem = makeMemory(server);
    const error = await rejectsWith(() => mem.ingest(text, options), code, (err) => {
      if (named) assert.match(err.message, new RegExp(named));
    });
    assert.ok(error instanceof MemoryError);
    assert.equal(server.count("embedding"), 0);
    assert.equal((await mem.getAll({ userId: "u" })).totalCount, 0);
  });
}

test("snake_case scope and option names are accepted", T, async () => {
  const mem = makeMemory(server);
  const result = await mem.ingest(TEXT, { user_id: "u", session_id: "s", memory_type_hint: "working" });
  assert.deepEqual([result.stored, result.chunks[0].memoryType], [1, "working"]);
});

test("a failed embedding request rejects with its code and stores nothing", T, async () => {
  const mem = makeMemory(server);
  server.script({ kind: "embedding", match: "billing", status: 401 });
  await rejectsWith(() => mem.ingest(TEXT, OK), "EMBEDDING_HTTP", (err) => assert.equal(err.status, 401));
  assert.equal((await mem.getAll({ userId: "u" })).totalCount, 0);
  const wrong = makeMemory(server, { embedder: { dimensions: 8 } });
  server.reset();
  server.script({ kind: "embedding", vector: [1, 0, 0] });
  await rejectsWith(() => wrong.ingest(TEXT, OK), "DIMENSION_MISMATCH");
  assert.equal((await wrong.getAll({ userId: "u" })).totalCount, 0);
});
