// The knowledge-graph writes of /mcp answer as the reference memory server (@modelcontextprotocol/server-memory)
// does, call for call (tests/mcp/graph-reference.test.mjs runs the same calls against the real package): what
// exists is not created again, a repeated observation is not added again, and the answers list only what is new.
import assert from "node:assert/strict";
import { test } from "node:test";
import { T, workerForFile } from "./helpers.mjs";
import { call, connect, failure } from "./mcp-helpers.mjs";

const rig = workerForFile({ vars: { GRAPH_ENABLED: "true" } });

const ALICE = { name: "Alice", entityType: "person", observations: ["Likes jazz"] };
const ACME = { name: "Acme", entityType: "organization", observations: [] };
const BOB = { name: "Bob", entityType: "person", observations: ["Drinks tea"] };
const WORKS = { from: "Alice", to: "Acme", relationType: "works_at" };
const KNOWS = { from: "Bob", to: "Alice", relationType: "knows" };

test("creating what exists creates nothing, and the answers list only what is new, in the order asked", T, async () => {
  const client = await connect(rig.worker);
  assert.deepEqual(await call(client, "create_entities", { entities: [ALICE, ACME] }), { entities: [ALICE, ACME] });
  const again = await call(client, "create_entities", { entities: [{ ...ALICE, observations: ["Plays chess"] }, BOB] });
  assert.deepEqual(again, { entities: [BOB] }, "an existing name is skipped, not merged");

  assert.deepEqual(await call(client, "create_relations", { relations: [WORKS] }), { relations: [WORKS] });
  assert.deepEqual(await call(client, "create_relations", { relations: [WORKS, KNOWS] }), { relations: [KNOWS] });

  const observe = (contents) => call(client, "add_observations", { observations: [{ entityName: "Alice", contents }] });
  assert.deepEqual((await observe(["Likes jazz", "Speaks French"])).results, [{ entityName: "Alice", addedObservations: ["Speaks French"] }]);
  assert.deepEqual((await observe(["Speaks French", "Speaks French"])).results, [{ entityName: "Alice", addedObservations: [] }]);
  const unknown = { observations: [{ entityName: "Bob", contents: ["Sings"] }, { entityName: "Nobody", contents: ["x"] }] };
  assert.equal((await failure(client, "add_observations", unknown)).code, "NOT_FOUND");

  const graph = await call(client, "read_graph");
  assert.deepEqual(graph.entities, [{ ...ACME }, { ...ALICE, observations: ["Likes jazz", "Speaks French"] }, BOB], "Bob gained nothing");
  assert.deepEqual(graph.relations.length, 2);

  const unobserved = await call(client, "delete_observations", { deletions: [{ entityName: "Alice", observations: ["Speaks French"] }] });
  assert.deepEqual([unobserved.message, unobserved.deletedCount], ["Observations deleted successfully", 1]);
  assert.deepEqual((await call(client, "open_nodes", { names: ["Alice"] })).entities[0].observations, ["Likes jazz"]);
  await client.close();
});
