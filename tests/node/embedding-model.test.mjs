// A store remembers the embedding model its vectors come from: reopening it with another model of the same
// dimensions warns EMBEDDING_MODEL_CHANGED (a coded error under strict), `reembed()` re-embeds every memory
// with the current model, and a store written before the model was recorded adopts the current one.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, T, scriptedServer, testConfig, seed, rejectsWith } from "./helpers.mjs";
import { DRIVERS, databaseFolder, rawDatabase, sqliteStorage } from "./sqlite-support.mjs";

const server = scriptedServer();
const newFile = databaseFolder();
const alice = { userId: "alice" };
const FACTS = ["Likes hiking in the Alps", "Works as a nurse"];

/** What `console.warn` printed while `work` ran, and its result. */
async function warned(work) {
  const printed = [];
  const warn = console.warn;
  console.warn = (...args) => printed.push(args.join(" "));
  try {
    return { result: await work(), printed };
  } finally {
    console.warn = warn;
  }
}

const modelWarnings = (printed) => printed.filter((line) => line.includes("EMBEDDING_MODEL_CHANGED"));

const driver = DRIVERS[0];
describe(`the embedding model of a SQLite store (${driver})`, () => {
  const config = (path, model, over = {}) =>
    testConfig(server, { storage: sqliteStorage(path, driver), embedder: { model }, ...over });
  const open = (path, model, over) => Memory.open(config(path, model, over));
  /** A store at a new path holding FACTS, embedded by `model`, closed. */
  async function written(model) {
    const path = newFile();
    const memory = await open(path, model);
    await seed(memory, server, FACTS, alice);
    memory.close();
    return path;
  }

  test("reopening with another model of the same dimensions warns, naming both models and the fix", T, async () => {
    const path = await written("embed-a");
    const same = await warned(() => open(path, "embed-a"));
    same.result.close();
    assert.deepEqual(modelWarnings(same.printed), [], "the same model: no warning");
    const other = await warned(() => open(path, "embed-b"));
    const [warning, ...more] = modelWarnings(other.printed);
    assert.equal(more.length, 0, other.printed.join("\n"));
    for (const part of ["openai/embed-a", "openai/embed-b", "64 dimensions", "reembed()"]) {
      assert.ok(warning?.includes(part), `${part} in ${warning}`);
    }
    assert.equal((await other.result.getAll(alice)).results.length, 2, "the memories are all there");
    other.result.close();
  });

  test("under strict: true, reopening with another model rejects EMBEDDING_MODEL_CHANGED", T, async () => {
    const path = await written("embed-a");
    await rejectsWith(() => open(path, "embed-b", { strict: true }), "EMBEDDING_MODEL_CHANGED", (err) => {
      for (const part of ["openai/embed-a", "openai/embed-b", "reembed()"]) assert.ok(err.message.includes(part), err.message);
    });
    const memory = await open(path, "embed-a", { strict: true });
    assert.equal((await memory.getAll(alice)).results.length, 2, "the store is intact and opens with its own model");
    memory.close();
  });

  test("reembed() re-embeds every memory with the current model, with progress; the store then takes it", T, async () => {
    const path = await written("embed-a");
    const { result: memory } = await warned(() => open(path, "embed-b"));
    const from = server.requests("embedding").length;
    const progress = [];
    const done = await memory.reembed({ onProgress: (p) => progress.push(p) });
    assert.equal(done.memories, 2);
    const requests = server.requests("embedding").slice(from);
    assert.ok(requests.length > 0 && requests.every((r) => r.body.model === "embed-b"), JSON.stringify(requests.map((r) => r.body.model)));
    assert.deepEqual(requests.flatMap((r) => r.inputs).sort(), [...FACTS].sort());
    assert.deepEqual(progress.filter((p) => p.phase === "embed").at(-1), { phase: "embed", done: 2, total: 2 });
    assert.equal((await memory.search("hiking in the Alps", alice)).results[0].memory, "Likes hiking in the Alps");
    memory.close();
    const again = await warned(() => open(path, "embed-b", { strict: true }));
    assert.deepEqual(modelWarnings(again.printed), []);
    again.result.close();
    await rejectsWith(() => open(path, "embed-a", { strict: true }), "EMBEDDING_MODEL_CHANGED");
  });

  test("a store written before the model was recorded adopts the current model silently", T, async () => {
    const path = await written("embed-a");
    const db = rawDatabase(path);
    const recorded = db.all("SELECT kind, key FROM side WHERE kind = 'store'");
    assert.equal(recorded.length, 1, "the model is recorded in the side table");
    db.run("DELETE FROM side WHERE kind = 'store'");
    db.close();
    const adopted = await warned(() => open(path, "embed-b", { strict: true }));
    assert.deepEqual(modelWarnings(adopted.printed), []);
    adopted.result.close();
    await rejectsWith(() => open(path, "embed-c", { strict: true }), "EMBEDDING_MODEL_CHANGED", (err) => {
      assert.ok(err.message.includes("openai/embed-b"), err.message);
    });
  });
});

describe("the embedding model of an export", () => {
  test("an export names its embedding model; importing it under another model warns EMBEDDING_MODEL_CHANGED", T, async () => {
    const memory = (model) => new Memory(testConfig(server, { embedder: { model } }));
    const from = memory("embed-a");
    await seed(from, server, FACTS, alice);
    const jsonl = await from.exportMemories(alice);
    assert.deepEqual(JSON.parse(jsonl.split("\n")[0]).embedder, { provider: "openai", model: "embed-a", dimensions: 64 });
    assert.equal((await memory("embed-a").importMemories(jsonl)).warnings, undefined);
    const other = memory("embed-b");
    const imported = await other.importMemories(jsonl);
    assert.equal(imported.memories, 2);
    assert.deepEqual(imported.warnings?.map((w) => w.code), ["EMBEDDING_MODEL_CHANGED"]);
    for (const part of ["openai/embed-a", "openai/embed-b", "reembed()"]) {
      assert.ok(imported.warnings[0].message.includes(part), imported.warnings[0].message);
    }
    assert.equal((await other.reembed()).memories, 2);
  });
});
