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

test("create_entities, create_relations and add_observations write through add_memory's model", T, async () => {
  const bob = { entities: [{ name: "Bob", type: "person" }, { name: "Acme", type: "organization" }],
    relations: [{ source: "Bob", relation: "works_at", target: "Acme" }] };
  scriptAdd(server, "Bob is a person", ["Bob is a person who likes jazz"], { entities: bob.entities.slice(0, 1) });
  const created = await call(client, "create_entities", {
    user_id: "v", entities: [{ name: "Bob", entityType: "person", observations: ["Likes jazz."] }] });
  assert.deepEqual(created.entities.map((e) => [e.name, e.entityType]), [["Bob", "person"]]);
  assert.equal(created.results[0].event, "ADD");

  scriptAdd(server, "Bob works at Acme", ["Bob works at Acme"], bob);
  const related = await call(client, "create_relations", { user_id: "v", relations: [{ from: "Bob", to: "Acme", relationType: "works_at" }] });
  assert.deepEqual(related.relations, [{ from: "Bob", to: "Acme", relationType: "works_at" }]);
  const unrelated = await call(client, "delete_relations", { user_id: "v", relations: [
    { from: "bob", to: "acme", relationType: "works_at" }, { from: "Bob", to: "Nobody", relationType: "knows" }] });
  assert.deepEqual([unrelated.deletedCount, unrelated.message], [1, "Deleted 1 of 2 relations (the others were not in the graph)."]);
  const after = await call(client, "read_graph", { user_id: "v" });
  assert.deepEqual([after.relations, after.entities.map((e) => e.name).sort()], [[], ["Acme", "Bob"]], "the entities stay");

  scriptAdd(server, "Bob: plays the trumpet", ["Bob plays the trumpet"], { entities: bob.entities.slice(0, 1) });
  const observed = await call(client, "add_observations", { user_id: "v", observations: [{ entityName: "bob", contents: ["plays the trumpet"] }] });
  assert.deepEqual(observed.results, [{ entityName: "bob", addedObservations: ["plays the trumpet"] }]);
  const [entity] = (await call(client, "open_nodes", { user_id: "v", names: ["Bob"] })).entities;
  assert.ok(entity.observations.includes("Bob plays the trumpet"), JSON.stringify(entity));
  assert.equal((await callFails(client, "add_observations", { user_id: "v", observations: [{ entityName: "Nobody", contents: ["x"] }] })).code, "NOT_FOUND");
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
