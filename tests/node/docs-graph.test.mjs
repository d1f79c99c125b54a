// The blocks of docs/graph.md run as written against the scripted server (the standard test config as
// `config`): the stand-in model's facts, entities and relations go through add(), and what the comments
// claim of getEntities, getRelations, addToGraph and deleteRelations is asserted, quoted above each check.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, Memory, addsFor, decision, extraction, scriptedServer, testConfig } from "./helpers.mjs";
import { graphToolCalls } from "../support/graph-reply.mjs";
import { blocksRunBy } from "./docs-pages.mjs";
import { keepClaimed, runBlock } from "./docs-run.mjs";

const server = scriptedServer();
const blocks = blocksRunBy("tests/node/docs-graph.test.mjs");
const INPUT = "Alice works at Google as an engineer.";
const FACTS = ["Name is Alice", "Works at Google as an engineer"];

test("docs/graph.md: add() builds the graph in 3 LLM calls, and its reads answer as the comments say", T, async () => {
  const [block] = blocks.filter((b) => b.code.includes(INPUT));
  assert.ok(block, "the add() block is marked run by this file");
  server.script([
    extraction(INPUT, FACTS),
    decision(FACTS[0], addsFor(FACTS)),
    { kind: "chat", match: ["You extract a knowledge graph", INPUT], body: graphToolCalls(
      [{ name: "Alice", type: "person" }, { name: "Google", type: "organization" }],
      [{ source: "Alice", relation: "works_at", target: "Google" }],
    ) },
  ]);
  const claimed = new Map();
  const memory = await runBlock(`${keepClaimed(block.code)}\nreturn memory;`, { Memory, config: testConfig(server), __claimed: claimed });
  assert.equal(server.requests("chat").length, 3, "extraction, decision and the graph's call");
  // {results: [{name: "Alice", type: "person", …}, {name: "Google", …}]}
  const entities = claimed.get('{results: [{name: "Alice", type: "person", …}, {name: "Google", …}]}');
  assert.deepEqual(entities.results.map((e) => [e.name, e.type]), [["Alice", "person"], ["Google", "organization"]]);
  // {results: [{source: "Alice", relation: "works_at", target: "Google", memoryIds, …}]}
  const relations = claimed.get('{results: [{source: "Alice", relation: "works_at", target: "Google", memoryIds, …}]}');
  assert.deepEqual(relations.results.map((r) => [r.source, r.relation, r.target]), [["Alice", "works_at", "Google"]]);
  assert.equal(relations.results[0].memoryIds.length, 2, "both facts of the add");
  // the entity and its relations
  assert.deepEqual((await memory.getEntities({ userId: "u" })).results.map((e) => e.name), ["Alice"]);
  assert.deepEqual((await memory.getRelations("alice", { userId: "u" })).results, []);
});

test("docs/graph.md: addToGraph() stores the records as given, and deleteRelations() removes one", T, async () => {
  const [block] = blocks.filter((b) => b.code.includes("addToGraph"));
  assert.ok(block, "the addToGraph block is marked run by this file");
  const code = block.code.replace("await memory.addToGraph(", "const graphed = await memory.addToGraph(");
  assert.notEqual(code, block.code);
  const claimed = new Map();
  const { graphed, memory } = await runBlock(`${keepClaimed(code)}\nreturn { graphed, memory };`, { Memory, config: testConfig(server), __claimed: claimed });
  // → {entities: [{name: "Alice", …}, {name: "Lisbon", …}], relations: [{source: "Alice", relation: "lives_in", target: "Lisbon", …}]}
  assert.deepEqual(graphed.entities.map((e) => e.name), ["Alice", "Lisbon"]);
  assert.deepEqual(graphed.relations.map((r) => [r.source, r.relation, r.target]), [["Alice", "lives_in", "Lisbon"]]);
  // → {deleted: 1}
  assert.equal(claimed.get("→ {deleted: 1}").deleted, 1);
  assert.deepEqual((await memory.getRelations("alice", { userId: "u" })).results, []);
  assert.equal(server.requests("chat").length, 0, "no LLM call");
});
