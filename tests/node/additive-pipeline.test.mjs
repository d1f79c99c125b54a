// add()'s additive pipeline (`pipeline: "additive"`, mem0 v3's add, the default of `memwasm/mem0`): one LLM
// call extracts the facts, shown the scope's related memories; every new fact is added, nothing updated or
// deleted; a fact the scope already holds (same md5, or a near-duplicate vector) is a NONE event, not stored.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { Memory as Mem0Memory } from "memwasm/mem0";
import { T, makeMemory, clockedMemory, testConfig, texts, warningCodes, throwsInvalidConfig, scriptedServer, Memory } from "./helpers.mjs";

const server = scriptedServer();
const ADDITIVE = "You are a memory extractor";
/** `memwasm/mem0` keeps memories in ~/.mem0/vector_store.db unless told: these stay in RAM. */
const inRam = { vectorStore: { provider: "memory", config: { dbPath: ":memory:" } } };
/** The additive call's reply `{"memory": [{id, text, attributed_to}]}` for a call mentioning `match`. */
const memories = (match, facts) => ({
  kind: "chat",
  match: [ADDITIVE, match],
  reply: { memory: facts.map((text, i) => ({ id: String(i), text, attributed_to: "user" })) },
});

describe("the additive add() pipeline", () => {
  test("one LLM call, at most 2 embedding requests, ADD only, history ADD, related memories shown", T, async () => {
    const mem = makeMemory(server, { pipeline: "additive" });
    await mem.add("User lives in NYC", { userId: "u", infer: false });
    server.reset();
    server.script(memories("moved to Boston", ["User moved to Boston", "User works at Acme"]));
    const res = await mem.add("I moved to Boston from NYC. I work at Acme.", { userId: "u" });
    assert.deepEqual(res.results.map((e) => e.event), ["ADD", "ADD"]);
    assert.deepEqual(texts(res.results), ["User moved to Boston", "User works at Acme"]);
    assert.equal(server.count("chat"), 1, "one extraction call, no update decision");
    assert.ok(server.count("embedding") <= 2, `${server.count("embedding")} embedding requests`);
    const [call] = server.requests("chat");
    const user = call.body.messages.find((m) => m.role === "user").content;
    assert.match(user, /## Existing Memories\n\[\{"id":"0","text":"User lives in NYC"\}\]/);
    assert.match(user, /## New Messages\nuser: I moved to Boston from NYC\. I work at Acme\./);
    const all = await mem.getAll({ userId: "u" });
    assert.deepEqual(texts(all.results), ["User lives in NYC", "User moved to Boston", "User works at Acme"], "kept");
    const trail = await mem.history(res.results[0].id);
    assert.deepEqual(trail.map((h) => [h.event, h.newValue]), [["ADD", res.results[0].memory]]);
  });

  test("exact and near duplicates are NONE events without an LLM call for them, and not stored", T, async () => {
    const mem = makeMemory(server);
    await mem.add("User likes green tea", { userId: "u", infer: false });
    server.reset();
    const facts = ["User likes green tea", "user likes GREEN tea!", "User plays chess", "User plays chess."];
    server.script(memories("tea", facts));
    const res = await mem.add("I like green tea and I play chess", { userId: "u", pipeline: "additive" });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["NONE", "User likes green tea"], ["ADD", "User plays chess"]]);
    assert.equal(server.count("chat"), 1);
    assert.equal(server.count("embedding"), 1, "the new facts, in one request");
    assert.equal((await mem.getAll({ userId: "u" })).results.length, 2);
  });

  test("nearDuplicate: false keeps near duplicates; a bad threshold is INVALID_CONFIG", T, async () => {
    const mem = makeMemory(server, { pipeline: "additive", nearDuplicate: false });
    await mem.add("User likes green tea", { userId: "u", infer: false });
    server.script(memories("tea", ["user likes GREEN tea!"]));
    const before = server.count("embedding");
    const res = await mem.add("I like green tea", { userId: "u" });
    assert.deepEqual(res.results.map((e) => e.event), ["ADD"]);
    // With no near-duplicate check too, add() waits for the fact's vector, so a failed embedding is said on
    // its result (NOT_EMBEDDED, tests/node/mem0-dead-embedder.test.mjs).
    assert.equal(server.count("embedding"), before + 1, "the fact, before add() resolves");
    const found = await mem.search("green tea", { userId: "u", method: "vector" });
    assert.equal(found.results.length, 2);
    assert.equal(found.warnings, undefined, "every memory has its vector");
    assert.equal(server.count("embedding"), before + 2, "the fact, then the query");
    throwsInvalidConfig(testConfig(server, { nearDuplicate: 1.5 }));
  });

  test("LLM down: EXTRACTION_FAILED, nothing stored, no embedding request; memwasm/mem0 rejects with LLMError", T, async () => {
    server.script({ kind: "chat", status: 503 });
    const res = await makeMemory(server, { pipeline: "additive", retry: { maxRetries: 0 } }).add("I like chess", { userId: "u" });
    assert.deepEqual([res.results, warningCodes(res), server.count("embedding")], [[], ["EXTRACTION_FAILED"], 0]);
    const mem0 = new Mem0Memory(testConfig(server, { retry: { maxRetries: 0 }, ...inRam }));
    await assert.rejects(mem0.add("I like chess", { userId: "u" }), (e) => e.name === "LLMError" && e.code === "LLM_HTTP");
  });

  test("memwasm/mem0 defaults to the additive pipeline, keeps curated on request, and speaks mem0's words", T, async () => {
    const mem0 = new Mem0Memory(testConfig(server, inRam));
    assert.ok(mem0 instanceof Memory);
    server.script(memories("chess", ["User plays chess"]));
    const res = await mem0.add("I play chess", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.metadata.event]), [["ADD", "ADD"]]);
    assert.equal(server.count("chat"), 1);
    await assert.rejects(mem0.add("x", {}), (e) => e.code === "SCOPE_REQUIRED" && /One of the filters/.test(e.message));
    const curated = new Mem0Memory(testConfig(server, { pipeline: "fast", ...inRam }));
    server.reset();
    server.script({ kind: "chat", reply: { facts: [] } });
    await curated.add("I play go", { userId: "u" });
    assert.ok(!server.requests("chat")[0].body.messages[0].content.startsWith(ADDITIVE), "the curated extraction prompt");
  });

  test("of two facts kept side by side that match a query alike, search ranks the newer first", T, async () => {
    const { mem, clock } = clockedMemory(server, { pipeline: "additive" });
    server.script({ kind: "embedding", vector: new Array(64).fill(0.1) }); // every text alike
    await mem.add("User lives in NYC", { userId: "u", infer: false });
    clock.t += 60_000;
    await mem.add("User lives in Boston", { userId: "u", infer: false });
    // By vector: every text embeds alike, so the two cosines tie (hybrid would read Boston, a turn, with NYC's words).
    const found = await mem.search("Where does the user live?", { userId: "u", method: "vector" });
    assert.equal(found.results[0].score, found.results[1].score);
    assert.deepEqual(found.results.map((m) => m.memory), ["User lives in Boston", "User lives in NYC"]);
  });
});
