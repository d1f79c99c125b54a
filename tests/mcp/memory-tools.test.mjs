// mem0's MCP tools over stdio: `npx memwasm mcp` driven by the official SDK client.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";
import { T, call, callFails, connect, freshDb, scriptAdd, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
let client;
before(async () => (await server.ready, (client = await connect(server, freshDb(), ["--no-graph"]))));
after(async () => client?.close());

const MEM0 = ["add_memory", "search_memories", "get_memories", "get_memory", "update_memory", "delete_memory",
  "delete_all_memories", "delete_entities", "list_entities", "get_memory_sources"];
const GRAPH = ["create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
  "delete_relations", "read_graph", "search_nodes", "open_nodes"];

test("tools/list: mem0's tools and the reference memory server's, each with a description and an object schema", T, async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.deepEqual([...names].sort(), [...MEM0].sort(), "with --no-graph, mem0's tools only");
  const withGraph = await connect(server, freshDb());
  const every = (await withGraph.listTools()).tools;
  const all = every.map((t) => t.name);
  await withGraph.close();
  assert.deepEqual([...new Set([...MEM0, ...GRAPH])].filter((n) => !all.includes(n)), []);
  assert.equal(all.length, 18);
  for (const tool of every) {
    assert.ok(tool.description.length > 20, tool.name);
    assert.equal(tool.inputSchema.type, "object", tool.name);
  }
  assert.deepEqual(tools.find((t) => t.name === "add_memory").inputSchema.required, ["text"]);
  assert.equal(client.getServerVersion().name, "memwasm");
  const definitions = createRequire(import.meta.url)("memwasm/mcp/tools.json"); // the package's export
  const listed = definitions.filter((t) => names.includes(t.name));
  assert.deepEqual(tools.map((t) => [t.name, t.inputSchema]), listed.map((t) => [t.name, t.inputSchema]));
});

test("add_memory extracts facts into the default user; search, get, update, delete them", T, async () => {
  scriptAdd(server, "I love green tea", ["Loves green tea", "Lives in Lisbon"]);
  const added = await call(client, "add_memory", { text: "I love green tea and I live in Lisbon" });
  assert.deepEqual(added.results.map((e) => [e.event, e.memory]), [["ADD", "Loves green tea"], ["ADD", "Lives in Lisbon"]]);
  const said = "I love green tea and I live in Lisbon";
  const { results: sources } = await call(client, "get_memory_sources", { memory_id: added.results[0].id });
  const hash = "md5:" + createHash("md5").update(`user\n${said}`).digest("hex");
  assert.deepEqual(sources.map((s) => [s.id, s.role, s.excerpt, s.event]), [[hash, "user", said, "ADD"]]);
  assert.equal((await callFails(client, "get_memory_sources", { memory_id: "no-such-id" })).code, "NOT_FOUND");

  const found = await call(client, "search_memories", { query: "green tea", limit: 1 });
  assert.equal(found.results.length, 1);
  assert.equal(found.results[0].memory, "Loves green tea");
  assert.equal(found.results[0].userId, "default");
  // mem0 passes the user in filters: {"AND": [{"user_id": …}]}
  const none = await call(client, "search_memories", { query: "green tea", filters: { AND: [{ user_id: "bob" }] } });
  assert.equal(none.results.length, 0);

  const page = await call(client, "get_memories", { page: 2, page_size: 1 });
  assert.equal(page.totalCount, 2);
  assert.deepEqual(page.results.map((m) => m.memory), ["Lives in Lisbon"]);
  const id = page.results[0].id;
  assert.equal((await call(client, "get_memory", { memory_id: id })).memory, "Lives in Lisbon");
  await call(client, "update_memory", { memory_id: id, text: "Lives in Porto" });
  assert.equal((await call(client, "get_memory", { memory_id: id })).memory, "Lives in Porto");
  await call(client, "delete_memory", { memory_id: id });
  assert.equal((await callFails(client, "get_memory", { memory_id: id })).code, "NOT_FOUND");
});

test("user_id, agent_id, run_id and app_id scope the tools; list_entities and delete_all_memories", T, async () => {
  scriptAdd(server, "Bob plays chess", ["Plays chess"]);
  await call(client, "add_memory", { text: "Bob plays chess", user_id: "bob", app_id: "games", metadata: { source: "chat" } });
  scriptAdd(server, "Helper likes YAML", ["Prefers YAML"]);
  await call(client, "add_memory", { text: "Helper likes YAML", agent_id: "helper" });

  const bob = await call(client, "get_memories", { filters: { user_id: "bob" } });
  assert.deepEqual(bob.results.map((m) => [m.memory, m.metadata.app_id, m.metadata.source]), [["Plays chess", "games", "chat"]]);
  const { results } = await call(client, "list_entities");
  assert.ok(results.some((e) => e.user_id === "bob" && e.total_memories === 1), JSON.stringify(results));
  assert.ok(results.some((e) => e.agent_id === "helper" && e.user_id === undefined));

  await call(client, "delete_all_memories", { user_id: "bob", app_id: "other" });
  assert.equal((await call(client, "get_memories", { user_id: "bob" })).totalCount, 1, "another app's memories stay");
  await call(client, "delete_all_memories", { user_id: "bob" });
  assert.equal((await call(client, "get_memories", { user_id: "bob" })).totalCount, 0);
  // mem0's delete_entities form: a scope, no entityNames
  await call(client, "delete_entities", { agent_id: "helper" });
  assert.equal((await call(client, "get_memories", { agent_id: "helper" })).totalCount, 0);
});

test("bad arguments are tool errors with a code, and the server keeps serving", T, async () => {
  const cases = [
    ["add_memory", {}, "INVALID_INPUT", /`text` is required/],
    ["add_memory", { text: "   " }, "INVALID_INPUT", /empty/],
    ["add_memory", { text: "x", messages: [{ role: "robot", content: "x" }] }, "INVALID_INPUT", /messages\[0\]\.role/],
    ["search_memories", { query: 42 }, "INVALID_INPUT", /`query` must be a string/],
    ["search_memories", { query: "" }, "INVALID_INPUT", /./],
    ["search_memories", { query: "x", limit: 0 }, "INVALID_INPUT", /at least 1/],
    ["search_memories", { query: "x", filters: { field: "a", operator: "nope", value: 1 } }, "INVALID_FILTER", /./],
    ["get_memories", { limit: 3 }, "INVALID_INPUT", /unknown argument `limit`/],
    ["get_memories", { page: 1.5 }, "INVALID_INPUT", /integer/],
    ["get_memory", { memory_id: "no-such-id" }, "NOT_FOUND", /no-such-id/],
    ["update_memory", { memory_id: "no-such-id", text: "x" }, "NOT_FOUND", /./],
    ["delete_memory", { memory_id: null }, "INVALID_INPUT", /required/],
    ["delete_entities", {}, "SCOPE_REQUIRED", /entityNames/],
    ["delete_relations", { relations: [] }, "NOT_SUPPORTED", /--no-graph/],
    ["create_entities", { entities: [{ name: "A", entityType: "person", observations: [] }] }, "NOT_SUPPORTED", /--no-graph/],
  ];
  for (const [name, args, code, message] of cases) {
    const error = await callFails(client, name, args);
    assert.equal(error.code, code, `${name}(${JSON.stringify(args)}): ${error.message}`);
    assert.match(error.message, message, name);
  }
  const raw = await client.callTool({ name: "get_memories", arguments: "not an object" }).catch((e) => e);
  assert.ok(raw instanceof Error || raw.isError, "a non-object is refused");
  await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), /Unknown tool/);
  assert.ok(Array.isArray((await call(client, "get_memories")).results), "still serving");
});
