// JSON-RPC batches on /mcp: refused whole where the revision has none (2025-06-18, 2025-11-25), bounded in
// size where it has them (2025-03-26, also what a request without MCP-Protocol-Version is read as), and every
// request held to a budget of model calls: the messages past it are refused with a code before any model
// call. Model calls are counted on the scripted server's request log.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { beforeEach, test } from "node:test";
import { T, workerForFile } from "./helpers.mjs";
import { call, connect, post, scriptAdd } from "./mcp-helpers.mjs";

const rig = workerForFile({ vars: { GRAPH_ENABLED: "true" } });
beforeEach(() => rig.server?.reset());

/** Documented in docs/worker-mcp.md (Limits); the budget is the cost table's, shared with the stdio server. */
const MAX_BATCH_MESSAGES = 20;
const MODEL_CALL_BUDGET = JSON.parse(readFileSync(new URL("../../pkg/mcp/costs.json", import.meta.url), "utf8")).budget;

const message = (id, method, params) => ({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
const tool = (id, name, args) => message(id, "tools/call", { name, arguments: args });
const revision = (version) => ({ headers: { "mcp-protocol-version": version } });

/** The memories `user` holds, read with the tenant-wide token. */
async function memoriesOf(user) {
  const client = await connect(rig.worker);
  const { results } = await call(client, "get_memories", { user_id: user, page_size: 100 });
  await client.close();
  return results.map((m) => m.memory);
}

test("a batch under 2025-06-18 or 2025-11-25 is refused whole, with nothing done", T, async () => {
  const { server, worker } = rig;
  for (const version of ["2025-06-18", "2025-11-25"]) {
    scriptAdd(server, "I keep bees", ["Keeps bees"]);
    const user = `batch-${version}`;
    const refused = await post(worker, [tool(1, "add_memory", { text: "I keep bees", user_id: user }), message(2, "ping")], revision(version));
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.id, null);
    assert.equal(refused.body.error.code, -32600);
    assert.equal(refused.body.error.data.code, "BATCH_NOT_SUPPORTED");
    assert.match(refused.body.error.message, new RegExp(`${version}.*one message per POST`));
    assert.equal(server.requests().length, 0, "no model call");
    assert.deepEqual(await memoriesOf(user), []);
  }
  // The same messages one per POST are answered.
  const alone = await post(worker, message(3, "ping"), revision("2025-11-25"));
  assert.deepEqual(alone.body, { jsonrpc: "2.0", id: 3, result: {} });
});

test("a 2025-03-26 batch over the size bound is refused whole; one at the bound is answered", T, async () => {
  const { server, worker } = rig;
  scriptAdd(server, "I grow tomatoes", ["Grows tomatoes"]);
  const pings = (n) => Array.from({ length: n }, (_, i) => message(i + 2, "ping"));
  const over = [tool(1, "add_memory", { text: "I grow tomatoes", user_id: "too-many" }), ...pings(MAX_BATCH_MESSAGES)];
  for (const options of [revision("2025-03-26"), {}]) {
    const refused = await post(worker, over, options);
    assert.equal(refused.status, 400, JSON.stringify(refused.body).slice(0, 300));
    assert.equal(refused.body.error.code, -32600);
    assert.equal(refused.body.error.data.code, "BATCH_TOO_LARGE");
    assert.match(refused.body.error.message, new RegExp(`${MAX_BATCH_MESSAGES + 1} messages.*${MAX_BATCH_MESSAGES}`));
  }
  assert.equal(server.requests().length, 0, "no model call");
  assert.deepEqual(await memoriesOf("too-many"), []);

  const answered = await post(worker, pings(MAX_BATCH_MESSAGES), revision("2025-03-26"));
  assert.equal(answered.status, 200);
  assert.equal(answered.body.length, MAX_BATCH_MESSAGES);
});

test("10,000 tools/list in one request get a small refusal, whatever the revision", T, async () => {
  const batch = Array.from({ length: 10_000 }, (_, i) => message(i, "tools/list"));
  for (const options of [{}, revision("2025-03-26"), revision("2025-11-25")]) {
    const started = Date.now();
    const answer = await post(rig.worker, batch, options);
    const size = JSON.stringify(answer.body).length;
    assert.equal(answer.status, 400);
    assert.ok(size < 1024, `the answer is ${size} bytes (after ${Date.now() - started} ms)`);
    assert.match(answer.body.error.data.code, /^BATCH_(TOO_LARGE|NOT_SUPPORTED)$/);
  }
});

test("add_memory calls past the model-call budget are refused with a code before any model call", T, async () => {
  const { server, worker } = rig;
  const adds = Array.from({ length: 10 }, (_, i) => {
    const text = `My locker number is ${1000 + i}`;
    scriptAdd(server, text, [`Locker number ${1000 + i}`], { entities: [{ name: `locker ${1000 + i}`, type: "concept" }] });
    return tool(i + 1, "add_memory", { text, user_id: "budget" });
  });
  const answer = await post(worker, adds, revision("2025-03-26"));
  assert.equal(answer.status, 200);
  const calls = server.requests().length;
  assert.ok(calls <= MODEL_CALL_BUDGET, `${calls} model calls for one request (budget ${MODEL_CALL_BUDGET})`);
  const ran = answer.body.filter((a) => a.result);
  const refused = answer.body.filter((a) => a.error);
  assert.ok(ran.length >= 1 && refused.length >= 1, JSON.stringify(answer.body).slice(0, 400));
  assert.deepEqual(answer.body.map((a) => a.id), adds.map((m) => m.id), "every message answered, in order");
  for (const { error } of refused) {
    assert.equal(error.code, -32000);
    assert.equal(error.data.code, "MODEL_BUDGET_EXCEEDED");
    assert.match(error.message, new RegExp(`${MODEL_CALL_BUDGET} model calls`));
  }
  // The refused ones are the last: the budget is spent in order.
  assert.ok(answer.body.findIndex((a) => a.error) === ran.length);
  assert.equal((await memoriesOf("budget")).length, ran.length, "only the calls that ran stored anything");
});

test("one create_entities call whose observations exceed the budget is refused before any embedding", T, async () => {
  const { server, worker } = rig;
  const observations = Array.from({ length: MODEL_CALL_BUDGET + 1 }, (_, i) => `Observation number ${i}`);
  const args = { entities: [{ name: "Zed", entityType: "person", observations }], user_id: "big-entity" };
  const answer = await post(worker, tool(1, "create_entities", args), revision("2025-11-25"));
  assert.equal(answer.status, 200);
  assert.equal(answer.body.error?.data?.code, "MODEL_BUDGET_EXCEEDED", JSON.stringify(answer.body).slice(0, 300));
  assert.match(answer.body.error.message, new RegExp(`create_entities would make ${MODEL_CALL_BUDGET + 1} model calls`));
  assert.equal(server.requests().length, 0, "no model call");
  assert.deepEqual(await memoriesOf("big-entity"), []);
});
