// MCP revisions over stdio: the current one (2026-07-28: no handshake, every request carrying its revision
// and capabilities in `_meta`, `server/discover`) through the official v2 SDK client, the older ones through
// the v1 client; every tool's outputSchema checked by the client against each call's structuredContent; and
// arguments nested too deep answered with a coded tool error, as the Worker's /mcp answers them.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { T, call, connect, freshDb, scriptedServer, startCli, BIN } from "./helpers.mjs";

const server = scriptedServer();
before(() => server.ready);

const CURRENT = "2026-07-28";
const SERVED = [CURRENT, "2025-11-25", "2025-06-18", "2025-03-26"];
/** The answer both transports give to arguments nested too deep (worker/tests/mcp-revisions.test.mjs too). */
const TOO_DEEP = "`metadata` is nested deeper than 64 levels: send flatter arguments";

/** A v2 SDK client over stdio, negotiating with `mode` ("auto", or { pin: revision }). */
async function modernClient(t, mode, args = ["--no-llm"]) {
  const transport = new ModernStdio({
    command: process.execPath, args: [BIN, "mcp", "--db", freshDb(), "--dimensions", "64", ...args],
    env: { ...process.env, OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.baseUrl }, stderr: "pipe",
  });
  const client = new ModernClient({ name: "memwasm-tests", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

const nested = (levels) => {
  let value = "leaf";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

test("the official v2 client speaks 2026-07-28 to `memwasm mcp`, pinned or negotiating", T, async (t) => {
  for (const mode of [{ pin: CURRENT }, "auto"]) {
    const client = await modernClient(t, mode);
    assert.equal(client.getNegotiatedProtocolVersion(), CURRENT, JSON.stringify(mode));
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === "add_memory"));
    const added = await client.callTool({ name: "add_memory", arguments: { text: "Drinks green tea", user_id: "u" } });
    assert.notEqual(added.isError, true, JSON.stringify(added));
    assert.equal(added.structuredContent.results[0].memory, "Drinks green tea");
    const listed = await client.callTool({ name: "get_memories", arguments: { user_id: "u" } });
    assert.deepEqual(listed.structuredContent.results.map((m) => m.memory), ["Drinks green tea"]);
  }
});

test("server/discover and per-request _meta on the raw line: versions, identity, coded refusals", T, async (t) => {
  const cli = startCli(t, server, ["--no-llm"]);
  const meta = (protocolVersion, extra = { "io.modelcontextprotocol/clientCapabilities": {} }) =>
    ({ "io.modelcontextprotocol/protocolVersion": protocolVersion, ...extra });
  cli.send({ jsonrpc: "2.0", id: "d", method: "server/discover", params: { _meta: meta(CURRENT) } });
  const { result } = await cli.next();
  assert.deepEqual(result.supportedVersions, SERVED);
  assert.equal(result.resultType, "complete");
  assert.deepEqual(result.capabilities, { tools: {} });
  assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "memwasm");
  assert.equal(typeof result.ttlMs, "number");
  assert.ok(["public", "private"].includes(result.cacheScope));

  cli.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta(CURRENT) } });
  const listed = (await cli.next()).result;
  assert.equal(listed.resultType, "complete");
  assert.ok(listed.tools.length > 0 && listed.tools.every((tool) => tool.outputSchema?.type === "object"));
  assert.equal(typeof listed.ttlMs, "number");

  cli.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta("2099-01-01") } });
  assert.deepEqual((await cli.next()).error, {
    code: -32022, message: "Unsupported protocol version", data: { supported: SERVED, requested: "2099-01-01" },
  });
  cli.send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: meta(CURRENT, {}) } });
  const missing = (await cli.next()).error;
  assert.equal(missing.code, -32602);
  assert.match(missing.message, /io\.modelcontextprotocol\/clientCapabilities/);
  cli.send({ jsonrpc: "2.0", id: 5, method: "ping", params: { _meta: meta(CURRENT) } });
  assert.equal((await cli.next()).error.code, -32601, "ping is not part of 2026-07-28");
  // Deeper than a client's JSON.stringify goes: the raw line.
  const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
  cli.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"add_memory","arguments":{"text":"x","metadata":${deep}},"_meta":${JSON.stringify(meta(CURRENT))}}}`);
  const refused = (await cli.next()).result;
  assert.equal(refused.isError, true);
  assert.deepEqual(JSON.parse(refused.content[0].text).error, { code: "INVALID_INPUT", message: TOO_DEEP });
});

test("the v1 client (2025-11-25) sees every tool declares an outputSchema its results match", T, async () => {
  const client = await connect(server, freshDb(), ["--no-llm"]);
  const { tools } = await client.listTools(); // the client now checks each structuredContent against it
  for (const tool of tools) assert.equal(tool.outputSchema?.type, "object", `${tool.name} declares no outputSchema`);
  const added = await call(client, "add_memory", { text: "Plays the cello" });
  const id = added.results[0].id;
  await call(client, "search_memories", { query: "cello" });
  await call(client, "get_memories");
  await call(client, "get_memory", { memory_id: id });
  await call(client, "update_memory", { memory_id: id, text: "Plays the viola" });
  await call(client, "list_entities");
  await call(client, "create_entities", { entities: [{ name: "Ann", entityType: "person", observations: ["Sings"] }] });
  await call(client, "create_relations", { relations: [{ from: "Ann", to: "Choir", relationType: "member_of" }] });
  await call(client, "add_observations", { observations: [{ entityName: "Ann", contents: ["Hums"] }] });
  await call(client, "read_graph");
  await call(client, "search_nodes", { query: "ann" });
  await call(client, "open_nodes", { names: ["Ann"] });
  await call(client, "delete_observations", { deletions: [{ entityName: "Ann", observations: ["Hums"] }] });
  await call(client, "delete_relations", { relations: [{ from: "Ann", to: "Choir", relationType: "member_of" }] });
  await call(client, "delete_entities", { entityNames: ["Ann"] });
  await call(client, "delete_memory", { memory_id: id });
  await call(client, "delete_all_memories", { user_id: "default" });
  await client.close();
});

test("arguments nested deeper than 64 levels: a coded tool error naming the argument, nothing stored", T, async () => {
  const client = await connect(server, freshDb(), ["--no-llm"]);
  for (const levels of [64, 130, 1000]) {
    const result = await client.callTool({ name: "add_memory", arguments: { text: "Deep", metadata: nested(levels) } });
    assert.equal(result.isError, true, `${levels} levels`);
    assert.deepEqual(JSON.parse(result.content[0].text).error, { code: "INVALID_INPUT", message: TOO_DEEP });
  }
  const shallow = await call(client, "add_memory", { text: "Shallow", metadata: nested(63) });
  assert.equal(shallow.results.length, 1);
  assert.deepEqual((await call(client, "get_memories")).results.map((m) => m.memory), ["Shallow"]);
  await client.close();
});

test("under 2026-07-28 too, --no-graph lists no graph-only tool", T, async (t) => {
  const cli = startCli(t, server, ["--no-llm", "--no-graph"]);
  const _meta = { "io.modelcontextprotocol/protocolVersion": CURRENT, "io.modelcontextprotocol/clientCapabilities": {} };
  cli.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } });
  const names = (await cli.next()).result.tools.map((tool) => tool.name);
  assert.ok(names.includes("add_memory"), names.join());
  for (const graphOnly of ["create_entities", "create_relations", "add_observations", "read_graph"]) {
    assert.ok(!names.includes(graphOnly), `${graphOnly} is listed with --no-graph`);
  }
});
