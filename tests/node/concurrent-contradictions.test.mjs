// Concurrent add()s of one user that contradict: eight adds, started before any resolves, each move the user
// to another city (tests/support/moving-user.mjs: the decision answers UPDATE when its prompt shows where the
// user lives). Each add's decision sees what the one before it decided, in RAM and over a SQLite file: one
// current fact, 7 UPDATEs in its history, for each of two users moving at once, and across the two
// memwasm/mem0 Memories of one file. A model host that does not
// answer holds the user's turn only until its timeout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";

import { Memory as Mem0Memory } from "memwasm/mem0";
import { Memory, T, makeMemory, scriptedServer, testConfig } from "./helpers.mjs";
import { mem0Config } from "./mem0-processes.mjs";
import { scratchFolder } from "./sqlite-support.mjs";
import { CITIES, movingUser } from "../support/moving-user.mjs";

const server = scriptedServer();
const folder = scratchFolder();

/** Runs the eight moves of `userId` at once on `mem` and checks where they end. */
async function eightMoves(mem, userId, label) {
  const results = await Promise.all(CITIES.map((city) => mem.add(`I moved to ${city}`, { userId })));
  const events = results.flatMap((r) => r.results.map((e) => e.event));
  const stored = (await mem.getAll({ userId })).results;
  assert.equal(stored.length, 1, `${label}: one current fact, found ${JSON.stringify(stored.map((m) => m.memory))}`);
  assert.match(stored[0].memory, /^User lives in \w+$/, label);
  assert.deepEqual([events.filter((e) => e === "ADD").length, events.filter((e) => e === "UPDATE").length], [1, 7], label);
  const history = await mem.history(stored[0].id);
  assert.deepEqual(history.map((h) => h.event), ["ADD", ...Array(7).fill("UPDATE")], `${label}: its history`);
}

for (const pipeline of ["fast", "exact"]) {
  test(`8 concurrent adds that each move the user end with one fact and 7 UPDATEs (${pipeline} pipeline)`, T, async () => {
    server.script(movingUser());
    await eightMoves(makeMemory(server, { pipeline }), "alice", pipeline);
  });
}

test("the same over a SQLite file, for two users at once", T, async () => {
  server.script(movingUser());
  const config = testConfig(server, { storage: { provider: "sqlite", config: { path: join(folder, "moves.db") } } });
  const mem = await Memory.open(config);
  try {
    await Promise.all([eightMoves(mem, "alice", "alice"), eightMoves(mem, "bob", "bob")]);
  } finally {
    mem.close();
  }
});

test("memwasm/mem0: two Memories over one file, four moves on each at once, end with one fact and 7 UPDATEs", T, async () => {
  server.script(movingUser());
  const dbPath = join(folder, "mem0", "vector_store.db");
  const config = mem0Config(server, { vectorStore: { provider: "memory", config: { dbPath } }, pipeline: "fast" });
  const [a, b] = [new Mem0Memory(config), new Mem0Memory(config)];
  try {
    const adds = CITIES.map((city, nth) => (nth % 2 ? b : a).add(`I moved to ${city}`, { userId: "alice" }));
    const events = (await Promise.all(adds)).flatMap((r) => r.results.map((e) => e.event ?? e.metadata?.event));
    const stored = (await b.getAll({ filters: { user_id: "alice" } })).results;
    assert.equal(stored.length, 1, `one current fact, found ${JSON.stringify(stored.map((m) => m.memory))}`);
    assert.deepEqual([events.filter((e) => e === "ADD").length, events.filter((e) => e === "UPDATE").length], [1, 7]);
  } finally {
    a.close();
    b.close();
  }
});

test("a model host that does not answer holds the user's turn only until its timeout", T, async () => {
  const slow = { kind: "chat", match: ["I moved to Paris"], reply: { facts: ["User lives in Paris"] }, delayMs: 5_000 };
  server.script([slow, ...movingUser()]);
  const mem = makeMemory(server, { llm: { timeoutMs: 300, connectTimeoutMs: 0 }, retry: { maxRetries: 0 } });
  const [paris, berlin] = await Promise.all(["Paris", "Berlin"].map((city) => mem.add(`I moved to ${city}`, { userId: "alice" })));
  assert.deepEqual(paris.warnings.map((w) => [w.code, w.cause]), [["EXTRACTION_FAILED", "LLM_TIMEOUT"]]);
  assert.deepEqual(berlin.results.map((e) => [e.event, e.memory]), [["ADD", "User lives in Berlin"]]);
});
