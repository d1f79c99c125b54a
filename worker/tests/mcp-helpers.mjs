// Shared setup for the MCP tests: the official MCP TypeScript SDK client over Streamable HTTP against the
// worker's /mcp in workerd, and the scripted model replies of add() with graph memory on.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ACME, DECIDE, EXTRACT } from "./helpers.mjs";
import { graphToolCalls } from "../../tests/support/graph-reply.mjs";

/** The tool definitions the Node MCP server serves too. */
export const TOOLS = JSON.parse(readFileSync(new URL("../../pkg/mcp/tools.json", import.meta.url), "utf8"));

const GRAPH = "You extract a knowledge graph";

/** The URL of the worker's MCP endpoint (Miniflare listens on a local port). */
export async function mcpUrl(worker) {
  return new URL("/mcp", await worker.mf.ready);
}

/** An SDK client connected to the worker's /mcp with `token` (none: no Authorization header). */
export async function connect(worker, token = ACME) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(await mcpUrl(worker), { requestInit: { headers } });
  const client = new Client({ name: "memwasm-worker-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The JSON a tool call answered, asserting it succeeded. */
export async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${result.content?.[0]?.text}`);
  const value = JSON.parse(result.content[0].text);
  if (value && typeof value === "object" && !Array.isArray(value)) assert.deepEqual(result.structuredContent, value);
  return value;
}

/** The `{code, message}` of a tool call that failed, asserting it did. */
export async function failure(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} should fail: ${result.content?.[0]?.text}`);
  const { error } = JSON.parse(result.content[0].text);
  assert.equal(typeof error.code, "string");
  assert.ok(error.message.length > 0);
  return error;
}

/** Scripts the next add() whose input contains `input`: the model extracts `facts` (all ADDed) and the graph. */
export function scriptAdd(server, input, facts, { entities = [], relations = [] } = {}) {
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts }, times: 1 },
    { kind: "chat", match: [DECIDE, facts[0]], reply: { memory: facts.map((text) => ({ text, event: "ADD" })) }, times: 1 },
    { kind: "chat", match: [GRAPH, input], body: graphToolCalls(entities, relations), times: 1 },
  ]);
}

/** A raw POST to /mcp: `{status, headers, body}` (body parsed when JSON). */
export async function post(worker, body, { token = ACME, headers = {} } = {}) {
  const response = await fetch(await mcpUrl(worker), {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed };
}
