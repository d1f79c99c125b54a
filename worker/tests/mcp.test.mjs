// The MCP server at /mcp with the official MCP TypeScript SDK client over Streamable HTTP: the tools of
// pkg/mcp/tools.json listed and each one called (graph memory on, the model scripted), tenants isolated,
// bad arguments answered as tool errors with a code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { INITECH, T, workerForFile } from "./helpers.mjs";
import { TOOLS, call, connect, failure, scriptAdd } from "./mcp-helpers.mjs";

const rig = workerForFile({ vars: { GRAPH_ENABLED: "true" } });

test("tools/list serves the Node server's tool definitions", T, async () => {
  const client = await connect(rig.worker);
  assert.equal(client.getServerVersion().name, "memwasm");
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS.map((t) => t.name));
  for (const [i, tool] of tools.entries()) {
    const wanted = TOOLS[i];
    assert.deepEqual(
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations },
      { title: wanted.title, description: wanted.description, inputSchema: wanted.inputSchema, annotations: wanted.annotations },
    );
  }
  await client.close();
});

test("every tool, called through the SDK client", T, async () => {
  const { server, worker } = rig;
  const client = await connect(worker);
  const alice = { user_id: "alice" };

  scriptAdd(server, "I love sushi", ["Loves sushi"], {
    entities: [{ name: "alice", type: "person" }, { name: "sushi", type: "concept" }],
    relations: [{ source: "alice", relation: "loves", target: "sushi" }],
  });
  const added = await call(client, "add_memory", { text: "I love sushi", ...alice, app_id: "app-1" });
  assert.deepEqual(added.results.map((e) => [e.event, e.memory]), [["ADD", "Loves sushi"]]);
  const id = added.results[0].id;

  const found = await call(client, "search_memories", { query: "sushi", filters: { user_id: "alice" }, limit: 5 });
  assert.deepEqual(found.results.map((m) => m.memory), ["Loves sushi"]);
  const page = await call(client, "get_memories", { ...alice, page: 1, page_size: 10 });
  assert.deepEqual(page.results.map((m) => m.id), [id]);
  const one = await call(client, "get_memory", { memory_id: id });
  assert.equal(one.memory, "Loves sushi");
  assert.equal(one.metadata.app_id, "app-1");
  assert.equal(one.user_id, "alice");
  const sources = (await call(client, "get_memory_sources", { memory_id: id })).results;
  assert.deepEqual(sources.map((s) => [s.role, s.excerpt, s.event]), [["user", "I love sushi", "ADD"]]);
  assert.match(sources[0].id, /^md5:[0-9a-f]{32}$/);
  assert.match((await call(client, "update_memory", { memory_id: id, text: "Loves sushi a lot" })).message, /updated/);
  assert.equal((await call(client, "get_memory", { memory_id: id })).memory, "Loves sushi a lot");
  const scopes = await call(client, "list_entities");
  assert.deepEqual(scopes.results, [{ user_id: "alice", total_memories: 1 }]);

  const graph = await call(client, "read_graph", alice);
  assert.deepEqual(graph.entities.map((e) => [e.name, e.entityType]), [["Alice", "person"], ["Sushi", "concept"]]);
  assert.deepEqual(graph.entities[0].observations, ["Loves sushi a lot"]);
  assert.deepEqual(graph.relations, [{ from: "Alice", to: "Sushi", relationType: "loves" }]);
  assert.deepEqual((await call(client, "search_nodes", { query: "SUSHI", ...alice })).entities.length, 2);
  assert.deepEqual((await call(client, "open_nodes", { names: ["Sushi"], ...alice })).entities.map((e) => e.name), ["Sushi"]);

  // The knowledge-graph writes, for the default user: straight into graph memory, no LLM call.
  const chats = server.count("chat");
  const created = await call(client, "create_entities", {
    entities: [{ name: "Bob", entityType: "person", observations: ["Works at Acme"] }, { name: "acme", entityType: "organization", observations: [] }],
  });
  assert.deepEqual(created.entities.map((e) => [e.name, e.entityType, e.observations]).sort(), [
    ["Acme", "organization", []], ["Bob", "person", ["Works at Acme"]]]);

  const related = await call(client, "create_relations", { relations: [
    { from: "Bob", to: "Carol", relationType: "knows" }, { from: "Bob", to: "Acme", relationType: "works at" }] });
  assert.deepEqual(related.relations.map((r) => [r.from, r.relationType, r.to]).sort(), [["Bob", "knows", "Carol"], ["Bob", "works_at", "Acme"]]);

  const observed = await call(client, "add_observations", { observations: [{ entityName: "bob", contents: ["Likes chess"] }] });
  assert.deepEqual(observed.results, [{ entityName: "bob", addedObservations: ["Likes chess"] }]);
  const bob = (await call(client, "open_nodes", { names: ["Bob"] })).entities[0];
  assert.deepEqual([bob.entityType, bob.observations.sort()], ["person", ["Likes chess", "Works at Acme"]]);
  assert.equal(server.count("chat"), chats, "no LLM call");

  const unobserved = await call(client, "delete_observations", { deletions: [{ entityName: "Bob", observations: ["Likes chess", "Works at Acme"] }] });
  assert.equal(unobserved.deletedCount, 2, JSON.stringify(unobserved));
  const kept = (await call(client, "open_nodes", { names: ["Bob"] })).entities[0];
  assert.deepEqual([kept.name, kept.entityType, kept.observations], ["Bob", "person", []], "an entity without observations stays");
  const unrelated = await call(client, "delete_relations", { relations: [{ from: "Bob", to: "Carol", relationType: "knows" }] });
  assert.equal(unrelated.deletedCount, 1, JSON.stringify(unrelated));
  assert.deepEqual((await call(client, "read_graph")).relations, [{ from: "Bob", to: "Acme", relationType: "works_at" }]);
  const gone = await call(client, "delete_entities", { entityNames: ["carol", "Nobody"] });
  assert.deepEqual([gone.deleted, gone.notFound], [["Carol"], ["Nobody"]]);
  assert.deepEqual((await call(client, "read_graph")).entities.map((e) => e.name), ["Acme", "Bob"]);

  assert.match((await call(client, "delete_memory", { memory_id: id })).message, /deleted/);
  assert.equal((await failure(client, "get_memory", { memory_id: id })).code, "NOT_FOUND");
  assert.match((await call(client, "delete_all_memories", {})).message, /deleted/);
  assert.deepEqual((await call(client, "get_memories")).results, []);
  await client.close();
});

test("a second tenant's token sees none of the first's data", T, async () => {
  const { server, worker } = rig;
  const acme = await connect(worker);
  const initech = await connect(worker, INITECH);
  scriptAdd(server, "I am Dana", ["Name is Dana"], { entities: [{ name: "Dana", type: "person" }] });
  const [{ id }] = (await call(acme, "add_memory", { text: "I am Dana", user_id: "dana" })).results;

  assert.deepEqual((await call(initech, "get_memories", { user_id: "dana" })).results, []);
  assert.deepEqual((await call(initech, "search_memories", { query: "Dana", user_id: "dana" })).results, []);
  assert.deepEqual((await call(initech, "list_entities")).results, []);
  assert.deepEqual((await call(initech, "read_graph", { user_id: "dana" })).entities, []);
  assert.equal((await failure(initech, "get_memory", { memory_id: id })).code, "NOT_FOUND");
  assert.equal((await failure(initech, "delete_memory", { memory_id: id })).code, "NOT_FOUND");
  assert.equal((await failure(initech, "update_memory", { memory_id: id, text: "x" })).code, "NOT_FOUND");
  await call(initech, "delete_all_memories", { user_id: "dana" });
  assert.equal((await call(acme, "get_memory", { memory_id: id })).memory, "Name is Dana");
  assert.deepEqual((await call(acme, "read_graph", { user_id: "dana" })).entities.map((e) => e.name), ["Dana"]);
  await Promise.all([acme.close(), initech.close()]);
});

test("bad arguments are tool errors with a code, an unknown tool a protocol error", T, async () => {
  const client = await connect(rig.worker);
  const cases = [
    ["add_memory", {}, "INVALID_INPUT", /`text` is required/],
    ["add_memory", { text: "  " }, "INVALID_INPUT", /must not be empty/],
    ["add_memory", { text: "x", bogus: 1 }, "INVALID_INPUT", /unknown argument `bogus`/],
    ["add_memory", { text: "x", messages: [{ role: "robot", content: "x" }] }, "INVALID_INPUT", /messages\[0\]\.role/],
    ["search_memories", { query: 5 }, "INVALID_INPUT", /`query` must be a string/],
    ["get_memories", { page: 0 }, "INVALID_INPUT", /`page` must be at least 1/],
    ["get_memories", { page_size: 1.5 }, "INVALID_INPUT", /an integer/],
    ["get_memory", { memory_id: "" }, undefined, /./],
    ["update_memory", { memory_id: "00000000-0000-4000-8000-000000000000", text: "x" }, "NOT_FOUND", /./],
    ["delete_entities", {}, "SCOPE_REQUIRED", /entityNames/],
    ["add_observations", { observations: [{ entityName: "Nobody", contents: ["x"] }] }, "NOT_FOUND", /Nobody/],
    ["search_nodes", { query: "x".repeat(2049) }, "INVALID_INPUT", /at most 2048/],
    ["get_memories", { filters: { user_id: "u", nonsense: { $bogus: 1 } } }, undefined, /./],
  ];
  for (const [name, args, code, message] of cases) {
    const error = await failure(client, name, args);
    if (code) assert.equal(error.code, code, `${name} ${JSON.stringify(args)}: ${JSON.stringify(error)}`);
    assert.match(error.message, message, `${name}: ${error.message}`);
  }
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (error) => {
    assert.ok(error instanceof McpError);
    assert.equal(error.code, ErrorCode.InvalidParams);
    return true;
  });
  await client.close();
});
