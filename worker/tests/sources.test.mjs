// Provenance over REST: GET /v1/memories/{id}/sources/ follows a fact through ADD → UPDATE (both messages kept,
// with the ids the caller gave, and who said each), and an add's idempotency_key replays the committed result
// with no model call.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DECIDE, EXTRACT, T, assertError, startServer, startWorker } from "./helpers.mjs";

let server;
let worker;
before(async () => {
  server = await startServer();
  worker = await startWorker(server);
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

const call = (...args) => worker.call(...args);
// The REST API's snake_case, as every other /v1/ body and answer.
const said = (id, content) => ({ role: "user", content, id, conversation_id: "c1", created_at: "2024-05-01T10:00:00Z" });

test("sources follow a fact through ADD and UPDATE", T, async () => {
  server.script([
    { kind: "chat", match: [EXTRACT, "I live in NYC"], reply: { facts: ["User lives in NYC"] }, times: 1 },
    { kind: "chat", match: [DECIDE, "User lives in NYC"], reply: { memory: [{ text: "User lives in NYC", event: "ADD" }] }, times: 1 },
  ]);
  const added = await call("POST", "/v1/memories/", { body: { messages: [said("m1", "I live in NYC")], user_id: "src" } });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const id = added.body.results[0].id;
  server.script([
    { kind: "chat", match: [EXTRACT, "I moved to SF"], reply: { facts: ["User lives in San Francisco"] }, times: 1 },
    {
      kind: "chat",
      match: [DECIDE, "User lives in NYC"],
      reply: { memory: [{ id: "0", text: "User lives in San Francisco", event: "UPDATE", old_memory: "User lives in NYC" }] },
      times: 1,
    },
  ]);
  const moved = await call("POST", "/v1/memories/", { body: { messages: [said("m2", "I moved to SF")], user_id: "src" } });
  assert.deepEqual(moved.body.results.map((e) => [e.event, e.id]), [["UPDATE", id]]);

  const { status, body } = await call("GET", `/v1/memories/${id}/sources/`);
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body.results.map((s) => [s.id, s.conversation_id, s.role, s.created_at, s.excerpt, s.event]), [
    ["m1", "c1", "user", "2024-05-01T10:00:00Z", "I live in NYC", "ADD"],
    ["m2", "c1", "user", "2024-05-01T10:00:00Z", "I moved to SF", "UPDATE"],
  ]);
  const history = await call("GET", `/v1/memories/${id}/history/`);
  assert.deepEqual(body.results.map((s) => s.history_id), history.body.map((r) => r.id));
  assert.deepEqual(body.results.map((s) => s.recorded_at), history.body.map((r) => r.timestamp));
  assertError(await call("GET", "/v1/memories/no-such-id/sources/"), 404, "NOT_FOUND");
});

test("an add with an idempotency_key replays with no model call", T, async () => {
  server.script([
    { kind: "chat", match: [EXTRACT, "I play chess"], reply: { facts: ["User plays chess"] }, times: 1 },
    { kind: "chat", match: [DECIDE, "User plays chess"], reply: { memory: [{ text: "User plays chess", event: "ADD" }] }, times: 1 },
  ]);
  const body = { messages: [said("m3", "I play chess")], user_id: "keys", idempotency_key: "import:c1:m3:m3" };
  const first = await call("POST", "/v1/memories/", { body });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.replayed, undefined);
  const before = server.requests().length;
  const again = await call("POST", "/v1/memories/", { body });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.deepEqual(again.body, { ...first.body, replayed: true });
  assert.equal(server.requests().length, before, "no model call");
  const all = await call("GET", "/v1/memories/?user_id=keys");
  assert.equal(all.body.results.length, 1);
});

test("a named message's source keeps who said it, and the model sees the name", T, async () => {
  server.script([
    { kind: "chat", match: [EXTRACT, "user (Ana): I play go"], reply: { facts: ["Ana plays go"] }, times: 1 },
    { kind: "chat", match: [DECIDE, "Ana plays go"], reply: { memory: [{ text: "Ana plays go", event: "ADD" }] }, times: 1 },
  ]);
  const message = { ...said("m4", "I play go"), name: "Ana" };
  const added = await call("POST", "/v1/memories/", { body: { messages: [message], user_id: "named" } });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.deepEqual(added.body.results.map((e) => [e.event, e.memory]), [["ADD", "Ana plays go"]]);
  const { body } = await call("GET", `/v1/memories/${added.body.results[0].id}/sources/`);
  assert.deepEqual(body.results.map((s) => [s.id, s.role, s.name, s.excerpt]), [["m4", "user", "Ana", "I play go"]]);
});
