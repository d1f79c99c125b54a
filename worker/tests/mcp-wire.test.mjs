// The JSON-RPC wire of /mcp: authentication before anything, the revision negotiated, notifications (202),
// batches, protocol errors (-32700, -32600, -32601) with our code in data.code, GET 405; and, with graph
// memory off, the graph-only tools unlisted and a call to one a tool error naming GRAPH_ENABLED.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ACME, T, TOKENS, workerForFile } from "./helpers.mjs";
import { connect, failure, mcpUrl, post } from "./mcp-helpers.mjs";

const USER = "tok-acme-user-u1";
const rig = workerForFile({ vars: { MEMORY_TOKENS: JSON.stringify({ ...TOKENS, [USER]: { tenant: "acme", user: "u1" } }) } });

const initialize = (protocolVersion, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

test("no token or an unknown one is refused before any JSON-RPC; a user's token is admitted", T, async () => {
  for (const token of [null, "tok-unknown"]) {
    const refused = await post(rig.worker, initialize("2025-11-25"), { token });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get("www-authenticate"), "Bearer");
    assert.equal(refused.body.error.code, "UNAUTHORIZED");
  }
  const user = await post(rig.worker, initialize("2025-11-25"), { token: USER });
  assert.equal(user.status, 200);
  assert.match(user.body.result.instructions, /"u1"/);
  await assert.rejects(connect(rig.worker, null));
});

test("initialize answers the revision asked for when served, else the newest", T, async () => {
  for (const [asked, answered] of [["2025-11-25", "2025-11-25"], ["2025-06-18", "2025-06-18"], ["2025-03-26", "2025-03-26"], ["2026-07-28", "2025-11-25"], ["1999-01-01", "2025-11-25"]]) {
    const { status, headers, body } = await post(rig.worker, initialize(asked));
    assert.equal(status, 200);
    assert.match(headers.get("content-type"), /^application\/json/);
    assert.equal(body.id, 1);
    assert.equal(body.result.protocolVersion, answered);
    assert.deepEqual(body.result.capabilities, { tools: { listChanged: false } });
    assert.equal(body.result.serverInfo.name, "memwasm");
  }
  assert.equal((await post(rig.worker, initialize("2025-11-25"))).headers.get("mcp-session-id"), null, "stateless");
  const wrong = await post(rig.worker, { jsonrpc: "2.0", id: 2, method: "ping" }, { headers: { "mcp-protocol-version": "1999-01-01" } });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error.code, -32022, "UnsupportedProtocolVersion, as MCP 2026-07-28 names it");
});

test("notifications get 202, batches an array, requests their id back", T, async () => {
  const notified = await post(rig.worker, { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.equal(notified.status, 202);
  assert.equal(notified.body, "");
  const ping = await post(rig.worker, { jsonrpc: "2.0", id: "p-1", method: "ping" });
  assert.deepEqual(ping.body, { jsonrpc: "2.0", id: "p-1", result: {} });
  const batch = await post(rig.worker, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ]);
  assert.equal(batch.status, 200);
  assert.deepEqual(batch.body.map((answer) => answer.id), [1, 2]);
  assert.equal(batch.body[1].result.tools.length, 10, "graph memory is off: no graph-only tools");
  assert.equal((await post(rig.worker, [{ jsonrpc: "2.0", method: "notifications/initialized" }])).status, 202);
});

test("protocol errors are JSON-RPC errors with our code; GET is 405", T, async () => {
  const cases = [
    ["{not json", 400, null, -32700, "INVALID_JSON"],
    [[], 400, null, -32600, "INVALID_REQUEST"],
    [{ jsonrpc: "1.0", id: 3, method: "ping" }, 200, 3, -32600, "INVALID_REQUEST"],
    [{ jsonrpc: "2.0", id: 4 }, 200, 4, -32600, "INVALID_REQUEST"],
    [{ jsonrpc: "2.0", id: { no: 1 }, method: "ping" }, 200, null, -32600, "INVALID_REQUEST"],
    [{ jsonrpc: "2.0", id: 5, method: "resources/list" }, 200, 5, -32601, "NOT_FOUND"],
    [{ jsonrpc: "2.0", id: 6, method: "tools/call", params: {} }, 200, 6, -32602, "INVALID_INPUT"],
    [{ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "nope" } }, 200, 7, -32602, "INVALID_INPUT"],
    ["42", 200, null, -32600, "INVALID_REQUEST"],
  ];
  for (const [body, status, id, code, ours] of cases) {
    const answer = await post(rig.worker, body);
    assert.equal(answer.status, status, JSON.stringify(body));
    assert.equal(answer.body.id, id, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, code, JSON.stringify(answer.body));
    assert.equal(answer.body.error.data.code, ours);
  }
  const get = await fetch(await mcpUrl(rig.worker), { headers: { authorization: `Bearer ${ACME}`, accept: "text/event-stream" } });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
});

test("with graph memory off the graph-only tools are not listed, and a call to one names GRAPH_ENABLED", T, async () => {
  const client = await connect(rig.worker);
  const names = (await client.listTools()).tools.map((t) => t.name);
  const graphOnly = ["create_entities", "create_relations", "add_observations", "delete_observations", "delete_relations",
    "read_graph", "search_nodes", "open_nodes"];
  assert.deepEqual(graphOnly.filter((name) => names.includes(name)), [], "graph-only tools are not listed");
  assert.ok(names.includes("delete_entities"), "delete_entities stays: its form without entityNames deletes a scope's memories");
  const calls = {
    create_entities: { entities: [{ name: "A", entityType: "person", observations: [] }] },
    create_relations: { relations: [{ from: "A", to: "B", relationType: "knows" }] },
    add_observations: { observations: [{ entityName: "A", contents: ["x"] }] },
    delete_observations: { deletions: [{ entityName: "A", observations: ["x"] }] },
    delete_relations: { relations: [{ from: "A", to: "B", relationType: "knows" }] },
    read_graph: {},
    search_nodes: { query: "A" },
    open_nodes: { names: ["A"] },
    delete_entities: { entityNames: ["A"] },
  };
  for (const [name, args] of [...Object.entries(calls), ["read_graph", { user_id: 7 }]]) {
    const error = await failure(client, name, args);
    assert.equal(error.code, "NOT_SUPPORTED", `${name}: ${error.message}`);
    assert.match(error.message, /GRAPH_ENABLED/, name);
  }
  await client.close();
});

test("under MCP 2026-07-28 too, graph memory off lists no graph-only tool", T, async () => {
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
  const { body } = await post(rig.worker, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } }, { headers });
  const names = body.result.tools.map((t) => t.name);
  assert.ok(names.includes("add_memory"), names.join());
  assert.deepEqual(names.filter((name) => ["create_entities", "read_graph", "add_observations"].includes(name)), []);
});
