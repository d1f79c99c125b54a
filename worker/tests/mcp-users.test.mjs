// Least privilege on /mcp: a user's token ({"tenant", "user"}) acts as its user only. Calls that name no user
// are its user's; naming another user (as user_id, or inside filters), another user's memory by id, or
// reaching other users through an agent, run or list is refused with FORBIDDEN and changes nothing (checked
// afterwards with the tenant-wide token). A reader's token (no user, not admin) gets 403.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, TOKENS, workerForFile } from "./helpers.mjs";
import { call, connect, failure, post, scriptAdd } from "./mcp-helpers.mjs";

const USER = "tok-acme-user-u1";
const READER = "tok-acme-reader";
const ADMIN_CAROL = "tok-acme-admin-carol";
const tokens = {
  ...TOKENS,
  [USER]: { tenant: "acme", user: "u1" },
  [READER]: { tenant: "acme" },
  [ADMIN_CAROL]: { tenant: "acme", user: "carol", admin: true },
};
const rig = workerForFile({ vars: { GRAPH_ENABLED: "true", MEMORY_TOKENS: JSON.stringify(tokens) } });

const BOB = { user_id: "bob" };
let seeded;

/** Bob's memory (with agent "helper") and graph, written once with the tenant-wide token: `{id, graph}`. */
function bobsMemory() {
  seeded ??= (async () => {
    const admin = await connect(rig.worker, ACME);
    scriptAdd(rig.server, "Bob likes jazz", ["Likes jazz"], {
      entities: [{ name: "Bob", type: "person" }, { name: "jazz", type: "concept" }],
      relations: [{ source: "Bob", relation: "likes", target: "jazz" }],
    });
    const id = (await call(admin, "add_memory", { text: "Bob likes jazz", ...BOB, agent_id: "helper" })).results[0].id;
    const graph = await call(admin, "read_graph", BOB);
    await admin.close();
    return { id, graph };
  })();
  return seeded;
}

/** What the tenant-wide token sees of Bob: his memories and his graph. */
async function bobAsAdminSees() {
  const admin = await connect(rig.worker, ACME);
  const memories = (await call(admin, "get_memories", { ...BOB, page_size: 100 })).results.map((m) => [m.id, m.memory]);
  const graph = await call(admin, "read_graph", BOB);
  await admin.close();
  return { memories, graph };
}

test("a reader's token is refused with 403 naming the tokens that work", T, async () => {
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "r", version: "1" } } };
  const refused = await post(rig.worker, init, { token: READER });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, "FORBIDDEN");
  assert.match(refused.body.error.message, /user/);
  assert.match(refused.body.error.message, /tenant-wide/);
});

test("a user's token acts as its user with every tool; initialize names the user", T, async () => {
  const { server, worker } = rig;
  const seed = await bobsMemory();
  const client = await connect(worker, USER);
  assert.match(client.getInstructions(), /"u1"/);

  scriptAdd(server, "I play the cello", ["Plays the cello"], { entities: [{ name: "cello", type: "concept" }] });
  const mine = (await call(client, "add_memory", { text: "I play the cello" })).results[0];
  scriptAdd(server, "I like jazz too", ["Likes jazz too"]);
  await call(client, "add_memory", { text: "I like jazz too", user_id: "u1", agent_id: "helper" });

  const all = (await call(client, "get_memories")).results;
  assert.deepEqual(all.map((m) => [m.memory, m.user_id]).sort(), [["Likes jazz too", "u1"], ["Plays the cello", "u1"]]);
  const viaAgent = await call(client, "get_memories", { agent_id: "helper" });
  assert.deepEqual(viaAgent.results.map((m) => m.memory), ["Likes jazz too"], "the agent's memories of this user only");
  const found = await call(client, "search_memories", { query: "jazz", agent_id: "helper" });
  assert.deepEqual(found.results.map((m) => m.memory), ["Likes jazz too"]);
  assert.equal((await call(client, "get_memory", { memory_id: mine.id })).memory, "Plays the cello");
  await call(client, "update_memory", { memory_id: mine.id, text: "Plays the cello well" });
  assert.deepEqual((await call(client, "list_entities")).results.map((e) => e.user_id), ["u1", "u1"]);

  await call(client, "create_entities", { entities: [{ name: "Ann", entityType: "person", observations: ["Teaches cello"] }] });
  await call(client, "create_relations", { relations: [{ from: "Ann", to: "cello", relationType: "teaches" }] });
  await call(client, "add_observations", { observations: [{ entityName: "Ann", contents: ["Lives nearby"] }] });
  const graph = await call(client, "read_graph");
  assert.deepEqual(graph.entities.map((e) => e.name).sort(), ["Ann", "Cello"]);
  assert.equal((await call(client, "search_nodes", { query: "jazz" })).entities.length, 0, "Bob's graph is not read");
  assert.deepEqual((await call(client, "open_nodes", { names: ["Ann", "Bob"] })).entities.map((e) => e.name), ["Ann"]);
  assert.equal((await call(client, "delete_observations", { deletions: [{ entityName: "Ann", observations: ["Lives nearby"] }] })).deletedCount, 1);
  assert.equal((await call(client, "delete_relations", { relations: [{ from: "Ann", to: "cello", relationType: "teaches" }] })).deletedCount, 1);
  assert.deepEqual((await call(client, "delete_entities", { entityNames: ["Ann", "Bob"] })).notFound, ["Bob"]);
  await call(client, "delete_memory", { memory_id: mine.id });
  await call(client, "delete_all_memories", { agent_id: "helper" });
  await call(client, "delete_all_memories");
  assert.deepEqual((await call(client, "get_memories")).results, []);
  await client.close();

  const bob = await bobAsAdminSees();
  assert.deepEqual(bob.memories, [[seed.id, "Likes jazz"]], "Bob's memory outlived the user's deletes");
  assert.deepEqual(bob.graph, seed.graph);
});

test("naming another user, or another user's memory, is FORBIDDEN and changes nothing", T, async () => {
  const { server, worker } = rig;
  const seed = await bobsMemory();
  server.reset();
  const client = await connect(worker, USER);
  const relation = { from: "Bob", to: "jazz", relationType: "likes" };
  const refusals = [
    ["add_memory", { text: "Bob hates jazz", ...BOB }],
    ["add_memory", { text: "Bob hates jazz", messages: [{ role: "user", content: "x" }], user_id: "bob", agent_id: "helper" }],
    ["search_memories", { query: "jazz", ...BOB }],
    ["search_memories", { query: "jazz", filters: BOB }],
    ["search_memories", { query: "jazz", filters: { AND: [BOB] } }],
    ["get_memories", BOB],
    ["get_memories", { filters: { AND: [{ agent_id: "helper" }, BOB] } }],
    ["get_memory", { memory_id: seed.id }],
    ["get_memory_sources", { memory_id: seed.id }],
    ["update_memory", { memory_id: seed.id, text: "Bob hates jazz" }],
    ["delete_memory", { memory_id: seed.id }],
    ["delete_all_memories", BOB],
    ["delete_all_memories", { ...BOB, agent_id: "helper" }],
    ["delete_entities", BOB],
    ["delete_entities", { entityNames: ["Bob"], ...BOB }],
    ["create_entities", { entities: [{ name: "Eve", entityType: "person", observations: ["x"] }], ...BOB }],
    ["create_relations", { relations: [relation], ...BOB }],
    ["add_observations", { observations: [{ entityName: "Bob", contents: ["Hates jazz"] }], ...BOB }],
    ["delete_observations", { deletions: [{ entityName: "Bob", observations: ["Likes jazz"] }], ...BOB }],
    ["delete_relations", { relations: [relation], ...BOB }],
    ["read_graph", BOB],
    ["search_nodes", { query: "jazz", ...BOB }],
    ["open_nodes", { names: ["Bob"], ...BOB }],
  ];
  for (const [name, args] of refusals) {
    const error = await failure(client, name, args);
    assert.equal(error.code, "FORBIDDEN", `${name} ${JSON.stringify(args)}: ${JSON.stringify(error)}`);
    assert.match(error.message, /u1/, error.message);
  }
  assert.equal(server.requests().length, 0, "no model call");
  await client.close();
  const bob = await bobAsAdminSees();
  assert.deepEqual(bob.memories, [[seed.id, "Likes jazz"]]);
  assert.deepEqual(bob.graph, seed.graph);
});

test("a tenant-wide token that names a user acts for that user when a call names none, and still reaches every user", T, async () => {
  const { server, worker } = rig;
  await bobsMemory();
  const client = await connect(worker, ADMIN_CAROL);
  assert.match(client.getInstructions(), /"carol"/);
  scriptAdd(server, "I grow tomatoes", ["Grows tomatoes"]);
  await call(client, "add_memory", { text: "I grow tomatoes" });
  const carols = (await call(client, "get_memories", { user_id: "carol", page_size: 100 })).results.map((m) => m.memory);
  assert.deepEqual(carols, ["Grows tomatoes"]);
  const bobs = (await call(client, "get_memories", { ...BOB, page_size: 100 })).results.map((m) => m.memory);
  assert.ok(bobs.includes("Likes jazz"), JSON.stringify(bobs));
  await client.close();
});
