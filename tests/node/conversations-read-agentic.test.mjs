// Agentic retrieval (`method: "agentic"`): round one is a hybrid search; one LLM call judges it. When
// the results answer the query that is all (1 call); when they fall short a second call proposes up to 3
// refined queries, round two searches for them and RRF fuses every round (2 calls, never more). The response
// lists the queries that ran. A failing or missing LLM gives the hybrid results with an AGENTIC_FAILED warning.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Memory, T, chatCalls, scriptedServer, testConfig, userContent } from "./helpers.mjs";
import { conversationMemory, oneMessageEpisode } from "./conversations-helpers.mjs";

const server = scriptedServer();

/** Start of the judgement's and the refinement's system prompts. */
const JUDGE = "You are a memory retrieval expert. A user's query";
const REFINE = "You are a memory retrieval expert. A query run";

const judged = (sufficient, missing = [], extra = {}) => ({
  kind: "chat",
  match: [JUDGE],
  reply: { sufficient, reasoning: sufficient ? "enough" : "something is missing", missing_information: missing },
  ...extra,
});
const refined = (queries, extra = {}) => ({ kind: "chat", match: [REFINE], reply: { queries }, ...extra });

/** Three episodes of g1: two about coffee, one tea party. No retries, so one failing call is one request. */
async function threeEpisodes() {
  const ctx = conversationMemory(server, { retry: { maxRetries: 0 } });
  const topics = ["coffee beans", "the coffee machine", "a tea party"];
  for (const [n, content] of topics.entries()) {
    await oneMessageEpisode(server, ctx, { messageId: `m${n}`, createTime: `2025-01-1${5 + n}T10:00:00Z`, content });
  }
  return ctx.mem;
}

const ids = (res) => res.results.map((m) => m.id);
/** Chat requests of agentic retrieval (both prompts open alike). */
const agenticCalls = () => chatCalls(server, "You are a memory retrieval expert.").length;

describe("agentic search", () => {
  test("results that answer the query: one LLM call, the hybrid ranking, queries [query]", T, async () => {
    const mem = await threeEpisodes();
    server.script(judged(true));
    const before = server.count("chat");
    const res = await mem.search("coffee", { groupId: "g1", method: "agentic" });
    assert.equal(server.count("chat") - before, 1, "exactly one LLM call");
    assert.equal(res.method, "agentic");
    assert.deepEqual(res.queries, ["coffee"]);
    assert.equal(res.warnings, undefined);
    const hybrid = await mem.search("coffee", { groupId: "g1", method: "hybrid" });
    assert.deepEqual(ids(res), ids(hybrid));
    const call = chatCalls(server, JUDGE).at(-1);
    assert.match(userContent(call), /Query: coffee/);
    assert.match(userContent(call), /Chat about coffee beans/);
  });

  test("results that fall short: a judgement and a refinement, round two fused by RRF", T, async () => {
    const mem = await threeEpisodes();
    server.script([judged(false, ["what was served at the party"]), refined(["tea party", "coffee", "tea party"])]);
    const before = server.count("chat");
    // radius 1 leaves each round its keyword hits only, so the tea party can come from round two alone.
    const res = await mem.search("coffee", { groupId: "g1", method: "agentic", radius: 1 });
    assert.equal(server.count("chat") - before, 2, "two LLM calls, never more");
    assert.equal(agenticCalls(), 2);
    assert.match(userContent(chatCalls(server, REFINE)[0]), /what was served at the party/);
    assert.deepEqual(res.queries, ["coffee", "tea party"], "the original query runs once, repeats are dropped");
    assert.equal(res.method, "agentic");
    const texts = res.results.map((m) => m.memory);
    assert.ok(texts.includes("Chat about a tea party"), JSON.stringify(texts));
    assert.equal(texts.length, 3);
    assert.ok(res.results.every((m) => m.score > 0 && m.score <= 2 / 61 + 1e-9), "RRF scores");
    const plain = await mem.search("coffee", { groupId: "g1", method: "hybrid", radius: 1 });
    assert.ok(!plain.results.some((m) => m.memory === "Chat about a tea party"));
  });

  test("an LLM failure falls back to the hybrid results with a warning, not an error", T, async () => {
    const mem = await threeEpisodes();
    const hybrid = await mem.search("coffee", { groupId: "g1", method: "hybrid" });
    server.script(judged(true, [], { status: 503, times: 1 }));
    const res = await mem.search("coffee", { groupId: "g1", method: "agentic" });
    assert.equal(res.method, "hybrid");
    assert.deepEqual(ids(res), ids(hybrid));
    assert.deepEqual(res.queries, ["coffee"]);
    assert.equal(res.warnings.length, 1);
    assert.deepEqual([res.warnings[0].code, res.warnings[0].cause, res.warnings[0].status], ["AGENTIC_FAILED", "LLM_HTTP", 503]);

    server.script([judged(false), refined([], { status: 500, times: 1 })]);
    const refinement = await mem.search("coffee", { groupId: "g1", method: "agentic" });
    assert.deepEqual([refinement.method, refinement.warnings[0].code], ["hybrid", "AGENTIC_FAILED"]);
    server.reset();
    server.script({ kind: "chat", match: [JUDGE], reply: "I think so" });
    const unusable = await mem.search("coffee", { groupId: "g1", method: "agentic" });
    assert.deepEqual([unusable.method, unusable.warnings[0].cause], ["hybrid", "LLM_RESPONSE"]);
  });

  test("without an LLM: the hybrid search and a warning", T, async () => {
    const none = new Memory({ ...testConfig(server), llm: { provider: "none" } });
    await none.add("Alice drinks coffee", { userId: "alice", infer: false });
    const before = server.count("chat");
    const res = await none.search("coffee", { userId: "alice", method: "agentic" });
    assert.equal(server.count("chat"), before, "no LLM, no call");
    assert.deepEqual([res.method, res.results.length, res.warnings[0].code], ["hybrid", 1, "AGENTIC_FAILED"]);
    assert.deepEqual(res.queries, ["coffee"]);
  });
});
