// The reference memory server's knowledge-graph tools over graph memory, through `npx memwasm mcp`.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { T, call, callFails, connect, freshDb, scriptAdd, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
let client;
before(async () => (await server.ready, (client = await connect(server, freshDb()))));
after(async () => client?.close());

const ALICE = {
  entities: [{ name: "alice", type: "person", description: "engineer" }, { name: "Google", type: "organization" }],
  relations: [{ source: "Alice", relation: "works_at", target: "Google" }],
};

test("read_graph, search_nodes and open_nodes show what add_memory extracted, in the reference server's shape", T, async () => {
  scriptAdd(server, "Alice works at Google", ["Alice works at Google"], ALICE);
  await call(client, "add_memory", { text: "Alice works at Google as an engineer", user_id: "u" });
  const graph = await call(client, "read_graph", { user_id: "u" });
  assert.deepEqual(graph.entities.map((e) => [e.name, e.entityType]).sort(), [["Alice", "person"], ["Google", "organization"]]);
  assert.deepEqual(graph.entities.find((e) => e.name === "Alice").observations, ["engineer", "Alice works at Google"]);
  assert.deepEqual(graph.relations, [{ from: "Alice", to: "Google", relationType: "works_at" }]);
  assert.deepEqual(await call(client, "read_graph"), { entities: [], relations: [] }, "the default user has no graph");

  const found = await call(client, "search_nodes", { query: "ENGINEER", user_id: "u" });
  assert.deepEqual(found.entities.map((e) => e.name), ["Alice"]);
  assert.equal(found.relations.length, 1, "relations touching a found node");
  const opened = await call(client, "open_nodes", { names: ["google"], user_id: "u" });
  assert.deepEqual(opened.entities.map((e) => e.name), ["Google"]);
  assert.deepEqual(opened.relations, graph.relations);
});

test("create_entities, create_relations and add_observations write the graph directly, with no LLM call", T, async () => {
  const chats = server.count("chat");
  const created = await call(client, "create_entities", { user_id: "v", entities: [
    { name: "Bob", entityType: "person", observations: ["Likes jazz"] }, { name: "acme", entityType: "organization", observations: [] }] });
  assert.deepEqual(created.entities.map((e) => [e.name, e.entityType, e.observations]).sort(), [
    ["Acme", "organization", []], ["Bob", "person", ["Likes jazz"]]]);

  const related = await call(client, "create_relations", { user_id: "v", relations: [{ from: "Bob", to: "Acme", relationType: "works at" }] });
  assert.deepEqual(related.relations, [{ from: "Bob", to: "Acme", relationType: "works_at" }]);
  const unrelated = await call(client, "delete_relations", { user_id: "v", relations: [
    { from: "bob", to: "acme", relationType: "works_at" }, { from: "Bob", to: "Nobody", relationType: "knows" }] });
  assert.deepEqual([unrelated.deletedCount, unrelated.message], [1, "Deleted 1 of 2 relations (the others were not in the graph)."]);
  const after = await call(client, "read_graph", { user_id: "v" });
  assert.deepEqual([after.relations, after.entities.map((e) => e.name).sort()], [[], ["Acme", "Bob"]], "the entities stay");

  const observed = await call(client, "add_observations", { user_id: "v", observations: [{ entityName: "bob", contents: ["Plays the trumpet"] }] });
  assert.deepEqual(observed.results, [{ entityName: "bob", addedObservations: ["Plays the trumpet"] }]);
  const [entity] = (await call(client, "open_nodes", { user_id: "v", names: ["Bob"] })).entities;
  assert.deepEqual([entity.entityType, entity.observations.sort()], ["person", ["Likes jazz", "Plays the trumpet"]]);
  assert.equal((await callFails(client, "add_observations", { user_id: "v", observations: [{ entityName: "Nobody", contents: ["x"] }] })).code, "NOT_FOUND");
  assert.equal(server.count("chat"), chats, "no LLM call");

  const unobserved = await call(client, "delete_observations", { user_id: "v", deletions: [{ entityName: "Bob", observations: ["Likes jazz", "Plays the trumpet"] }] });
  assert.equal(unobserved.deletedCount, 2);
  const [kept] = (await call(client, "open_nodes", { user_id: "v", names: ["Bob"] })).entities;
  assert.deepEqual([kept.name, kept.entityType, kept.observations], ["Bob", "person", []], "an entity without observations stays");
  await call(client, "add_observations", { user_id: "v", observations: [{ entityName: "Bob", contents: ["Likes jazz"] }] });
});

test("delete_observations deletes the memory behind an observation; delete_entities removes entities and relations", T, async () => {
  const scope = { user_id: "u" };
  const gone = await call(client, "delete_observations", { ...scope, deletions: [
    { entityName: "Alice", observations: ["Alice works at Google"] }, { entityName: "Nobody", observations: ["x"] }] });
  assert.equal(gone.deletedCount, 1);
  assert.deepEqual(gone.missingEntities, ["Nobody"]);
  assert.equal((await call(client, "get_memories", scope)).totalCount, 0);

  const deleted = await call(client, "delete_entities", { user_id: "v", entityNames: ["acme", "Nobody"] });
  assert.deepEqual([deleted.deleted, deleted.notFound], [["Acme"], ["Nobody"]]);
  const graph = await call(client, "read_graph", { user_id: "v" });
  assert.deepEqual(graph.entities.map((e) => e.name), ["Bob"]);
  assert.deepEqual(graph.relations, []);
  assert.equal((await call(client, "delete_relations", { user_id: "v", relations: [{ from: "a", to: "b", relationType: "c" }] })).deletedCount, 0);
  assert.equal((await callFails(client, "open_nodes", { names: "Bob" })).code, "INVALID_INPUT");
  assert.equal((await callFails(client, "search_nodes", { query: "x".repeat(2049) })).code, "INVALID_INPUT");
});

test("with --no-graph the graph tools are not listed, and a call to one anyway names the flag", T, async () => {
  const off = await connect(server, freshDb(), ["--no-graph"]);
  const names = (await off.listTools()).tools.map((t) => t.name);
  const graphOnly = ["create_entities", "create_relations", "add_observations", "delete_observations", "delete_relations",
    "read_graph", "search_nodes", "open_nodes"];
  assert.deepEqual(graphOnly.filter((name) => names.includes(name)), [], "graph-only tools are not listed");
  assert.ok(names.includes("delete_entities"), "delete_entities stays: its form without entityNames deletes a scope's memories");
  for (const [name, args] of [["read_graph", {}], ["create_entities", { entities: "not an array" }],
    ["delete_entities", { entityNames: ["Bob"] }]]) {
    const error = await callFails(off, name, args);
    assert.equal(error.code, "NOT_SUPPORTED", `${name}: ${error.message}`);
    assert.match(error.message, /--no-graph/);
  }
  await off.close();
});
