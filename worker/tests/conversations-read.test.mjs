// The conversation API's fetch (GET /api/v1/memories) and search (GET /api/v1/memories/search): three
// episodes of one group on 10, 15 and 20 January 2025 (each closed by a gap, extracted by a scripted reply)
// and one message still pending. Pages, time ranges, the query string or a JSON body, the retrieve methods,
// memory types, foresight at the current time, and every bad parameter as the conversation API's error envelope.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ACME, T, startServer } from "./helpers.mjs";
import {
  BASE, JUDGE, assertFailed, episode, getWithBody, hits, message, noBoundary, okResult, query, startConversationWorker,
} from "./conversations-helpers.mjs";

let server;
let worker;
const SEARCH = `${BASE}/search`;
const call = (...args) => worker.call(...args);
const get = async (path, params) => okResult(await call("GET", path + query(params)));
const EPISODES = [
  "On 10 January 2025 Alice chose espresso beans for the coffee corner.",
  "On 15 January 2025 Bob set the sprint demo for Friday.",
  "On 20 January 2025 Carol proposed lunch at the Thai place.",
];

before(async () => {
  server = await startServer();
  worker = await startConversationWorker(server);
  server.script([
    noBoundary(),
    episode("espresso beans", { summary: EPISODES[0], foresight: [{ text: "Alice will order more espresso beans", valid_until: "2025-01-12" }] }),
    episode("sprint demo", { summary: EPISODES[1], foresight: [{ text: "The sprint demo happens on Friday", valid_until: "2025-01-17" }] }),
    episode("Thai place", { summary: EPISODES[2] }),
  ]);
  for (const m of [
    message("a1", "2025-01-10T09:00:00Z", "alice", "We picked espresso beans for the office coffee corner.", "apollo"),
    message("a2", "2025-01-15T09:00:00Z", "bob", "The sprint demo is set for Friday.", "apollo"),
    message("a3", "2025-01-20T09:00:00Z", "carol", "Lunch at the Thai place tomorrow?", "apollo"),
    message("a4", "2025-01-25T09:00:00Z", "alice", "Coffee tasting next week?", "apollo"),
  ]) {
    okResult(await call("POST", BASE, { body: m }));
  }
});
after(async () => {
  await worker?.dispose();
  await server?.close();
});

test("fetch pages one memory type of a group, oldest first", T, async () => {
  const all = await get(BASE, { group_id: "apollo" });
  assert.deepEqual(all.memories.map((m) => m.content), EPISODES);
  assert.deepEqual([all.total_count, all.has_more], [3, false]);
  const page = await get(BASE, { group_id: "apollo", limit: 2 });
  assert.deepEqual([page.memories.length, page.total_count, page.has_more], [2, 3, true]);
  const rest = await get(BASE, { group_id: "apollo", limit: 2, offset: 2 });
  assert.deepEqual([rest.memories.map((m) => m.content), rest.has_more], [[EPISODES[2]], false]);
  const foresight = await get(BASE, { group_id: "apollo", memory_type: "foresight" });
  assert.deepEqual(foresight.memories.map((m) => m.memory_type), ["foresight", "foresight"]);
  assert.deepEqual((await get(BASE, { group_id: "apollo", memory_type: "event_log" })).memories, []);
  assert.deepEqual((await get(BASE, { group_id: "__all__", user_id: "nobody" })).memories, []);
  assert.equal((await get(BASE, { group_id: "apollo", include_compressed: true })).total_count, 3);
  // Memories keep no version numbers: a well-formed version_range keeps every memory.
  assert.deepEqual((await get(BASE, { group_id: "apollo", version_range: "[1,2]" })).memories, all.memories);
  const ranged = okResult(await getWithBody(worker, BASE, { group_id: "apollo", version_range: [0, 3] }, ACME));
  assert.deepEqual(ranged.memories, all.memories);
});

test("a participant's reads see the group's memories that involve them, and nobody else's", T, async () => {
  const mine = await get(BASE, { user_id: "alice", memory_type: "episodic_memory" });
  assert.deepEqual(mine.memories.map((m) => m.content), [EPISODES[0]], "alice's episode of the group chat");
  const bob = await get(SEARCH, { query: "sprint demo Friday", user_id: "bob", group_id: "apollo" });
  assert.deepEqual(hits(bob).map(([, text]) => text), [EPISODES[1]]);
  const anywhere = await get(SEARCH, { query: "sprint demo Friday", user_id: "bob" });
  assert.deepEqual(hits(anywhere).map(([, text]) => text), [EPISODES[1]], "without group_id: every group");
  assert.deepEqual(hits(await get(SEARCH, { query: "espresso beans", user_id: "bob", group_id: "apollo" })), []);
  assert.deepEqual((await get(BASE, { user_id: "dave", memory_type: "episodic_memory" })).memories, []);
  // The plans of the episodes they took part in are theirs to read too.
  const plans = await get(BASE, { user_id: "alice", memory_type: "foresight" });
  assert.deepEqual(plans.memories.map((m) => m.content), ["Alice will order more espresso beans"]);
  const bobsPlans = await get(SEARCH, { query: "sprint demo Friday", user_id: "bob", group_id: "apollo", memory_types: ["foresight"] });
  assert.deepEqual(hits(bobsPlans), [["foresight", "The sprint demo happens on Friday"]]);
});

test("fetch narrows to a time range (start_time / end_time, a time without a zone read as UTC)", T, async () => {
  const range = await get(BASE, { group_id: "apollo", start_time: "2025-01-14T00:00:00Z", end_time: "2025-01-16T00:00:00+00:00" });
  assert.deepEqual([range.memories.map((m) => m.content), range.total_count], [[EPISODES[1]], 1]);
  const since = await get(BASE, { group_id: "apollo", start_time: "2025-01-19T00:00:00" });
  assert.deepEqual(since.memories.map((m) => m.content), [EPISODES[2]]);
  const until = await get(BASE, { group_id: "apollo", end_time: "2025-01-10T09:00:00Z" });
  assert.deepEqual(until.memories.map((m) => m.content), [EPISODES[0]]);
});

test("search by the query string, a GET body or a POST body, grouped by conversation", T, async () => {
  const byQuery = await get(SEARCH, { query: "espresso beans", group_id: "apollo" });
  assert.deepEqual(hits(byQuery), [["episodic_memory", EPISODES[0]]]);
  assert.equal(byQuery.memories[0].episodic_memory[0].group_id, "apollo");
  assert.equal(typeof byQuery.scores[0].episodic_memory[0], "number");
  assert.equal(byQuery.importance_scores.length, 1);
  assert.deepEqual([byQuery.original_data, byQuery.total_count, byQuery.has_more], [[], 1, false]);
  assert.equal(byQuery.query_metadata.retrieve_method, "keyword");
  assert.deepEqual(byQuery.pending_messages.map((m) => m.message_id), ["a4"]);

  const body = { query: "espresso beans", group_id: "apollo", memory_types: ["episodic_memory", "foresight"], top_k: 10 };
  const viaGet = await getWithBody(worker, SEARCH, body, ACME);
  const viaPost = okResult(await call("POST", SEARCH, { body }));
  assert.deepEqual(okResult(viaGet).memories, viaPost.memories);
  assert.deepEqual(Object.keys(viaPost.memories[0]).sort(), ["episodic_memory", "foresight"]);
  assert.deepEqual(hits(viaPost).sort(), [["episodic_memory", EPISODES[0]], ["foresight", "Alice will order more espresso beans"]]);
  const lean = okResult(await call("POST", SEARCH, { body: { ...body, include_metadata: false } }));
  assert.ok(lean.memories[0].episodic_memory.every((m) => !("metadata" in m)));
  const list = await get(SEARCH, { query: "espresso", group_id: "apollo", memory_types: "episodic_memory,foresight", include_compressed: false });
  assert.equal(hits(list).length, 2);
});

test("search: total_count counts the matches, whatever top_k", T, async () => {
  // "espresso" matches one episode and one plan of apollo's memories of those two types.
  const counts = [];
  for (const top_k of [1, 2, 5, 100]) {
    const found = await get(SEARCH, { query: "espresso", group_id: "apollo", memory_types: "episodic_memory,foresight", top_k });
    counts.push([top_k, hits(found).length, found.total_count, found.has_more]);
  }
  assert.deepEqual(counts, [[1, 1, 2, true], [2, 2, 2, false], [5, 2, 2, false], [100, 2, 2, false]]);
  for (const retrieve_method of ["hybrid", "vector", "rrf"]) {
    const totals = [];
    for (const top_k of [1, 2, 5, 100]) {
      const found = await get(SEARCH, { query: "espresso", group_id: "apollo", memory_types: "episodic_memory,foresight", top_k, retrieve_method });
      totals.push(found.total_count);
    }
    assert.ok(totals.every((total) => total === totals[0]), `${retrieve_method}: ${totals}`);
  }
});

test("search: top_k and has_more, the time range, foresight at current_time, no query", T, async () => {
  const one = await get(SEARCH, { query: "January 2025", group_id: "apollo", top_k: 1 });
  assert.deepEqual([hits(one).length, one.has_more, one.total_count], [1, true, 3], "total_count: found, not returned");
  const all = await get(SEARCH, { query: "January 2025", group_id: "apollo", top_k: 100 });
  assert.deepEqual([hits(all).length, all.has_more, all.total_count], [3, false, 3]);
  const ranged = await get(SEARCH, { query: "January 2025", group_id: "apollo", start_time: "2025-01-19T00:00:00Z", end_time: "2025-01-21T00:00:00Z" });
  assert.deepEqual(hits(ranged), [["episodic_memory", EPISODES[2]]]);
  const now = { query: "espresso sprint demo beans", group_id: "apollo", memory_types: ["foresight"], retrieve_method: "keyword" };
  assert.equal(hits(okResult(await call("POST", SEARCH, { body: now }))).length, 2);
  const later = okResult(await call("POST", SEARCH, { body: { ...now, current_time: "2025-01-16T00:00:00Z" } }));
  assert.deepEqual(hits(later), [["foresight", "The sprint demo happens on Friday"]]);
  // No query, current_time: the newest foresight that has not ended (a filter, no ranking).
  const current = await get(SEARCH, { group_id: "apollo", memory_types: "foresight", current_time: "2025-01-16T00:00:00Z" });
  assert.deepEqual(hits(current), [["foresight", "The sprint demo happens on Friday"]]);
  const newest = await get(SEARCH, { group_id: "apollo", top_k: 2 });
  assert.deepEqual(hits(newest).map(([, text]) => text), [EPISODES[2], EPISODES[1]]);
  assert.deepEqual([newest.has_more, newest.total_count], [true, 3]);
});

test("search by vector, hybrid, rrf (with a radius) and agentic", T, async () => {
  for (const method of ["vector", "hybrid", "rrf"]) {
    const found = await get(SEARCH, { query: "espresso beans coffee corner", group_id: "apollo", retrieve_method: method, radius: 0.1 });
    assert.equal(hits(found)[0][1], EPISODES[0], method);
    assert.equal(found.metadata.retrieve_method, method);
  }
  // The API's own example sends radius with keyword search: accepted, and the keyword ranking is unchanged.
  const keyword = { query: "espresso beans coffee corner", group_id: "apollo", retrieve_method: "keyword" };
  assert.deepEqual(hits(await get(SEARCH, { ...keyword, radius: 0.9 })), hits(await get(SEARCH, keyword)));
  server.script({ kind: "chat", match: [JUDGE], reply: { sufficient: true, reasoning: "found", missing_information: [] }, times: 1 });
  const agentic = await get(SEARCH, { query: "espresso beans", group_id: "apollo", retrieve_method: "agentic" });
  assert.equal(hits(agentic)[0][1], EPISODES[0]);
  assert.deepEqual(agentic.query_metadata.queries, ["espresso beans"]);
  assert.equal(agentic.warnings, undefined);
  server.script({ kind: "embedding", match: ["unembeddable"], status: 500, times: 1 });
  const failed = await call("GET", SEARCH + query({ query: "unembeddable", group_id: "apollo", retrieve_method: "vector" }));
  assertFailed(failed, 502, "SYSTEM_ERROR", SEARCH);
});

test("bad fetch and search parameters are INVALID_PARAMETER", T, async () => {
  for (const params of [
    {},
    { user_id: "__all__", group_id: "__all__" },
    { group_id: "apollo", limit: 501 },
    { group_id: "apollo", limit: 0 },
    { group_id: "apollo", limit: "many" },
    { group_id: "apollo", memory_type: "semantic" },
    { group_id: "apollo", version_range: "[2,1]" },
    { group_id: "apollo", version_range: "latest" },
    { group_id: "apollo", include_compressed: "maybe" },
    { group_id: "apollo", colour: "red" },
    { group_id: "apollo", start_time: "yesterday" },
    { group_id: "apollo", start_time: "2025-01-20T00:00:00Z", end_time: "2025-01-10T00:00:00Z" },
  ]) {
    assertFailed(await call("GET", BASE + query(params)), 400, "INVALID_PARAMETER", BASE);
  }
  for (const params of [
    { query: "x" },
    { query: "x", group_id: "apollo", memory_types: "profile" },
    { query: "x", group_id: "apollo", top_k: 101 },
    { query: "x", group_id: "apollo", retrieve_method: "bm25" },
    { query: "x", group_id: "apollo", radius: 2, retrieve_method: "vector" },
    { query: "x", group_id: "apollo", include_metadata: "yes" },
  ]) {
    assertFailed(await call("GET", SEARCH + query(params)), 400, "INVALID_PARAMETER", SEARCH);
  }
  assertFailed(await getWithBody(worker, `${SEARCH}?group_id=apollo`, { query: "x" }, ACME), 400, "INVALID_PARAMETER");
  assertFailed(await call("POST", SEARCH, { raw: "[1", headers: { "content-type": "application/json" } }), 400, "INVALID_PARAMETER");
  assertFailed(await call("POST", SEARCH, { body: { query: "x", group_id: "apollo", memoryTypes: [] } }), 400, "INVALID_PARAMETER");
});
