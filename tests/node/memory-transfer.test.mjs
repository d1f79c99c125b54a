// Export / import (JSON Lines with embeddings and history) on the in-memory store, and the IndexedDB storage
// where there is no IndexedDB (Node): a clear STORAGE_UNAVAILABLE, never a silent in-memory fall back.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, testConfig, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();

const noLlm = () => new Memory({ ...testConfig(server), llm: { provider: "none" } });
const alice = { userId: "alice" };

async function rejectsWith(promise, code, pattern) {
  await assert.rejects(promise, (error) => {
    assert.equal(error.code, code, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}

describe("exportMemories / importMemories", () => {
  test("moves memories, embeddings and history to another instance exactly", T, async () => {
    const source = noLlm();
    const tea = (await source.add("likes green tea", { ...alice, metadata: { n: 3, tags: ["x"] } })).results[0].id;
    const bike = (await source.add("owns a bike", alice)).results[0].id;
    await source.add("plays chess", { userId: "bob" });
    await source.update(tea, "likes jasmine tea");
    await source.delete(bike);

    const jsonl = await source.exportMemories({});
    const lines = jsonl.trim().split("\n").map((line) => JSON.parse(line));
    const embedder = { provider: "openai", model: "test-embed", dimensions: 64 };
    assert.deepEqual(lines[0], { kind: "memwasm-export", version: 2, memories: 2, history: 5, embedder, side: 3 });
    assert.deepEqual(lines.slice(-3).map((line) => [line.kind, line.of]), Array(3).fill(["side", "sources"]), "each add's sources");
    assert.equal(typeof lines[1].embedding, "string", "embeddings travel as base64 of little-endian f32");

    const target = noLlm();
    assert.deepEqual(await target.importMemories(jsonl), { memories: 2, history: 5 });
    assert.deepEqual(await target.getAll(alice), await source.getAll(alice));
    assert.deepEqual(await target.search("tea", alice), await source.search("tea", alice));
    assert.deepEqual(await target.history(bike), await source.history(bike), "a deleted memory's history");
    assert.deepEqual(await target.sources(tea), await source.sources(tea));
    assert.deepEqual((await target.sources(bike)).map((s) => s.excerpt), ["owns a bike"], "a deleted memory's sources");
    assert.equal(await target.exportMemories({}), jsonl);
    assert.equal((await source.exportMemories(alice)).trim().split("\n").length, 1 + 1 + 4 + 2);
  });

  test("a bad line is INVALID_INPUT naming it, and nothing is imported", T, async () => {
    const source = noLlm();
    await source.add("likes tea", alice);
    await source.add("likes jazz", alice);
    const lines = (await source.exportMemories({})).trim().split("\n");
    const target = noLlm();
    lines[2] = lines[2].replace(/"hash":"[0-9a-f]+"/, '"hash":"0000"');
    await rejectsWith(target.importMemories(lines.join("\n")), "INVALID_INPUT", /import line 3: .*hash/);
    await rejectsWith(target.importMemories("hello"), "INVALID_INPUT", /import line 1/);
    await rejectsWith(target.importMemories(7), "INVALID_INPUT");
    assert.deepEqual((await target.getAll(alice)).results, []);
    await rejectsWith(target.exportMemories({ userId: "" }), "SCOPE_REQUIRED");
    await rejectsWith(target.exportMemories({ userId: " " }), "INVALID_INPUT", /whitespace-only/);
  });
});

describe("storage: indexeddb outside a browser", () => {
  const indexeddb = (config) => ({ ...testConfig(server), storage: { provider: "indexeddb", config } });

  test("Memory.open rejects with STORAGE_UNAVAILABLE", T, async () => {
    await rejectsWith(Memory.open(indexeddb({ dbName: "notes" })), "STORAGE_UNAVAILABLE", /IndexedDB is not available/);
  });

  test("the constructor refuses it, and a bad storage config names the field", T, async () => {
    assert.throws(() => new Memory(indexeddb({ dbName: "notes" })), (e) => e.code === "INVALID_CONFIG" && /Memory\.open/.test(e.message));
    await rejectsWith(Memory.open(indexeddb({})), "INVALID_CONFIG", /storage\.config\.dbName: required/);
    await rejectsWith(Memory.open(indexeddb({ dbName: "x", persist: "yes" })), "INVALID_CONFIG", /storage\.config\.persist/);
  });
});
