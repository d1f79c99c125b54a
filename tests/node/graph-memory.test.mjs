// Graph memory: one extra LLM call per add() (run beside the vector
// path) returns entities and relations as OpenAI tool calls; search walks the graph one hop.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, extraction, decision, addsFor, chatCalls, warningCodes, scriptedServer } from "./helpers.mjs";
import { graphToolCalls } from "../support/graph-reply.mjs";

const GRAPH = "You extract a knowledge graph";

const server = scriptedServer();

function graphRule(match, entities, relations, extra = {}) {
  return { kind: "chat", match: [GRAPH, match], body: graphToolCalls(entities, relations), ...extra };
}

const ALICE = [
  { name: "alice", type: "person", description: "engineer" },
  { name: "Google", type: "organization" },
];
const WORKS_AT = [{ source: "Alice", relation: "works_at", target: "Google" }];
const graphMemory = () => makeMemory(server, { graph: { enabled: true } });

/** Scripts one add of `input` giving `facts`, and its graph reply. */
function scriptAdd(input, facts, entities = ALICE, relations = WORKS_AT, extra = {}) {
  server.script([
    extraction(input, facts, { times: 1, ...extra }),
    decision(facts[0], addsFor(facts), { times: 1, ...extra }),
    graphRule(input, entities, relations, { times: 1, ...extra }),
  ]);
}

const triples = (list) => list.map((r) => [r.source, r.relation, r.target]);

describe("graph memory", () => {
  test("entities, relation and graph-enhanced search (cases 33–35), in exactly 3 LLM calls", T, async () => {
    const mem = graphMemory();
    scriptAdd("Alice works at Google", ["Name is Alice", "Is an engineer"]);
    const added = await mem.add("Alice works at Google", { userId: "u" });
    assert.deepEqual(added.results.map((e) => e.event), ["ADD", "ADD"]);
    assert.equal(server.count("chat"), 3, "extraction, decision, graph");
    assert.equal(chatCalls(server, GRAPH).length, 1);
    const { results: entities } = await mem.getEntities({ userId: "u" });
    assert.deepEqual(entities.map((e) => [e.name, e.type]), [["Alice", "person"], ["Google", "organization"]]);
    assert.equal(entities[0].description, "engineer");
    assert.deepEqual([...entities[0].memoryIds].sort(), added.results.map((e) => e.id).sort());
    const { results: relations } = await mem.getRelations("ALICE", { userId: "u" });
    assert.deepEqual(triples(relations), [["Alice", "works_at", "Google"]]);

    const query = "What about Google?";
    const plain = await mem.search(query, { userId: "u", graph: false, threshold: 0.5 });
    assert.deepEqual(plain.results, [], "the vector search alone finds nothing");
    assert.equal(plain.relations, undefined);
    const found = await mem.search(query, { userId: "u", threshold: 0.5 });
    assert.deepEqual(found.results.map((m) => m.memory).sort(), ["Is an engineer", "Name is Alice"]);
    assert.deepEqual(found.relations, [{ source: "Alice", relation: "works_at", target: "Google" }]);
    const none = await mem.search("weather today", { userId: "u" });
    assert.deepEqual(none.relations, []);
  });

  test("entities are scoped, and merge across adds", T, async () => {
    const mem = graphMemory();
    scriptAdd("first", ["Name is Alice"]);
    await mem.add("first", { userId: "u" });
    scriptAdd("second", ["Alice likes tea"], [{ name: " ALICE ", type: "person", description: "tea drinker" }], [
      { source: "alice", relation: "Works At", target: "google" },
    ]);
    await mem.add("second", { userId: "u" });
    const { results } = await mem.getEntities({ userId: "u" });
    assert.deepEqual(results.map((e) => e.name), ["Alice", "Google"]);
    assert.equal(results[0].description, "tea drinker");
    assert.equal(results[0].memoryIds.length, 2);
    const { results: relations } = await mem.getRelations("alice", { userId: "u" });
    assert.equal(relations.length, 1, "deduplicated on (source, relation, target)");
    assert.equal(relations[0].memoryIds.length, 2);
    assert.deepEqual((await mem.getEntities({ userId: "other" })).results, []);
    assert.deepEqual((await mem.getRelations("Alice", { userId: "other" })).results, []);
    await assert.rejects(mem.getEntities({}), { code: "SCOPE_REQUIRED" });
  });

  test("deleting the source memory removes its relations; deleteEntity removes the entity", T, async () => {
    const mem = graphMemory();
    scriptAdd("a", ["Name is Alice"]);
    const { results } = await mem.add("a", { userId: "u" });
    await mem.delete(results[0].id);
    assert.deepEqual((await mem.getRelations("Alice", { userId: "u" })).results, []);
    scriptAdd("b", ["Name is Alice"]);
    await mem.add("b", { userId: "u" });
    const gone = await mem.deleteEntity("google", { userId: "u" });
    assert.equal(gone.deleted, 2);
    assert.deepEqual((await mem.getEntities({ userId: "u" })).results.map((e) => e.name), ["Alice"]);
    assert.deepEqual((await mem.getRelations("Alice", { userId: "u" })).results, []);
  });

  test("a failing graph call leaves the vector events intact", T, async () => {
    const mem = graphMemory();
    server.script([
      extraction("x", ["Name is Alice"], { times: 1 }),
      decision("Name is Alice", addsFor(["Name is Alice"]), { times: 1 }),
      { kind: "chat", match: [GRAPH], status: 500, message: "down" },
    ]);
    const res = await mem.add("x", { userId: "u" });
    assert.deepEqual(res.results.map((e) => [e.event, e.memory]), [["ADD", "Name is Alice"]]);
    assert.ok(warningCodes(res).includes("GRAPH_FAILED"), JSON.stringify(res.warnings));
    assert.equal((await mem.getAll({ userId: "u" })).results.length, 1);
    assert.deepEqual((await mem.getEntities({ userId: "u" })).results, []);
  });

  test("the graph call runs concurrently with the vector path", T, async () => {
    const mem = graphMemory();
    const delayMs = 400;
    scriptAdd("slow", ["Name is Alice"], ALICE, WORKS_AT, { delayMs });
    const start = Date.now();
    await mem.add("slow", { userId: "u" });
    const wall = Date.now() - start;
    assert.equal(server.count("chat"), 3);
    assert.ok(wall >= 2 * delayMs, `wall ${wall} ms`);
    assert.ok(wall < 3 * delayMs - 100, `wall ${wall} ms: the graph call ran after the vector path`);
  });

  test("graph memory is off by default, and its calls say so", T, async () => {
    const mem = makeMemory(server);
    server.script([extraction("y", ["Name is Alice"]), decision("Name is Alice", addsFor(["Name is Alice"]))]);
    await mem.add("y", { userId: "u" });
    assert.equal(server.count("chat"), 2);
    await assert.rejects(mem.getEntities({ userId: "u" }), { code: "INVALID_INPUT" });
    assert.throws(() => makeMemory(server, { graph: { enabled: true, typo: 1 } }), { code: "INVALID_CONFIG" });
  });
});
