// Graph memory written by the app: addToGraph merges entities and relations as add()'s extraction does,
// linked to memories (deleting them takes the records), deleteRelations removes relations one by one, and a
// bad item is INVALID_INPUT with nothing written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { T, makeMemory, scriptedServer, rejectsWith } from "./helpers.mjs";

const server = scriptedServer();
const u = { userId: "u" };
const graphMemory = () => makeMemory(server, { graph: { enabled: true } });
const triples = (list) => list.map((r) => [r.source, r.relation, r.target]);

test("addToGraph writes entities and relations without an LLM, merged and linked to memories", T, async () => {
  const memory = graphMemory();
  const { results } = await memory.add("Alice moved to Lisbon", { ...u, infer: false });
  const written = await memory.addToGraph({
    entities: [{ name: " alice ", type: "person" }, { name: "Lisbon", type: "location", description: "capital" }],
    relations: [{ source: "Alice", relation: "Lives In", target: "lisbon" }, { source: "Alice", relation: "likes", target: "Tea" }],
    memoryIds: [results[0].id],
  }, u);
  assert.deepEqual(written.entities.map((e) => [e.name, e.type]).sort(), [["Alice", "person"], ["Lisbon", "location"], ["Tea", "concept"]]);
  assert.deepEqual(triples(written.relations).sort(), [["Alice", "likes", "Tea"], ["Alice", "lives_in", "Lisbon"]]);
  assert.equal(server.count("chat"), 0, "no LLM call");
  assert.deepEqual(triples((await memory.getRelations("ALICE", u)).results).sort(), triples(written.relations).sort());
  assert.deepEqual((await memory.getEntities({ userId: "other" })).results, [], "another scope sees none of it");

  const again = await memory.addToGraph({ entities: [{ name: "alice", description: "engineer" }] }, u);
  assert.deepEqual([again.entities[0].name, again.entities[0].type, again.entities[0].description], ["Alice", "person", "engineer"]);
  assert.equal((await memory.getEntities(u)).results.length, 3, "merged by name, not added twice");

  assert.deepEqual(await memory.deleteRelations([{ source: "alice", relation: "likes", target: "tea" }], u), {
    message: "Relations deleted successfully!", deleted: 1,
  });
  assert.equal((await memory.deleteRelations([{ source: "alice", relation: "likes", target: "tea" }], u)).deleted, 0);
  assert.deepEqual(triples((await memory.getRelations("Alice", u)).results), [["Alice", "lives_in", "Lisbon"]]);
  assert.equal((await memory.getEntities(u)).results.length, 3, "deleting a relation keeps its entities");

  await memory.delete(results[0].id);
  assert.deepEqual((await memory.getRelations("Alice", u)).results, [], "the linked memory's deletion takes its relation");
});

test("bad graph input is INVALID_INPUT naming the item, unknown memories NOT_FOUND, and nothing is written", T, async () => {
  const memory = graphMemory();
  const bad = async (graph, path) =>
    rejectsWith(() => memory.addToGraph(graph, u), "INVALID_INPUT", (error) => assert.match(error.message, new RegExp(path)));
  await bad({ entities: [{ name: "Alice" }, { type: "person" }] }, "entities\\[1\\]\\.name");
  await bad({ relations: [{ source: "Alice", target: "Bob" }] }, "relations\\[0\\]\\.relation");
  await bad({ entities: "Alice" }, "entities: must be an array");
  await bad({ nodes: [] }, "graph\\.nodes: unknown key");
  await bad({}, "names no entity and no relation");
  await bad(null, "graph");
  await rejectsWith(() => memory.addToGraph({ entities: [{ name: "Alice" }], memoryIds: ["nope"] }, u), "NOT_FOUND");
  await rejectsWith(() => memory.addToGraph({ entities: [{ name: "Alice" }] }, {}), "SCOPE_REQUIRED");
  await rejectsWith(() => memory.deleteRelations({ source: "a" }, u), "INVALID_INPUT");
  assert.deepEqual((await memory.getEntities(u)).results, [], "nothing was written");
  await rejectsWith(() => makeMemory(server).addToGraph({ entities: [{ name: "A" }] }, u), "INVALID_INPUT", (error) =>
    assert.match(error.message, /graph memory is off/),
  );
});
