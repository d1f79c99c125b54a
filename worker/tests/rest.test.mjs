// The REST surface under /v1/ (the mem0-style routes), end to end: the Rust worker in workerd, its KV namespace, and the
// scripted OpenAI-compatible server as LLM and embedder.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, test } from "node:test";
import { ACME, DECIDE, EXTRACT, T, allKeys, seed, startServer, startWorker } from "./helpers.mjs";

const md5 = (text) => createHash("md5").update(text, "utf8").digest("hex");
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

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

test("add runs the LLM pipeline and answers in snake_case", T, async () => {
  const facts = ["User's name is Alice", "User works at Acme Corp"];
  const ids = await seed(call, server, facts, { user_id: "alice", metadata: { source: "chat" } });
  const { status, body } = await call("GET", `/v1/memories/${ids[1]}/`);
  assert.equal(status, 200);
  assert.deepEqual(Object.keys(body).sort(), [
    "created_at", "hash", "id", "memory", "metadata", "updated_at", "user_id",
  ]);
  assert.equal(body.memory, "User works at Acme Corp");
  assert.equal(body.hash, md5("User works at Acme Corp"));
  assert.deepEqual(body.metadata, { source: "chat" });
  assert.match(body.created_at, ISO);
});

test("add with a message list, agent and run scope, and infer: false", T, async () => {
  const messages = [
    { role: "user", content: "Remember that I prefer window seats" },
    { role: "assistant", content: "Noted!" },
  ];
  const scope = { user_id: "bob", agent_id: "travel", run_id: "trip-1" };
  const { status, body } = await call("POST", "/v1/memories/", { body: { messages, ...scope, infer: false } });
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body.results.map((e) => [e.event, e.memory]), [
    ["ADD", "Remember that I prefer window seats"],
    ["ADD", "Noted!"],
  ]);
  assert.deepEqual(body.warnings, []);
  const item = await call("GET", `/v1/memories/${body.results[0].id}/`);
  assert.equal(item.body.agent_id, "travel");
  assert.equal(item.body.run_id, "trip-1");
  assert.deepEqual(item.body.metadata, { role: "user" });
});

test("a repeated fact is a NONE event, not a second memory", T, async () => {
  const [id] = await seed(call, server, ["User likes green tea"], { user_id: "dedup" });
  const input = "dedup-again";
  server.script({ kind: "chat", match: [EXTRACT, input], reply: { facts: ["User likes green tea"] }, times: 1 });
  const { body } = await call("POST", "/v1/memories/", { body: { messages: input, user_id: "dedup" } });
  assert.deepEqual(body.results.map((e) => [e.event, e.id]), [["NONE", id]]);
  const all = await call("GET", "/v1/memories/?user_id=dedup");
  assert.equal(all.body.results.length, 1);
});

test("an update decision rewrites the stored memory and its history", T, async () => {
  const [id] = await seed(call, server, ["User lives in NYC"], { user_id: "mover" });
  const input = "I moved to San Francisco";
  server.script([
    { kind: "chat", match: [EXTRACT, input], reply: { facts: ["User lives in San Francisco"] }, times: 1 },
    {
      kind: "chat",
      match: [DECIDE, "User lives in NYC"],
      reply: { memory: [{ id: "0", text: "User lives in San Francisco", event: "UPDATE", old_memory: "User lives in NYC" }] },
      times: 1,
    },
  ]);
  const { body } = await call("POST", "/v1/memories/", { body: { messages: input, user_id: "mover" } });
  assert.deepEqual(body.results.map((e) => [e.event, e.id, e.old_memory, e.new_memory]), [
    ["UPDATE", id, "User lives in NYC", "User lives in San Francisco"],
  ]);
  const history = await call("GET", `/v1/memories/${id}/history/`);
  assert.deepEqual(history.body.map((r) => [r.event, r.old_value, r.new_value]), [
    ["ADD", null, "User lives in NYC"],
    ["UPDATE", "User lives in NYC", "User lives in San Francisco"],
  ]);
});

test("search by GET (q) and by POST body, ranked, scoped, limited and filtered", T, async () => {
  await seed(call, server, ["User likes Python", "User plays the violin", "User likes Rust"], {
    user_id: "searcher",
    metadata: { topic: "hobby" },
  });
  await seed(call, server, ["User likes Python a lot"], { user_id: "someone-else" });

  const viaGet = await call("GET", "/v1/memories/search/?q=likes%20Python&user_id=searcher&limit=2");
  assert.equal(viaGet.status, 200, JSON.stringify(viaGet.body));
  assert.equal(viaGet.body.results.length, 2);
  assert.equal(viaGet.body.results[0].memory, "User likes Python");
  assert.ok(viaGet.body.results[0].score >= viaGet.body.results[1].score);
  assert.equal(typeof viaGet.body.results[0].score, "number");

  const viaPost = await call("POST", "/v1/memories/search/", {
    body: {
      query: "violin",
      user_id: "searcher",
      filters: { field: "memory", operator: "contains", value: "violin" },
    },
  });
  assert.equal(viaPost.status, 200, JSON.stringify(viaPost.body));
  assert.deepEqual(viaPost.body.results.map((r) => r.memory), ["User plays the violin"]);

  const filtered = await call(
    "GET",
    `/v1/memories/search/?query=likes&user_id=searcher&filters=${encodeURIComponent(JSON.stringify({ topic: "work" }))}`,
  );
  assert.deepEqual(filtered.body.results, []);
  const withThreshold = await call("GET", "/v1/memories/search/?q=likes%20Python&user_id=searcher&threshold=0.99");
  assert.ok(withThreshold.body.results.every((r) => r.score >= 0.99));
});

test("get all lists a scope oldest first, with limit and filters", T, async () => {
  const ids = await seed(call, server, ["Fact one", "Fact two", "Fact three"], { user_id: "lister", agent_id: "a1" });
  await seed(call, server, ["Fact four"], { user_id: "lister", agent_id: "a2" });
  const all = await call("GET", "/v1/memories/?user_id=lister");
  assert.deepEqual(all.body.results.map((r) => r.memory), ["Fact one", "Fact two", "Fact three", "Fact four"]);
  const agent = await call("GET", "/v1/memories/?user_id=lister&agent_id=a1&limit=2");
  assert.deepEqual(agent.body.results.map((r) => r.id), ids.slice(0, 2));
  const byAgentOnly = await call("GET", "/v1/memories/?agent_id=a2");
  assert.deepEqual(byAgentOnly.body.results.map((r) => r.memory), ["Fact four"]);
  const filters = encodeURIComponent(JSON.stringify({ field: "memory", operator: "icontains", value: "TWO" }));
  const filtered = await call("GET", `/v1/memories/?user_id=lister&filters=${filters}`);
  assert.deepEqual(filtered.body.results.map((r) => r.memory), ["Fact two"]);
});

test("update re-embeds and re-hashes; delete removes; history keeps all three events", T, async () => {
  const [id] = await seed(call, server, ["User drinks coffee"], { user_id: "editor" });
  const updated = await call("PUT", `/v1/memories/${id}/`, { body: { text: "User drinks tea" } });
  assert.equal(updated.status, 200);
  assert.deepEqual(updated.body, { message: "Memory updated successfully!" });
  const item = await call("GET", `/v1/memories/${id}/`);
  assert.equal(item.body.memory, "User drinks tea");
  assert.equal(item.body.hash, md5("User drinks tea"));
  assert.ok(item.body.updated_at >= item.body.created_at);
  const found = await call("GET", "/v1/memories/search/?q=tea&user_id=editor");
  assert.equal(found.body.results[0].id, id);

  const deleted = await call("DELETE", `/v1/memories/${id}/`);
  assert.deepEqual(deleted.body, { message: "Memory deleted successfully!" });
  assert.equal((await call("GET", `/v1/memories/${id}/`)).status, 404);
  const history = await call("GET", `/v1/memories/${id}/history/`);
  assert.equal(history.status, 200);
  assert.deepEqual(history.body.map((r) => [r.event, r.is_deleted]), [
    ["ADD", false],
    ["UPDATE", false],
    ["DELETE", true],
  ]);
  for (const record of history.body) {
    assert.equal(record.memory_id, id);
    assert.equal(record.user_id, "editor");
    assert.match(record.timestamp, ISO);
  }
});

test("delete all removes one scope only and records a DELETE for each", T, async () => {
  const doomed = await seed(call, server, ["Doomed one", "Doomed two"], { user_id: "cleaner", run_id: "r1" });
  const [kept] = await seed(call, server, ["Kept"], { user_id: "cleaner", run_id: "r2" });
  const response = await call("DELETE", "/v1/memories/?user_id=cleaner&run_id=r1");
  assert.deepEqual(response.body, { message: "Memories deleted successfully!" });
  const left = await call("GET", "/v1/memories/?user_id=cleaner");
  assert.deepEqual(left.body.results.map((r) => r.id), [kept]);
  const history = await call("GET", `/v1/memories/${doomed[0]}/history/`);
  assert.deepEqual(history.body.map((r) => r.event), ["ADD", "DELETE"]);
});

test("KV holds one key per memory, one marker per memory and one key per history record", T, async () => {
  const [id] = await seed(call, server, ["User owns a cat"], { user_id: "layout" });
  const keys = await allKeys(await worker.kv(), "t/acme/");
  assert.ok(keys.includes(`t/acme/mem/${id}`), keys.join("\n"));
  assert.ok(keys.includes(`t/acme/scope/layout///${id}`));
  assert.equal(keys.filter((key) => key.startsWith(`t/acme/hist/${id}/`)).length, 1);
  const stored = JSON.parse(await (await worker.kv()).get(`t/acme/mem/${id}`));
  assert.equal(stored.memory, "User owns a cat");
  assert.equal(typeof stored.embedding, "string", "the vector is stored as compact base64");
  assert.equal(Buffer.from(stored.embedding, "base64").length, 64 * 4);
});

test("reset deletes everything of the tenant", T, async () => {
  await seed(call, server, ["Before reset"], { user_id: "resetter" });
  const response = await call("POST", "/v1/reset/", { token: ACME });
  assert.equal(response.status, 200);
  assert.deepEqual(response.body, { message: "Memories reset successfully!" });
  assert.deepEqual((await call("GET", "/v1/memories/?user_id=resetter")).body.results, []);
  // All but a Durable Object's open-image token (a random id, no memory data): it refuses an image read before the reset.
  assert.deepEqual((await allKeys(await worker.kv(), "t/acme/")).filter((key) => key !== "t/acme/imggen"), []);
});
