// memwasm/otel with the real OpenTelemetry SDK: one add() and one search() reach an InMemorySpanExporter as
// `upsert_memory` and `search_memory` spans with the GenAI attributes, their model calls as child spans; a
// failed search is an error span; scope ids are hashed and no memory text is on a span unless asked for.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { trace } from "@opentelemetry/api";
import { Memory } from "memwasm";
import { withTracing, tracingAvailable } from "memwasm/otel";
import { addRules, allAttributes, only, parentId, registerSdk, scriptedServer, T, testConfig } from "./helpers.mjs";

const server = scriptedServer();
const exporter = registerSdk();
const Traced = withTracing(Memory);
const alice = { userId: "alice" };
const HEX16 = /^[0-9a-f]{16}$/;

beforeEach(() => exporter.reset());

test("one add() and one search(): operation spans, model spans under them, GenAI attributes", T, async () => {
  assert.equal(tracingAvailable, true);
  const memory = new Traced(testConfig(server));
  assert.ok(memory instanceof Memory && memory instanceof Traced);
  server.script(addRules("I like green tea", ["User likes green tea"]));
  const added = await memory.add("I like green tea", alice);
  const found = await memory.search("tea", alice);
  assert.equal(found.results[0].memory, "User likes green tea");
  const spans = exporter.getFinishedSpans();

  const add = only(spans, "upsert_memory");
  assert.equal(parentId(add), "");
  assert.equal(add.attributes["gen_ai.operation.name"], "upsert_memory");
  assert.equal(add.attributes["memwasm.operation"], "add");
  assert.equal(add.attributes["gen_ai.memory.record.count"], added.results.length);
  assert.match(add.attributes["gen_ai.memory.store.id"], HEX16);
  assert.equal(add.status.code, 0);

  const search = only(spans, "search_memory");
  assert.equal(search.attributes["gen_ai.memory.record.count"], 1);
  assert.equal(search.attributes["gen_ai.memory.store.id"], add.attributes["gen_ai.memory.store.id"], "one scope, one store id");
  assert.notEqual(search.spanContext().traceId, add.spanContext().traceId);

  const models = spans.filter((s) => s !== add && s !== search);
  const under = (op) => models.filter((s) => parentId(s) === op.spanContext().spanId);
  assert.equal(under(add).length + under(search).length, models.length, "every model span is under an operation");
  const chats = under(add).filter((s) => s.name === "chat test-llm");
  assert.equal(chats.length, server.count("chat"));
  for (const chat of chats) {
    assert.deepEqual(chat.attributes, {
      "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "test-llm",
    });
    assert.equal(chat.kind, 2, "CLIENT");
    assert.equal(chat.spanContext().traceId, add.spanContext().traceId);
  }
  assert.ok(under(add).some((s) => s.name === "embeddings test-embed"));
  const [embed] = under(search);
  assert.equal(embed.name, "embeddings test-embed");
  assert.equal(embed.attributes["gen_ai.operation.name"], "embeddings");
  assert.equal(embed.attributes["memwasm.embeddings.inputs"], 1);

  const text = allAttributes(spans);
  for (const secret of ["alice", "green tea", "tea\""]) assert.ok(!text.includes(secret), `no ${secret} in the attributes`);
});

test("a failed search is an ERROR span with the error code, as is its embedding call", T, async () => {
  const memory = new Traced(testConfig(server, { retry: { maxRetries: 0 } }));
  server.script({ kind: "embedding", status: 500, message: "down" });
  await assert.rejects(memory.search("tea", { ...alice, method: "vector" }), { code: "EMBEDDING_HTTP" });
  const spans = exporter.getFinishedSpans();
  const search = only(spans, "search_memory");
  assert.equal(search.status.code, 2);
  assert.equal(search.attributes["error.type"], "EMBEDDING_HTTP");
  assert.equal(search.events[0]?.name, "exception");
  const embed = only(spans, "embeddings test-embed");
  assert.equal(parentId(embed), search.spanContext().spanId);
  assert.equal(embed.status.code, 2);
  assert.equal(embed.attributes["error.type"], "EMBEDDING_HTTP");
});

test("operations go under the app's active span; the config's own observe still hears every call", T, async () => {
  const heard = [];
  const memory = new Traced(testConfig(server, { observe: (event) => heard.push(event.phase) }));
  server.script(addRules("I drink coffee", ["User drinks coffee"]));
  const tracer = trace.getTracer("app");
  await tracer.startActiveSpan("request", async (span) => {
    await memory.add("I drink coffee", alice);
    span.end();
  });
  const spans = exporter.getFinishedSpans();
  const request = only(spans, "request");
  assert.equal(parentId(only(spans, "upsert_memory")), request.spanContext().spanId);
  assert.ok(spans.every((s) => s.spanContext().traceId === request.spanContext().traceId));
  assert.equal(heard.length, 2 * (spans.length - 2));
});

test("two memories adding at once: each one's model spans go under its own add", T, async () => {
  const [one, two] = [new Traced(testConfig(server)), Traced.fromConfig(testConfig(server))];
  assert.ok(two instanceof Traced);
  server.script([...addRules("I like tea", ["User likes tea"]), ...addRules("I like rum", ["User likes rum"])]);
  await Promise.all([one.add("I like tea", alice), two.add("I like rum", { userId: "bob" })]);
  const spans = exporter.getFinishedSpans();
  const adds = spans.filter((s) => s.name === "upsert_memory");
  assert.equal(adds.length, 2);
  assert.notEqual(adds[0].attributes["gen_ai.memory.store.id"], adds[1].attributes["gen_ai.memory.store.id"]);
  for (const add of adds) {
    const children = spans.filter((s) => parentId(s) === add.spanContext().spanId);
    assert.ok(children.filter((s) => s.name.startsWith("chat")).length >= 2, "extraction and decision under each add");
  }
});

test("two searches at once on one memory: their embedding spans go under the searches' parent, linked to both", T, async () => {
  const memory = new Traced(testConfig(server));
  await memory.add("User likes tea", { ...alice, infer: false });
  exporter.reset();
  const tracer = trace.getTracer("app");
  await tracer.startActiveSpan("request", async (span) => {
    await Promise.all([memory.search("tea", alice), memory.search("rum", alice)]);
    span.end();
  });
  const spans = exporter.getFinishedSpans();
  const request = only(spans, "request").spanContext().spanId;
  const searches = spans.filter((s) => s.name === "search_memory").map((s) => s.spanContext().spanId);
  const embeds = spans.filter((s) => s.name.startsWith("embeddings"));
  assert.equal(embeds.length, 2);
  for (const embed of embeds) {
    assert.equal(parentId(embed), request);
    assert.deepEqual(embed.links.map((l) => l.context.spanId).sort(), [...searches].sort());
  }
});

test("recall, getAll, update and delete have spans; opened memories are traced", T, async () => {
  const memory = await Traced.open(testConfig(server));
  const { results: [stored] } = await memory.add("User likes tea", { ...alice, infer: false });
  const recalled = await memory.recall("tea", alice);
  await memory.getAll(alice);
  await memory.update(stored.id, "User likes black tea");
  await memory.delete(stored.id);
  const names = exporter.getFinishedSpans().filter((s) => s.attributes["memwasm.operation"]).map((s) => s.name);
  assert.deepEqual(names, ["upsert_memory", "search_memory", "search_memory", "update_memory", "delete_memory"]);
  const recall = exporter.getFinishedSpans().find((s) => s.attributes["memwasm.operation"] === "recall");
  assert.equal(recall.attributes["gen_ai.memory.record.count"], recalled.memories.length);
  assert.equal(recalled.memories.length, 1);
  const del = only(exporter.getFinishedSpans(), "delete_memory");
  assert.equal(del.attributes["gen_ai.memory.record.id"], stored.id);
});

test("scopeIds plain or none; captureContent puts the query and the records on the span", T, async () => {
  const Plain = withTracing(Memory, { scopeIds: "plain", captureContent: true });
  const memory = new Plain(testConfig(server));
  await memory.add("User likes tea", { userId: "alice", agentId: "bot", infer: false });
  await memory.search("tea", { userId: "alice", agentId: "bot" });
  const search = only(exporter.getFinishedSpans(), "search_memory");
  assert.equal(search.attributes["gen_ai.memory.store.id"], "user:alice/agent:bot");
  assert.equal(search.attributes["gen_ai.memory.query.text"], "tea");
  const [record] = JSON.parse(search.attributes["gen_ai.memory.records"]);
  assert.equal(record.content, "User likes tea");
  assert.equal(typeof record.score, "number");
  exporter.reset();
  const None = withTracing(Memory, { scopeIds: "none" });
  await new None(testConfig(server)).getAll(alice);
  assert.equal(only(exporter.getFinishedSpans(), "search_memory").attributes["gen_ai.memory.store.id"], undefined);
});

test("bad options are INVALID_CONFIG; a non-function observe is still the Memory's INVALID_CONFIG", T, () => {
  for (const options of [{ scopeIds: "md5" }, { captureContent: "yes" }, { tracer: {} }, { api: { trace: {} } }, null]) {
    assert.throws(() => withTracing(Memory, options), { code: "INVALID_CONFIG" });
  }
  assert.throws(() => withTracing("Memory"), { code: "INVALID_INPUT" });
  assert.throws(() => new Traced(testConfig(server, { observe: "yes" })), (e) => e.code === "INVALID_CONFIG" && /observe/.test(e.message));
});
