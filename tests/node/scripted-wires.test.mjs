// Self-test of the scripted server's wire formats (tests/support/wire-formats.mjs): each provider API's
// routes, the checks a real API makes, its reply and error shapes, and the rule options that target them.
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { startScriptedServer } from "../support/scripted-server.mjs";
import { workersAiBinding } from "../support/workers-ai-binding.mjs";

let server;
before(async () => {
  server = await startScriptedServer({ port: 0 });
});
after(() => server.close());
beforeEach(() => server.reset());

const post = (path, body, headers = {}) =>
  fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
const GEMINI = { "x-goog-api-key": "k" };
const lastEntry = () => server.requests().at(-1);

test("anthropic: text and tool_use replies; system prompt matched by rules", async () => {
  server.script({ kind: "chat", match: ["SYS", "hello"], reply: { facts: ["x"] } });
  const body = { model: "claude-x", max_tokens: 10, system: "SYS", messages: [{ role: "user", content: "hello" }] };
  let res = await post("/v1/messages", body, ANTHROPIC);
  let reply = await res.json();
  assert.equal(res.status, 200);
  assert.deepEqual([reply.type, reply.role, reply.stop_reason], ["message", "assistant", "end_turn"]);
  assert.deepEqual(reply.content, [{ type: "text", text: '{"facts":["x"]}' }]);
  assert.ok(reply.usage.input_tokens > 0);
  const tools = [{ name: "record", description: "d", input_schema: { type: "object" } }];
  res = await post("/v1/messages", { ...body, tools, tool_choice: { type: "tool", name: "record" } }, ANTHROPIC);
  reply = await res.json();
  assert.equal(reply.stop_reason, "tool_use");
  assert.deepEqual(
    reply.content.map((b) => [b.type, b.name, b.input]),
    [["tool_use", "record", { facts: ["x"] }]],
  );
  assert.deepEqual([lastEntry().system, lastEntry().user, lastEntry().wire], ["SYS", "hello", "anthropic"]);
});

test("anthropic: what the real API refuses, in its error shape", async () => {
  const body = { model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] };
  const cases = [
    [{}, body, 401, "authentication_error"],
    [{ "x-api-key": "k" }, body, 400, "invalid_request_error"],
    [ANTHROPIC, { ...body, max_tokens: undefined }, 400, "invalid_request_error"],
    [
      ANTHROPIC,
      { ...body, messages: [{ role: "system", content: "s" }, ...body.messages] },
      400,
      "invalid_request_error",
    ],
    [ANTHROPIC, { ...body, tool_choice: { type: "tool", name: "missing" } }, 400, "invalid_request_error"],
  ];
  for (const [headers, request, status, type] of cases) {
    const res = await post("/v1/messages", request, headers);
    const reply = await res.json();
    assert.equal(res.status, status, JSON.stringify(request));
    assert.deepEqual([reply.type, reply.error.type], ["error", type]);
    assert.equal(typeof lastEntry().invalid, "string");
  }
  server.script({ kind: "chat", wire: "anthropic", status: 529 });
  const res = await post("/v1/messages", body, ANTHROPIC);
  assert.deepEqual(await res.json(), { type: "error", error: { type: "overloaded_error", message: "scripted error" } });
});

test("gemini: generateContent and batchEmbedContents shapes; key only in the header", async () => {
  server.script({ kind: "chat", match: ["be brief", "hi"], reply: "hello" });
  const chat = {
    systemInstruction: { parts: [{ text: "be brief" }] },
    contents: [{ role: "user", parts: [{ text: "hi" }] }],
  };
  let res = await post("/v1beta/models/gemini-x:generateContent", chat, GEMINI);
  const reply = await res.json();
  assert.deepEqual(reply.candidates[0].content, { parts: [{ text: "hello" }], role: "model" });
  assert.equal(reply.candidates[0].finishReason, "STOP");
  const requests = ["a b", "c d"].map((text) => ({
    model: "models/emb",
    content: { parts: [{ text }] },
    outputDimensionality: 8,
  }));
  res = await post("/v1beta/models/emb:batchEmbedContents", { requests }, GEMINI);
  const { embeddings } = await res.json();
  assert.deepEqual(
    embeddings.map((e) => e.values.length),
    [8, 8],
  );
  assert.deepEqual(lastEntry().inputs, ["a b", "c d"]);

  const refusals = [
    ["/v1beta/models/gemini-x:generateContent", chat, {}, 403, "PERMISSION_DENIED"],
    ["/v1beta/models/gemini-x:generateContent?key=k", chat, GEMINI, 400, "INVALID_ARGUMENT"],
    [
      "/v1beta/models/gemini-x:generateContent",
      { ...chat, generationConfig: { responseSchema: { type: "OBJECT" } } },
      GEMINI,
      400,
      "INVALID_ARGUMENT",
    ],
    [
      "/v1beta/models/emb:batchEmbedContents",
      { requests: [{ ...requests[0], model: "models/other" }] },
      GEMINI,
      400,
      "INVALID_ARGUMENT",
    ],
    [
      "/v1beta/models/emb:batchEmbedContents",
      { requests: Array(101).fill(requests[0]) },
      GEMINI,
      400,
      "INVALID_ARGUMENT",
    ],
  ];
  for (const [path, body, headers, status, googleStatus] of refusals) {
    res = await post(path, body, headers);
    const { error } = await res.json();
    assert.deepEqual([res.status, error.code, error.status], [status, status, googleStatus], path);
  }
});

test("ollama: NDJSON unless stream is false; /api/embed; {error} bodies", async () => {
  server.script({ kind: "chat", reply: "hi there" });
  const chat = { model: "llama3.1", messages: [{ role: "user", content: "hi" }] };
  let res = await post("/api/chat", chat);
  assert.match(res.headers.get("content-type"), /application\/x-ndjson/);
  const lines = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.done),
    [false, true],
  );
  res = await post("/api/chat", { ...chat, stream: false, format: "json" });
  const reply = await res.json();
  assert.deepEqual([reply.message.content, reply.done, reply.done_reason], ["hi there", true, "stop"]);
  res = await post("/api/embed", { model: "nomic", input: ["a", "b"], dimensions: 16 });
  const { embeddings } = await res.json();
  assert.deepEqual(
    embeddings.map((e) => e.length),
    [16, 16],
  );
  res = await post("/api/chat", { ...chat, format: "yaml" });
  assert.equal(res.status, 400);
  assert.equal(typeof (await res.json()).error, "string");
  server.script({
    kind: "embedding",
    wire: "ollama",
    status: 404,
    message: 'model "nomic" not found, try pulling it first',
  });
  res = await post("/api/embed", { model: "nomic", input: "a" });
  assert.deepEqual(await res.json(), { error: 'model "nomic" not found, try pulling it first' });
});

test("azure: deployment routes need api-version and api-key; Azure error shape", async () => {
  const chat = { messages: [{ role: "user", content: "x" }] };
  let res = await post("/openai/deployments/d1/chat/completions", chat, { "api-key": "k" });
  assert.equal(res.status, 404);
  res = await post("/openai/deployments/d1/chat/completions?api-version=2024-10-21", chat);
  assert.equal(res.status, 401);
  assert.equal(typeof (await res.json()).error.code, "string");
  res = await post(
    "/openai/deployments/d1/embeddings?api-version=2024-10-21",
    { input: ["a"], dimensions: 4 },
    { "api-key": "k" },
  );
  assert.deepEqual((await res.json()).data[0].embedding.length, 4);
  assert.deepEqual([lastEntry().wire, lastEntry().query], ["azure", { "api-version": "2024-10-21" }]);
});

test("workers-ai: Cloudflare envelopes; JSON mode returns objects; BGE sizes; the binding stand-in", async () => {
  const ai = workersAiBinding(server);
  server.script({ kind: "chat", match: "json please", reply: { facts: ["a"] } });
  const messages = [{ role: "user", content: "json please" }];
  assert.deepEqual(await ai.run("@cf/meta/llama-3.1-8b-instruct", { messages }), {
    response: '{"facts":["a"]}',
    usage: { prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 },
  });
  const structured = await ai.run("@cf/meta/llama-3.1-8b-instruct", {
    messages,
    response_format: { type: "json_object" },
  });
  assert.deepEqual(structured.response, { facts: ["a"] });
  const embedded = await ai.run("@cf/baai/bge-base-en-v1.5", { text: ["a", "b"] });
  assert.deepEqual(embedded.shape, [2, 768]);
  assert.equal(embedded.data[1].length, 768);
  assert.deepEqual(
    ai.calls.map((c) => c.model),
    ["@cf/meta/llama-3.1-8b-instruct", "@cf/meta/llama-3.1-8b-instruct", "@cf/baai/bge-base-en-v1.5"],
  );
  assert.equal(server.requests("workers-ai").length, 3);
  server.script({ kind: "embedding", wire: "workers-ai", status: 429, message: "Capacity temporarily exceeded" });
  await assert.rejects(ai.run("@cf/baai/bge-base-en-v1.5", { text: "x" }), /3040: Capacity temporarily exceeded/);
  const res = await post("/client/v4/accounts/a/ai/run/@cf/baai/bge-base-en-v1.5", { text: "x" });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).success, false);
});

test("rules: wire, has and message target one format and one kind of request", async () => {
  server.script([
    { kind: "chat", wire: "ollama", reply: "ollama only" },
    { kind: "chat", has: "response_format", status: 400, message: "response_format unsupported" },
    { kind: "chat", reply: "default" },
  ]);
  const messages = [{ role: "user", content: "x" }];
  let res = await post("/api/chat", { model: "m", messages, stream: false });
  assert.equal((await res.json()).message.content, "ollama only");
  res = await post("/v1/chat/completions", { messages, response_format: { type: "json_object" } });
  assert.deepEqual([res.status, (await res.json()).error.message], [400, "response_format unsupported"]);
  res = await post("/v1/chat/completions", { messages });
  assert.equal((await res.json()).choices[0].message.content, "default");
  assert.deepEqual(server.requests("ollama").length, 1);
  assert.deepEqual(
    server.requests("openai").map((r) => r.status),
    [400, 200],
  );
  assert.throws(() => server.script({ kind: "chat", wire: "bedrock" }), /unknown wire/);
});
