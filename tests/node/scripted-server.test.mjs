// Self-test for tests/support/scripted-server.mjs.
// Run from the repo root: node --test tests/node/scripted-server.test.mjs
import { test, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startScriptedServer, defaultEmbedding, fnv1a32 } from "../support/scripted-server.mjs";

const SERVER_FILE = fileURLToPath(new URL("../support/scripted-server.mjs", import.meta.url));

let server;
before(async () => {
  server = await startScriptedServer({ port: 0 });
});
after(() => server.close());
beforeEach(() => server.reset());

// ---------------------------------------------------------------- helpers

const post = (path, body, headers = {}) =>
  fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

async function chat(...contents) {
  const messages = contents.map((content, i) => ({ role: i === 0 ? "system" : "user", content }));
  const res = await post("/v1/chat/completions", { model: "gpt-test", messages });
  assert.equal(res.status, 200);
  return (await res.json()).choices[0].message.content;
}

async function embed(input, extra = {}) {
  const res = await post("/v1/embeddings", { model: "emb-test", input, ...extra });
  assert.equal(res.status, 200);
  return (await res.json()).data.map((d) => d.embedding);
}

const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));

// ---------------------------------------------------------------- chat

test("chat: full OpenAI response shape", async () => {
  server.script({ kind: "chat", reply: "hello" });
  const res = await post("/v1/chat/completions", { model: "gpt-x", messages: [{ role: "user", content: "hi" }] });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /application\/json/);
  const body = await res.json();
  assert.match(body.id, /^chatcmpl-\d+$/);
  assert.equal(body.object, "chat.completion");
  assert.equal(body.model, "gpt-x");
  assert.ok(Math.abs(body.created - Date.now() / 1000) < 60);
  assert.deepEqual(body.choices, [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }]);
  const u = body.usage;
  assert.ok(u.prompt_tokens > 0 && u.completion_tokens > 0);
  assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
});

test("chat: all substrings must match (across messages), first rule wins, times", async () => {
  server.script([
    { kind: "chat", match: ["Extract facts", "likes tea"], reply: "both", times: 1 },
    { kind: "chat", match: "Extract facts", reply: "extract-only" },
    { kind: "chat", match: "likes tea", reply: "never reached for extract prompts" },
  ]);
  // "Extract facts" is in the system message, "likes tea" in the user message.
  assert.equal(await chat("Extract facts please", "I likes tea"), "both");
  // times: 1 used up -> next matching rule.
  assert.equal(await chat("Extract facts please", "I likes tea"), "extract-only");
  // Case-sensitive: "extract facts" does not match "Extract facts".
  assert.equal(await chat("extract facts", "likes tea"), "never reached for extract prompts");
});

test("chat: unmatched -> default content and unmatched flag", async () => {
  server.script({ kind: "chat", match: "something else", reply: "no" });
  const content = await chat("sys", "hello");
  assert.deepEqual(JSON.parse(content), { facts: [], memory: [] });
  const [entry] = server.requests("chat");
  assert.equal(entry.unmatched, true);
  assert.equal(entry.status, 200);
  server.script({ kind: "chat", reply: "matched" });
  await chat("sys", "hello");
  assert.equal(server.requests("chat")[1].unmatched, undefined);
});

test("chat: object reply is JSON-stringified", async () => {
  const reply = { facts: ["User likes Python"], memory: [{ id: "1", event: "ADD" }] };
  server.script({ kind: "chat", match: "x", reply });
  const content = await chat("x");
  assert.equal(typeof content, "string");
  assert.deepEqual(JSON.parse(content), reply);
});

test("chat: 429 with Retry-After and OpenAI error body, then recovers", async () => {
  server.script([
    { kind: "chat", status: 429, headers: { "Retry-After": "1" }, times: 1 },
    { kind: "chat", reply: "ok" },
  ]);
  const res = await post("/v1/chat/completions", { messages: [{ role: "user", content: "a" }] });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "1");
  assert.deepEqual(await res.json(), { error: { message: "scripted error", type: "rate_limit_error", code: null } });
  assert.equal(await chat("a"), "ok");
  assert.deepEqual(server.requests("chat").map((e) => e.status), [429, 200]);
});

test("chat: 500 and other 4xx error types", async () => {
  server.script([
    { kind: "chat", match: "five", status: 500 },
    { kind: "chat", match: "four", status: 401 },
  ]);
  let res = await post("/v1/chat/completions", { messages: [{ role: "user", content: "five" }] });
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.type, "server_error");
  res = await post("/v1/chat/completions", { messages: [{ role: "user", content: "four" }] });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).error.type, "invalid_request_error");
});

test("chat: raw malformed body is sent verbatim", async () => {
  server.script({ kind: "chat", body: "{not json" });
  const res = await post("/v1/chat/completions", { messages: [{ role: "user", content: "a" }] });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type"), /application\/json/);
  assert.equal(await res.text(), "{not json");
});

test("chat: drop makes fetch reject; server keeps working", async () => {
  server.script([{ kind: "chat", drop: true, times: 1 }, { kind: "chat", reply: "after" }]);
  await assert.rejects(post("/v1/chat/completions", { messages: [{ role: "user", content: "a" }] }), TypeError);
  assert.equal(await chat("a"), "after");
  assert.equal(server.requests("chat")[0].dropped, true);
});

test("chat: delayMs delays the reply", async () => {
  server.script({ kind: "chat", reply: "slow", delayMs: 150 });
  const t0 = Date.now();
  assert.equal(await chat("a"), "slow");
  assert.ok(Date.now() - t0 >= 140, `elapsed ${Date.now() - t0}ms`);
});

// ---------------------------------------------------------------- embeddings

test("embeddings: array input, indices, default dimension 64, unit norm", async () => {
  const res = await post("/v1/embeddings", { model: "emb-test", input: ["User likes tea", "", "Lives in Paris"] });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.object, "list");
  assert.equal(body.model, "emb-test");
  assert.ok(body.usage.prompt_tokens >= 0 && body.usage.total_tokens === body.usage.prompt_tokens);
  assert.deepEqual(body.data.map((d) => [d.object, d.index]), [["embedding", 0], ["embedding", 1], ["embedding", 2]]);
  for (const d of body.data) {
    assert.equal(d.embedding.length, 64);
    assert.ok(Math.abs(norm(d.embedding) - 1) < 1e-9);
  }
  // No tokens -> e_0.
  assert.equal(body.data[1].embedding[0], 1);
});

test("embeddings: string input, dimensions respected, deterministic", async () => {
  const [a] = await embed("User likes hiking in the mountains", { dimensions: 16 });
  const [b] = await embed("User likes hiking in the mountains", { dimensions: 16 });
  assert.equal(a.length, 16);
  assert.deepEqual(a, b);
  assert.deepEqual(a, defaultEmbedding("User likes hiking in the mountains", 16));
  // Stop words and "User" do not matter; case does not matter.
  const [c] = await embed("LIKES hiking mountains", { dimensions: 16 });
  assert.ok(dot(a, c) > 0.999999);
});

test("embeddings: exact hashing scheme (FNV-1a 32, bucket = h % dim, sign from bit 16)", async () => {
  // Published FNV-1a 32-bit test vectors.
  assert.equal(fnv1a32(""), 0x811c9dc5);
  assert.equal(fnv1a32("a"), 0xe40c292c);
  assert.equal(fnv1a32("foobar"), 0xbf9cf968);
  // A single token gives a one-hot vector (after normalisation) at h % dim with sign from bit 16.
  const h = fnv1a32("tea");
  const [v] = await embed("The user's TEA", { dimensions: 32 });
  const expected = new Array(32).fill(0);
  expected[h % 32] = (h >>> 16) & 1 ? -1 : 1;
  assert.deepEqual(v, expected);
});

test("embeddings: similar texts score higher than unrelated ones", async () => {
  const [q, near, far] = await embed([
    "What food does the user like?",
    "User likes spicy food",
    "Works as an engineer at Acme in Berlin",
  ]);
  assert.ok(dot(q, near) > dot(q, far) + 0.2, `near ${dot(q, near)} far ${dot(q, far)}`);
  assert.ok(dot(q, near) < 1);
});

test("embeddings: concept rule makes words embed identically", async () => {
  const before = await embed(["User likes Python", "programming languages"]);
  assert.ok(dot(before[0], before[1]) < 0.5);
  server.script({ kind: "concept", words: ["python", "programming", "languages"] });
  const [a, b] = await embed(["User likes Python", "programming languages"]);
  assert.ok(dot(a, b) > 0.5, `similarity ${dot(a, b)}`);
  assert.ok(dot(a, b) > dot(before[0], before[1]));
});

test("embeddings: vector override for matching inputs only", async () => {
  server.script({ kind: "embedding", match: "special", vector: [1, 2, 3] });
  const [a, b] = await embed(["a special fact", "ordinary fact"]);
  assert.deepEqual(a, [1, 2, 3]);
  assert.equal(b.length, 64);
});

test("embeddings: a failing rule fails the whole request; times applies", async () => {
  server.script({ kind: "embedding", match: ["bad", "fact"], status: 500, times: 1 });
  const res = await post("/v1/embeddings", { input: ["good fact", "bad fact"] });
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.type, "server_error");
  // Rule used up -> retry succeeds.
  assert.equal((await embed(["good fact", "bad fact"])).length, 2);
  assert.deepEqual(server.requests("embedding").map((e) => e.status), [500, 200]);
});

test("embeddings: drop and malformed body rules", async () => {
  server.script([
    { kind: "embedding", match: "dropme", drop: true },
    { kind: "embedding", match: "garble", body: "{not json" },
  ]);
  await assert.rejects(post("/v1/embeddings", { input: ["ok", "dropme"] }), TypeError);
  const res = await post("/v1/embeddings", { input: "garble" });
  assert.equal(await res.text(), "{not json");
});

// ---------------------------------------------------------------- errors, log, CORS, control

test("unknown path -> 404, invalid JSON -> 400, both OpenAI error bodies and logged", async () => {
  let res = await post("/v1/nope", {});
  assert.equal(res.status, 404);
  assert.equal(typeof (await res.json()).error.message, "string");
  res = await post("/v1/chat/completions", "{oops");
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error.type, "invalid_request_error");
  assert.deepEqual(server.requests().map((e) => [e.kind, e.status]), [["other", 404], ["chat", 400]]);
  assert.equal(server.requests("/v1/chat/completions")[0].body, "{oops");
});

test("request log, counts, filters and reset", async () => {
  const t0 = Date.now();
  server.script({ kind: "chat", reply: "r" });
  await chat("one");
  await embed("two");
  await chat("three");
  await fetch(server.url + "/__requests"); // control requests are not logged
  await fetch(server.baseUrl + "/embeddings", { method: "OPTIONS" }); // nor OPTIONS
  assert.equal(server.count("chat"), 2);
  assert.equal(server.count("embedding"), 1);
  const all = server.requests();
  assert.deepEqual(all.map((e) => e.kind), ["chat", "embedding", "chat"]);
  const e = all[0];
  assert.equal(e.method, "POST");
  assert.equal(e.path, "/v1/chat/completions");
  assert.equal(e.headers.authorization, "Bearer test");
  assert.equal(e.body.messages[0].content, "one");
  assert.ok(e.time >= t0 && e.time <= Date.now());
  assert.equal(server.requests("/v1/embeddings")[0].body.input, "two");
  // reset forgets rules and log.
  server.reset();
  assert.equal(server.requests().length, 0);
  assert.equal(server.count("chat"), 0);
  assert.deepEqual(JSON.parse(await chat("one")), { facts: [], memory: [] });
});

test("control endpoints: /__script, /__requests, /__reset", async () => {
  let res = await post("/__script", [{ kind: "chat", match: "ctl", reply: "via control" }]);
  assert.equal(res.status, 200);
  assert.equal(await chat("ctl"), "via control");
  res = await fetch(server.url + "/__requests");
  const log = await res.json();
  assert.equal(log.length, 1);
  assert.equal(log[0].kind, "chat");
  assert.equal((await post("/__script", { kind: "bogus" })).status, 400);
  assert.equal((await post("/__reset", "")).status, 200);
  assert.equal(server.requests().length, 0);
  assert.deepEqual(JSON.parse(await chat("ctl")), { facts: [], memory: [] });
});

test("script() validates rules and chains", () => {
  assert.equal(server.script({ kind: "chat", reply: "x" }), server);
  assert.throws(() => server.script({ kind: "nope" }), /unknown rule kind/);
  assert.throws(() => server.script({ kind: "concept" }), /words/);
});

test("CORS headers on every response; OPTIONS -> 204", async () => {
  const check = (res) => {
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const allowHeaders = res.headers.get("access-control-allow-headers");
    for (const h of ["*", "authorization", "content-type"]) assert.ok(allowHeaders.includes(h), allowHeaders);
    assert.equal(res.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS");
  };
  const pre = await fetch(server.baseUrl + "/chat/completions", { method: "OPTIONS" });
  assert.equal(pre.status, 204);
  check(pre);
  server.script({ kind: "chat", match: "err", status: 503 });
  check(await post("/v1/chat/completions", { messages: [{ role: "user", content: "ok" }] }));
  check(await post("/v1/chat/completions", { messages: [{ role: "user", content: "err" }] }));
  check(await post("/v1/embeddings", { input: "x" }));
  check(await post("/v1/missing", {}));
  check(await fetch(server.url + "/__requests"));
});

test("CLI mode: prints listening line, serves, dies on SIGTERM", async (t) => {
  const child = spawn(process.execPath, [SERVER_FILE, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  t.after(() => child.exitCode === null && child.kill("SIGKILL"));
  const line = await new Promise((resolve, reject) => {
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d;
      if (buf.includes("\n")) resolve(buf);
    });
    child.once("exit", (code) => reject(new Error(`exited early with ${code}`)));
    setTimeout(() => reject(new Error("no listening line within 5s")), 5000).unref();
  });
  const m = /^listening (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(line);
  assert.ok(m, JSON.stringify(line));
  assert.notEqual(Number(m[2]), 0);
  const url = m[1];
  const res = await fetch(url + "/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
  });
  assert.deepEqual(JSON.parse((await res.json()).choices[0].message.content), { facts: [], memory: [] });
  const log = await (await fetch(url + "/__requests")).json();
  assert.equal(log.length, 1);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
});
