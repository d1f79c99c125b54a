// MCP revisions on /mcp: the current one (2026-07-28: no handshake, the revision and capabilities in every
// request's `_meta` and mirrored in headers, `server/discover`) through the official v2 SDK client, the older
// ones through the v1 client; every tool's outputSchema checked by the client against structuredContent;
// `Origin` checked; arguments nested too deep answered with the coded tool error stdio answers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { ACME, T, workerForFile } from "./helpers.mjs";
import { call, connect, mcpUrl, post } from "./mcp-helpers.mjs";

const ALLOWED = "https://app.example";
const rig = workerForFile({ vars: { MCP_ALLOWED_ORIGINS: ` ${ALLOWED} , https://other.example` } });

const CURRENT = "2026-07-28";
const SERVED = [CURRENT, "2025-11-25", "2025-06-18", "2025-03-26"];
/** The answer both transports give to arguments nested too deep (tests/mcp/revisions.test.mjs too). */
const TOO_DEEP = "`metadata` is nested deeper than 64 levels: send flatter arguments";
const META = { "io.modelcontextprotocol/protocolVersion": CURRENT, "io.modelcontextprotocol/clientCapabilities": {} };

/** A 2026-07-28 request as a client sends it: `_meta` in the body, the revision, method and name as headers. */
function modern(id, method, params = {}, { meta = META, headers = {} } = {}) {
  const mirrored = {
    "mcp-protocol-version": meta["io.modelcontextprotocol/protocolVersion"],
    "mcp-method": method,
    ...(params.name ? { "mcp-name": params.name } : {}),
    ...headers,
  };
  return [{ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }, { headers: mirrored }];
}

const nested = (levels) => {
  let value = "leaf";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

test("the official v2 client speaks 2026-07-28 to /mcp, pinned or negotiating", T, async () => {
  for (const mode of [{ pin: CURRENT }, "auto"]) {
    const transport = new ModernHttp(await mcpUrl(rig.worker), { requestInit: { headers: { authorization: `Bearer ${ACME}` } } });
    const client = new ModernClient({ name: "memwasm-worker-test", version: "1.0.0" }, { versionNegotiation: { mode } });
    await client.connect(transport);
    assert.equal(client.getNegotiatedProtocolVersion(), CURRENT, JSON.stringify(mode));
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0 && tools.every((tool) => tool.outputSchema?.type === "object"));
    const listed = await client.callTool({ name: "get_memories", arguments: { user_id: "nobody" } });
    assert.notEqual(listed.isError, true, JSON.stringify(listed));
    assert.deepEqual(listed.structuredContent.results, []);
    await client.close();
  }
});

test("server/discover, tools/list and coded refusals of 2026-07-28 requests", T, async () => {
  const { status, body } = await post(rig.worker, ...modern("d", "server/discover"));
  assert.equal(status, 200);
  assert.deepEqual(body.result.supportedVersions, SERVED);
  assert.equal(body.result.resultType, "complete");
  assert.deepEqual(body.result.capabilities, { tools: {} });
  assert.equal(body.result._meta["io.modelcontextprotocol/serverInfo"].name, "memwasm");
  assert.equal(typeof body.result.ttlMs, "number");
  assert.ok(["public", "private"].includes(body.result.cacheScope));
  const listed = await post(rig.worker, ...modern(1, "tools/list"));
  assert.equal(listed.body.result.resultType, "complete");
  assert.equal(typeof listed.body.result.ttlMs, "number");
  const encoded = `=?base64?${Buffer.from("get_memories").toString("base64")}?=`; // a name sent encoded
  const called = await post(rig.worker, ...modern(1, "tools/call", { name: "get_memories", arguments: {} }, { headers: { "mcp-name": encoded } }));
  assert.equal(called.status, 200, JSON.stringify(called.body));
  assert.deepEqual(called.body.result.structuredContent.results, []);

  const refusals = [
    [modern(2, "tools/list", {}, { meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } }), 400, -32022],
    [modern(3, "tools/list", {}, { headers: { "mcp-method": "tools/call" } }), 400, -32020],
    [modern(4, "tools/call", { name: "get_memories", arguments: {} }, { headers: { "mcp-name": "read_graph" } }), 400, -32020],
    [modern(5, "tools/call", { name: "get_memories", arguments: {} }, { headers: { "mcp-name": undefined } }), 400, -32020],
    [modern(6, "tools/list", {}, { meta: { "io.modelcontextprotocol/protocolVersion": CURRENT } }), 400, -32602],
    [modern(7, "ping"), 404, -32601],
  ];
  for (const [[message, options], status, code] of refusals) {
    for (const [name, value] of Object.entries(options.headers)) if (value === undefined) delete options.headers[name];
    const refused = await post(rig.worker, message, options);
    assert.equal(refused.status, status, JSON.stringify(refused.body));
    assert.equal(refused.body.id, message.id);
    assert.equal(refused.body.error.code, code, JSON.stringify(refused.body));
  }
  const unsupported = await post(rig.worker, ...modern(8, "tools/list", {}, { meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } }));
  assert.deepEqual(unsupported.body.error.data, { supported: SERVED, requested: "2099-01-01" });
  const legacy = await post(rig.worker, { jsonrpc: "2.0", id: 9, method: "ping" }, { headers: { "mcp-protocol-version": "1999-01-01" } });
  assert.equal(legacy.status, 400);
  assert.equal(legacy.body.error.code, -32022);
});

test("Origin: absent, the endpoint's own or a listed one is served; any other gets 403 before anything runs", T, async () => {
  const url = await mcpUrl(rig.worker);
  const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
  for (const origin of [undefined, url.origin, ALLOWED, "https://other.example"]) {
    const answered = await post(rig.worker, ping, { headers: origin ? { origin } : {} });
    assert.equal(answered.status, 200, `${origin}: ${JSON.stringify(answered.body)}`);
  }
  for (const origin of ["https://evil.example", "null", `http://attacker.example:${url.port}`, "https://app.example.evil"]) {
    const refused = await post(rig.worker, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "delete_all_memories", arguments: { user_id: "u" } } },
      { headers: { origin } });
    assert.equal(refused.status, 403, origin);
    assert.equal(refused.body.error.data.code, "ORIGIN_NOT_ALLOWED");
    assert.equal("id" in refused.body, false, "answered without an id");
    assert.match(refused.body.error.message, /MCP_ALLOWED_ORIGINS/);
  }
});

test("the v1 client (2025-11-25) sees an outputSchema on every tool and results that match it", T, async () => {
  const client = await connect(rig.worker);
  const { tools } = await client.listTools(); // the client now checks each structuredContent against it
  for (const tool of tools) assert.equal(tool.outputSchema?.type, "object", `${tool.name} declares no outputSchema`);
  await call(client, "get_memories", { user_id: "schema" });
  await call(client, "search_memories", { query: "anything", user_id: "schema" });
  await call(client, "list_entities");
  await call(client, "delete_all_memories", { user_id: "schema" });
  await client.close();
});

test("arguments nested deeper than 64 levels: the coded tool error stdio answers, through the v1 client", T, async () => {
  const client = await connect(rig.worker);
  for (const levels of [64, 130, 1000]) {
    const result = await client.callTool({ name: "add_memory", arguments: { text: "Deep", metadata: nested(levels), user_id: "deep" } });
    assert.equal(result.isError, true, `${levels} levels`);
    assert.deepEqual(JSON.parse(result.content[0].text).error, { code: "INVALID_INPUT", message: TOO_DEEP });
  }
  const batch = await post(rig.worker, [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_memories", arguments: { filters: nested(200) } } }]);
  assert.equal(batch.status, 200);
  assert.equal(JSON.parse(batch.body[0].result.content[0].text).error.message, TOO_DEEP.replace("metadata", "filters"));
  // Deeper than a client's JSON.stringify goes: the raw body (600 kB, under the 1 MiB limit).
  const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
  const raw = await post(rig.worker, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_memory","arguments":{"text":"x","user_id":"deep","metadata":${deep}}}}`);
  assert.equal(raw.status, 200, JSON.stringify(raw.body).slice(0, 300));
  assert.equal(JSON.parse(raw.body.result.content[0].text).error.message, TOO_DEEP);
  assert.deepEqual((await call(client, "get_memories", { user_id: "deep" })).results, []);
  await client.close();
});
