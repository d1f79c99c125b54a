// What one stdin line may ask of `memwasm mcp`: a line over the limit (16 MB here) is answered with a coded
// error naming the limit, to the request's own id, and the next line is served; a JSON-RPC batch is answered
// with a coded error (the SDK's server takes none); a call over the model-call budget is refused before any
// model call. The real CLI, spoken to line by line on its stdin.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, test } from "node:test";
import { T, startCli as startCliOf, scriptedServer } from "./helpers.mjs";

const server = scriptedServer();
before(() => server.ready);
/** Documented in docs/mcp.md (Limits); the budget is the cost table's, shared with the Worker's /mcp. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
const startCli = (t, args) => startCliOf(t, server, args);
const MODEL_CALL_BUDGET = JSON.parse(readFileSync(new URL("../../pkg/mcp/costs.json", import.meta.url), "utf8")).budget;

/** initialize and initialized, as a client starts. */
async function handshake(cli) {
  cli.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  assert.equal((await cli.next()).id, 0);
  cli.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

const call = (id, name, args) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

test("a 16 MB line gets PAYLOAD_TOO_LARGE naming the limit, at its own id; the next line is served", T, async (t) => {
  const cli = startCli(t, ["--no-llm"]);
  await handshake(cli);
  const huge = "x".repeat(16 * 1024 * 1024);
  // The id after the params, as the SDK's client writes it; then before them.
  cli.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add_memory","arguments":{"text":"${huge}","user_id":"u"}},"id":"big-1"}`);
  cli.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add_memory","arguments":{"text":"${huge}","user_id":"u"}}}`);
  for (const id of ["big-1", 7]) {
    const refused = await cli.next();
    assert.equal(refused.id, id, JSON.stringify(refused));
    assert.equal(refused.error.code, -32600);
    assert.equal(refused.error.data.code, "PAYLOAD_TOO_LARGE");
    assert.match(refused.error.message, new RegExp(`${MAX_LINE_BYTES} bytes`));
  }
  cli.send(call(8, "get_memories", { user_id: "u" }));
  const answered = await cli.next();
  assert.equal(answered.id, 8, JSON.stringify(answered));
  assert.deepEqual(JSON.parse(answered.result.content[0].text).results, [], "nothing of the long lines was stored");
  assert.equal(cli.child.exitCode, null, "still serving");
});

test("a JSON-RPC batch line gets BATCH_NOT_SUPPORTED and runs nothing; the next line is served", T, async (t) => {
  const cli = startCli(t, ["--no-llm"]);
  await handshake(cli);
  cli.send([call(1, "add_memory", { text: "In a batch", user_id: "u" }), { jsonrpc: "2.0", id: 2, method: "ping" }]);
  cli.send(call(3, "get_memories", { user_id: "u" }));
  const refused = await cli.next();
  assert.equal(refused.id, null, `the batch first: ${JSON.stringify(refused).slice(0, 200)}`);
  assert.equal(refused.error.code, -32600);
  assert.equal(refused.error.data.code, "BATCH_NOT_SUPPORTED");
  const answered = await cli.next();
  assert.equal(answered.id, 3);
  assert.deepEqual(JSON.parse(answered.result.content[0].text).results, []);
  assert.equal(server.requests().length, 0, "no model call");
});

test("a call over the model-call budget is refused before any model call", T, async (t) => {
  const cli = startCli(t, ["--no-llm"]);
  await handshake(cli);
  const observations = Array.from({ length: MODEL_CALL_BUDGET + 1 }, (_, i) => `Observation number ${i}`);
  cli.send(call(1, "create_entities", { entities: [{ name: "Zed", entityType: "person", observations }] }));
  const refused = await cli.next();
  assert.equal(refused.error?.data?.code, "MODEL_BUDGET_EXCEEDED", JSON.stringify(refused).slice(0, 300));
  assert.match(refused.error.message, new RegExp(`create_entities would make ${MODEL_CALL_BUDGET + 1} model calls.*at most ${MODEL_CALL_BUDGET}`));
  assert.equal(server.requests().length, 0, "no model call");
  cli.send(call(2, "read_graph", {}));
  assert.deepEqual(JSON.parse((await cli.next()).result.content[0].text).entities, []);
});
